package fit

import "math"

// Adam is the state of a mini-batch Adam fit (Kingma and Ba) whose batch
// gradient is computed in a fixed number of shards: one gradient per
// shard, summed in shard order by each step, so that the result does not
// depend on the number of workers. The options (Decay, Frozen, Bound) are
// what the trainers differ by; the zero values leave them out.
type Adam struct {
	// Theta holds the parameters, and M and V Adam's moments of each.
	Theta, M, V []float32
	// Grads holds each shard's summed gradient, as long as Theta; a step
	// uses and clears them.
	Grads [][]float32
	// Losses holds each shard's loss during the last Batch.
	Losses []float64
	// Steps counts the steps taken (Adam's bias corrections need it).
	Steps int
	// Workers is the number of goroutines.
	Workers int
	// Decayed, when not nil, marks the parameters that shrink by
	// lr·Decay of themselves at every step (decoupled weight decay).
	Decayed []bool
	Decay   float32
	// Frozen, when not nil, marks the parameters a step leaves alone (their
	// moments too).
	Frozen []bool
	// Bound, when not nil, holds each parameter within ±Bound[j].
	Bound []float32
}

// NewAdam returns the state of a fit of theta in shards shards on workers
// goroutines, with zero moments and gradients.
func NewAdam(theta []float32, shards, workers int) *Adam {
	a := &Adam{Theta: theta, M: make([]float32, len(theta)), V: make([]float32, len(theta)), Losses: make([]float64, shards), Workers: workers}
	a.Grads = make([][]float32, shards)
	for s := range a.Grads {
		a.Grads[s] = make([]float32, len(theta))
	}
	return a
}

// Batch runs shard(s) for every shard s, which adds the gradient of its
// part of the batch (ShardRange) to Grads[s] and returns that part's
// summed loss; then it takes one step of size lr on the mean gradient of
// the batch's n positions. It returns the batch's summed loss (before the
// step), added in shard order.
func (a *Adam) Batch(n int, lr float32, shard func(s int) float64) float64 {
	Parallel(a.Workers, len(a.Grads), func(s int) { a.Losses[s] = shard(s) })
	a.Step(n, lr)
	var sum float64
	for _, l := range a.Losses {
		sum += l
	}
	return sum
}

// Step applies the summed gradient of n positions with step size lr and
// clears it.
func (a *Adam) Step(n int, lr float32) {
	const b1, b2, eps = 0.9, 0.999, 1e-8
	a.Steps++
	c1 := float32(1 - math.Pow(b1, float64(a.Steps)))
	c2 := float32(1 - math.Pow(b2, float64(a.Steps)))
	inv := 1 / float32(n)
	decay := lr * a.Decay
	Parallel(a.Workers, len(a.Grads), func(s int) {
		lo, hi := ShardRange(s, len(a.Grads), len(a.Theta))
		th := a.Theta[lo:hi]
		m, v := a.M[lo:hi][:len(th)], a.V[lo:hi][:len(th)]
		var dec, frz []bool
		var lim []float32
		if a.Decayed != nil {
			dec = a.Decayed[lo:hi][:len(th)]
		}
		if a.Frozen != nil {
			frz = a.Frozen[lo:hi][:len(th)]
		}
		if a.Bound != nil {
			lim = a.Bound[lo:hi][:len(th)]
		}
		// Sum the shards' gradients into the first one's, in shard
		// order, clearing the others.
		g0 := a.Grads[0][lo:hi][:len(th)]
		for _, gk := range a.Grads[1:] {
			gk = gk[lo:hi][:len(g0)]
			for j, x := range gk {
				g0[j] += x
			}
			clear(gk)
		}
		for j := range th {
			if frz != nil && frz[j] {
				continue
			}
			g := g0[j] * inv
			m[j] = b1*m[j] + (1-b1)*g
			v[j] = b2*v[j] + (1-b2)*g*g
			x := th[j] - lr*(m[j]/c1)/(float32(math.Sqrt(float64(v[j]/c2)))+eps)
			if dec != nil && dec[j] {
				x -= decay * x
			}
			if lim != nil {
				x = max(-lim[j], min(lim[j], x))
			}
			th[j] = x
		}
		clear(g0)
	})
}
