package nntrain

import (
	"bytes"
	"context"
	"math"
	"math/bits"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/eval"
	"github.com/nechecb/nechecb/eval/nn"
	"github.com/nechecb/nechecb/train/fit"
	"github.com/nechecb/nechecb/train/positions"
)

// constant scores every position alike.
type constant int

func (c constant) Evaluate(*engine.Position) int { return int(c) }
func (c constant) Raw(*engine.Position) float64  { return float64(c) }
func constantRival(name string, s int) Rival {
	return Rival{Name: name, New: func() eval.Evaluator { return constant(s) }}
}

// randomNet returns a tiny net of seeded random weights.
func randomNet(seed uint64) *nn.Net {
	m := newModel(tiny)
	net, _ := m.quantise(m.randomInit(seed), 100)
	return net
}

// handLoss returns the mean loss of score's predictions on the records of
// idx, overall and by bucket, written out from the definitions.
func handLoss(recs []positions.Record, idx []int32, k, lambda float64, score func(p *engine.Position) int) (float64, [fit.NumBuckets]float64) {
	var sum float64
	var bucket [fit.NumBuckets]float64
	var n [fit.NumBuckets]int
	for _, i := range idx {
		r := &recs[i]
		p := r.Board()
		tg := lambda*float64(r.Result)/2 + (1-lambda)/(1+math.Exp(-k*float64(r.Score)/100))
		pr := 1 / (1 + math.Exp(-k*float64(score(&p))/100))
		l := -(tg*math.Log(pr) + (1-tg)*math.Log(1-pr))
		b := fit.BucketOf(bits.OnesCount64(p.Pieces[0] | p.Pieces[1]))
		sum, bucket[b], n[b] = sum+l, bucket[b]+l, n[b]+1
	}
	for b := range bucket {
		bucket[b] /= float64(n[b])
	}
	return sum / float64(len(idx)), bucket
}

// TestCompare measures a net with no epochs against material and two
// constant scores and checks each loss against a sum written out here: a
// score of 0 predicts 1/2, whose loss is ln 2 whatever the target; material
// (a man 100, a king 130) and the net's own integer scores predict
// sigmoid(K·s/100) against lambda·result + (1−lambda)·sigmoid(K·score/100).
// The figures do not depend on the number of workers, and the net comes
// back unchanged. (The fit keeps its targets as float32, hence the
// tolerance of 1e-6.)
func TestCompare(t *testing.T) {
	recs := labelled(600, 11)
	start := randomNet(3)
	material, err := eval.Load("material")
	if err != nil {
		t.Fatal(err)
	}
	cfg := tinyConfig()
	cfg.Epochs, cfg.K, cfg.Lambda = 0, 0.8, 0.3
	cfg.Rivals = []Rival{{Name: "material", New: material}, constantRival("zero", 0), constantRival("plus", 100)}
	_, validIdx, err := fit.Split(recs, cfg.Validation)
	if err != nil {
		t.Fatal(err)
	}
	scores := []func(p *engine.Position) int{
		func(p *engine.Position) int { return start.Centipawns(start.Output(p)) },
		func(p *engine.Position) int {
			own, opp := p.Pieces[p.Side], p.Pieces[p.Side^1]
			return 100*(bits.OnesCount64(own&^p.Kings)-bits.OnesCount64(opp&^p.Kings)) + 130*(bits.OnesCount64(own&p.Kings)-bits.OnesCount64(opp&p.Kings))
		},
		func(*engine.Position) int { return 0 },
		func(*engine.Position) int { return 100 },
	}
	var first []Comparison
	for _, workers := range []int{1, 3} {
		cfg.Workers = workers
		res, err := Train(context.Background(), recs, start, cfg, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		if res.Net != start || len(res.Epochs) != 0 || res.ValidN != len(validIdx) {
			t.Fatalf("no epochs: net %p (start %p), %d epochs, %d held out", res.Net, start, len(res.Epochs), res.ValidN)
		}
		if len(res.Compared) != 4 || res.Compared[0].Name != ownName || res.Compared[2].Name != "zero" {
			t.Fatalf("compared %+v", res.Compared)
		}
		for j, c := range res.Compared {
			loss, buckets := handLoss(recs, validIdx, cfg.K, cfg.Lambda, scores[j])
			if math.Abs(c.Loss-loss) > 1e-6 {
				t.Errorf("workers %d: %s: loss %.9f, by hand %.9f", workers, c.Name, c.Loss, loss)
			}
			for b := range buckets {
				if !(math.Abs(c.Buckets[b]-buckets[b]) < 1e-6) && !(math.IsNaN(c.Buckets[b]) && math.IsNaN(buckets[b])) {
					t.Errorf("workers %d: %s: bucket %s loss %.9f, by hand %.9f", workers, c.Name, fit.BucketName(b), c.Buckets[b], buckets[b])
				}
			}
		}
		if math.Abs(res.Compared[2].Loss-math.Ln2) > 1e-12 {
			t.Errorf("a score of 0: loss %.12f, want ln 2", res.Compared[2].Loss)
		}
		if first == nil {
			first = res.Compared
		} else if c := res.Compared; c[1].Loss != first[1].Loss || c[0].Loss != first[0].Loss {
			t.Errorf("the losses change with the workers: %v and %v", first, c)
		}
	}
	for _, bad := range []func(*Config) (*nn.Net, string){
		func(c *Config) (*nn.Net, string) { return nil, "epochs 0" },
		func(c *Config) (*nn.Net, string) { c.Validation = 0; return start, "validation" },
		func(c *Config) (*nn.Net, string) { c.Epochs, c.Validation = 1, 0; return nil, "validation" },
	} {
		c := cfg
		net, want := bad(&c)
		if _, err := Train(context.Background(), recs, net, c, nil, nil); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Train: error %v, want one about %s", err, want)
		}
	}
}

