package fit

import (
	"fmt"
	"io"
	"math"
	"time"

	"github.com/nechecb/nechecb/internal/plot"
)

// Epoch is the measurement after one epoch.
type Epoch struct {
	// Epoch counts from 1.
	Epoch int
	// Train is the mean loss on the training split during the epoch, and
	// Valid on the held-out split after it: cross-entropy against the
	// target.
	Train, Valid float64
	// Buckets holds the held-out loss of each piece-count bucket
	// (BucketTops); NaN where a bucket has no positions.
	Buckets [NumBuckets]float64
	// Elapsed is the time since the fit started.
	Elapsed time.Duration
}

// Curve is the record of a fit's epochs and of the one whose weights are
// kept.
type Curve struct {
	// Epochs holds every epoch's losses.
	Epochs []Epoch
	// Best is the epoch whose weights were kept (0: the start).
	Best int
	// StartValid is the held-out loss of the starting weights (NaN when
	// none is held out), and StartBuckets its value in each piece-count
	// bucket.
	StartValid   float64
	StartBuckets [NumBuckets]float64
	// BucketN counts the held-out positions of each bucket.
	BucketN [NumBuckets]int
	// TrainN and ValidN count the positions of the two splits.
	TrainN, ValidN int
}

// Add records e and reports whether it is the best epoch so far (the
// lowest held-out loss; with nothing held out, the latest), whose weights
// the fit keeps.
func (c *Curve) Add(e Epoch) bool {
	c.Epochs = append(c.Epochs, e)
	if c.ValidN > 0 && !(e.Valid < c.BestValid()) {
		return false
	}
	c.Best = e.Epoch
	return true
}

// BestValid returns the held-out loss of the kept epoch (or the start).
func (c *Curve) BestValid() float64 {
	if c.Best > 0 && c.Best <= len(c.Epochs) {
		return c.Epochs[c.Best-1].Valid
	}
	return c.StartValid
}

// Kept returns the held-out loss by bucket of the kept epoch (or the
// start).
func (c *Curve) Kept() [NumBuckets]float64 {
	if c.Best > 0 && c.Best <= len(c.Epochs) {
		return c.Epochs[c.Best-1].Buckets
	}
	return c.StartBuckets
}

// EpochLine is the log line of epoch e.
func EpochLine(e Epoch) string {
	return fmt.Sprintf("epoch %d: training loss %.6f, held-out loss %.6f (%s)%s", e.Epoch, e.Train, e.Valid, e.Elapsed.Round(1e8), BucketText(e.Valid, e.Buckets))
}

// WriteKept writes the held-out loss of the kept epoch by piece count,
// with each bucket's positions, when some were held out.
func (c *Curve) WriteKept(w io.Writer) {
	if c.ValidN == 0 {
		return
	}
	fmt.Fprintf(w, "held-out loss by pieces (kept epoch):")
	kept := c.Kept()
	for b := range NumBuckets {
		fmt.Fprintf(w, " %s %.6f (%d)", BucketName(b), kept[b], c.BucketN[b])
	}
	fmt.Fprintln(w)
}

// SVG draws the loss curve and the held-out loss by piece count at the
// start and at the kept epoch (internal/plot).
func (c *Curve) SVG(title string) []byte {
	ch := plot.LossChart{Title: title, Train: []float64{math.NaN()}, Valid: []float64{math.NaN()}, Best: c.Best}
	if c.ValidN > 0 {
		ch.Valid[0] = c.StartValid
	}
	for _, e := range c.Epochs {
		ch.Train, ch.Valid = append(ch.Train, e.Train), append(ch.Valid, e.Valid)
	}
	kept := c.Kept()
	for b := range NumBuckets {
		ch.Groups = append(ch.Groups, BucketName(b))
		ch.Counts = append(ch.Counts, c.BucketN[b])
		ch.Start, ch.Kept = append(ch.Start, c.StartBuckets[b]), append(ch.Kept, kept[b])
	}
	return plot.LossSVG(ch)
}
