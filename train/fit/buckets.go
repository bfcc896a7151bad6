package fit

import (
	"fmt"
	"math"
	"math/bits"
	"strings"

	"github.com/nechecb/nechecb/train/positions"
)

// NumBuckets is the number of piece-count buckets the held-out loss is
// reported by.
const NumBuckets = 5

// BucketTops are the largest piece counts of the buckets: 2-6, 7-10,
// 11-14, 15-19 and 20-24 pieces (the first takes any smaller count too).
var BucketTops = [NumBuckets]int{6, 10, 14, 19, 24}

// BucketName returns bucket b's range of piece counts, as "7-10".
func BucketName(b int) string {
	lo := 2
	if b > 0 {
		lo = BucketTops[b-1] + 1
	}
	return fmt.Sprintf("%d-%d", lo, BucketTops[b])
}

// BucketOf returns the bucket of a board with n pieces.
func BucketOf(n int) int {
	for b, top := range BucketTops {
		if n <= top {
			return b
		}
	}
	return NumBuckets - 1
}

// RecordBucket returns the piece-count bucket of a record's board.
func RecordBucket(r *positions.Record) int {
	return BucketOf(bits.OnesCount32(r.Black | r.White))
}

// BucketText lists the losses by piece-count bucket, as " [2-6 0.41000,
// ...]", or nothing when the loss overall is NaN (none held out).
func BucketText(overall float64, losses [NumBuckets]float64) string {
	if math.IsNaN(overall) {
		return ""
	}
	var parts []string
	for b, l := range losses {
		parts = append(parts, fmt.Sprintf("%s %.5f", BucketName(b), l))
	}
	return " [" + strings.Join(parts, ", ") + "]"
}

// SumBuckets adds up the shards' losses and counts by bucket, in shard
// order (so that the sums do not depend on the workers): a loss pass keeps
// one row of each per shard.
func SumBuckets(losses [][NumBuckets]float64, counts [][NumBuckets]int) (sum [NumBuckets]float64, n [NumBuckets]int) {
	for s := range losses {
		for b := range NumBuckets {
			sum[b] += losses[s][b]
			n[b] += counts[s][b]
		}
	}
	return sum, n
}