// TestAnnotate adds a line to a net's note: the file differs only in the
// note (and its length and checksum), a long note loses its oldest
// paragraphs, and a damaged file or an empty remark writes nothing.
func TestAnnotate(t *testing.T) {
	dir := t.TempDir()
	in, out := filepath.Join(dir, "a.nn"), filepath.Join(dir, "b.nn")
	net := randomNet(5)
	net.Note = "round 1\nfit\n\nround 2\nfit"
	if err := net.WriteFile(in); err != nil {
		t.Fatal(err)
	}
	if err := Annotate(in, out, "gate: +12 Elo"); err != nil {
		t.Fatal(err)
	}
	got, err := nn.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if want := net.Note + "\ngate: +12 Elo"; got.Note != want {
		t.Errorf("note %q, want %q", got.Note, want)
	}
	a, _ := os.ReadFile(in)
	b, _ := os.ReadFile(out)
	const header = 24 // up to the note's length
	if !bytes.Equal(a[:header], b[:header]) || !bytes.Equal(a[header+4+len(net.Note):len(a)-4], b[header+4+len(got.Note):len(b)-4]) {
		t.Errorf("the weights or the header changed")
	}
	net.Note = strings.Repeat("x", nn.MaxNote/2) + "\n\n" + strings.Repeat("y", nn.MaxNote/2-2)
	if err := net.WriteFile(in); err != nil {
		t.Fatal(err)
	}
	if err := Annotate(in, out, "gate"); err != nil {
		t.Fatal(err)
	}
	if got, err := nn.ReadFile(out); err != nil || !strings.HasPrefix(got.Note, "(earlier lineage cut)\n\nyyy") || !strings.HasSuffix(got.Note, "y\ngate") {
		t.Errorf("a full note: %v, %.40q ... %q", err, got.Note, got.Note[len(got.Note)-10:])
	}
	os.Remove(out)
	if err := os.WriteFile(in, a[:len(a)-9], 0o644); err != nil {
		t.Fatal(err)
	}
	if err := Annotate(in, out, "gate"); err == nil || !strings.Contains(err.Error(), in) {
		t.Errorf("a truncated file: error %v, want one naming it", err)
	}
	if err := Annotate(filepath.Join(dir, "none.nn"), out, "gate"); err == nil {
		t.Errorf("a missing file: no error")
	}
	if err := net.WriteFile(in); err != nil {
		t.Fatal(err)
	}
	if err := Annotate(in, out, " "); err == nil {
		t.Errorf("an empty remark: no error")
	}
	if _, err := os.Stat(out); err == nil {
		t.Errorf("a refused annotation wrote %s", out)
	}
}
