package neche

import (
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"

	genome "github.com/nechecb/nechecb/eval/neche"
)

// within fails t when got is more than k standard deviations from the
// binomial mean of n trials with chance p.
func within(t *testing.T, what string, got, n int, p, k float64) {
	t.Helper()
	mean, sd := float64(n)*p, math.Sqrt(float64(n)*p*(1-p))
	if math.Abs(float64(got)-mean) > k*sd {
		t.Errorf("%s: %d of %d, expected %.1f ± %.1f (%.0f sd)", what, got, n, mean, k*sd, k)
	}
}

func TestCrossoverTakesWholeGenesInPlace(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	fromA, total := 0, 0
	for range 100 {
		a, b := RandomGenome(rng, 200), RandomGenome(rng, 200)
		child := Crossover(rng, a, b)
		if len(child) != len(a) {
			t.Fatalf("child has %d genes, parents %d", len(child), len(a))
		}
		for i, x := range child {
			switch {
			case x == a[i] && x == b[i]:
				continue // the parents agree: no information
			case x == a[i]:
				fromA++
			case x != b[i]:
				t.Fatalf("gene %d of the child %v is neither parent's gene %d (%v, %v)", i, x, i, a[i], b[i])
			}
			total++
		}
	}
	within(t, "genes taken from the first parent", fromA, total, 0.5, 5)
}

func TestPointMutationRate(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 2))
	const rate = 0.01
	redrawn, changed, letters := 0, 0, 0
	for range 50 {
		g := RandomGenome(rng, 200)
		before := slices.Clone(g)
		redrawn += PointMutate(rng, g, rate)
		if len(g) != len(before) {
			t.Fatalf("point mutation changed the length to %d genes", len(g))
		}
		for i := range g {
			for k := range genome.GeneLen {
				if Letter(g[i], k) != Letter(before[i], k) {
					changed++
				}
			}
		}
		letters += len(g) * genome.GeneLen
	}
	within(t, "letters redrawn", redrawn, letters, rate, 5)
	// A redrawn letter is one of the four, so three in four change.
	within(t, "letters changed", changed, letters, rate*0.75, 5)
}

// Letter and setLetter read and write the 16 letters of a gene as the
// genome's text spells them.
func TestLettersMatchText(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	for range 200 {
		x := RandomGene(rng)
		text := genome.Genome{x}.String()
		for k := range genome.GeneLen {
			if got := "ACGT"[Letter(x, k)]; got != text[k] {
				t.Fatalf("letter %d of %s: %c", k, text, got)
			}
			y := x
			d := rng.IntN(4)
			setLetter(&y, k, d)
			want := text[:k] + string("ACGT"[d]) + text[k+1:]
			if got := (genome.Genome{y}).String(); got != want {
				t.Fatalf("setting letter %d of %s to %c gave %s", k, text, "ACGT"[d], got)
			}
		}
	}
}

func TestTranslocationMovesOneRunOfWholeGenes(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	for range 500 {
		n := 1 + rng.IntN(40)
		g := make(genome.Genome, n)
		for i := range g {
			g[i] = genome.Gene{Raw: uint32(i)} // gene i is recognisable
		}
		Translocate(rng, g)
		if len(g) != n {
			t.Fatalf("translocation changed %d genes into %d", n, len(g))
		}
		// The result is the original order with one run cut out and put
		// back elsewhere: some split of it into rest-with-a-hole and run
		// gives back 0..n-1.
		if !isTranslocation(g) {
			t.Fatalf("not one run of genes moved: %v", raws(g))
		}
	}
}

func raws(g genome.Genome) []int {
	out := make([]int, len(g))
	for i, x := range g {
		out[i] = int(x.Raw)
	}
	return out
}

// isTranslocation reports whether g (genes numbered by Raw) is 0..n-1
// with one contiguous run moved: moving a run is swapping it with the run
// beside it, so between the first and the last gene out of place the
// numbers must read y..k, then i..y-1.
func isTranslocation(g genome.Genome) bool {
	r := raws(g)
	i, k := 0, len(r)-1
	for i < len(r) && r[i] == i {
		i++
	}
	if i == len(r) {
		return true // nothing moved
	}
	for r[k] == k {
		k--
	}
	y := r[i]
	if y <= i || y > k {
		return false
	}
	at := i
	for v := y; v <= k; v++ {
		if r[at] != v {
			return false
		}
		at++
	}
	for v := i; v < y; v++ {
		if r[at] != v {
			return false
		}
		at++
	}
	return true
}

func TestTranslocationRate(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	v := Variation{TranslocationRate: 0.02}
	g := RandomGenome(rng, 50)
	count := 0
	const trials = 20000
	for range trials {
		if _, moved := v.Mutate(rng, g); moved {
			count++
		}
	}
	within(t, "children translocated", count, trials, 0.02, 5)
}

// A child that is not viable is made again: with one parent whose only
// link to the output is gene 0, and one with no such link, half the
// crossovers fail, and every child returned is viable.
func TestNonViableChildrenAreRedrawn(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 6))
	viable := make(genome.Genome, 20)
	dead := make(genome.Genome, 20)
	for i := range viable {
		viable[i] = genome.Gene{Source: 0, Sink: 40, Raw: genome.RawBias}
		dead[i] = genome.Gene{Source: 0, Sink: 40, Raw: genome.RawBias}
	}
	viable[0] = genome.Gene{Source: 3, Sink: genome.Output, Raw: genome.RawBias + 1}
	if !viable.Viable() || dead.Viable() {
		t.Fatal("test parents are not what they should be")
	}
	parents := func() (genome.Genome, genome.Genome) { return viable, dead }
	tries := 0
	const children = 2000
	for range children {
		child, n := Child(rng, parents, Variation{})
		if !child.Viable() {
			t.Fatalf("a non-viable child was returned: %s", child)
		}
		tries += n
	}
	// Attempts per child are geometric with p = 1/2: mean 2.
	if mean := float64(tries) / children; math.Abs(mean-2) > 0.15 {
		t.Errorf("%.2f attempts per child, want about 2", mean)
	}
}

func TestRouletteProportions(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	weights := []float64{0.5, 1.5, 2.5, 0.5}
	counts := make([]int, len(weights))
	const draws = 40000
	for range draws {
		counts[Roulette(rng, weights)]++
	}
	for i, w := range weights {
		within(t, "roulette draws", counts[i], draws, w/5, 5)
	}
}

func TestTournamentPicksTheFittestOfItsDraw(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 8))
	fitness := []float64{0, 1, 2, 3}
	counts := make([]int, 4)
	const draws = 40000
	for range draws {
		counts[tournament(rng, fitness, 2)]++
	}
	// With two draws, i wins when both are <= i and one is i:
	// ((i+1)² - i²) / 16.
	for i := range counts {
		within(t, "tournament winners", counts[i], draws, float64(2*i+1)/16, 5)
	}
}

func TestIsTranslocationCheck(t *testing.T) {
	mk := func(xs ...int) genome.Genome {
		g := make(genome.Genome, len(xs))
		for i, x := range xs {
			g[i] = genome.Gene{Raw: uint32(x)}
		}
		return g
	}
	for _, tc := range []struct {
		xs   []int
		want bool
	}{
		{[]int{0, 1, 2, 3}, true},
		{[]int{2, 3, 0, 1}, true},
		{[]int{0, 3, 1, 2, 4}, true},
		{[]int{1, 0, 3, 2}, false},
		{[]int{3, 2, 1, 0}, false},
	} {
		if got := isTranslocation(mk(tc.xs...)); got != tc.want {
			t.Errorf("isTranslocation(%v) = %v", tc.xs, got)
		}
	}
}

// Layer-first genes are all kept; their sinks fall in each of the three
// layers a third of the time, and within a layer each sink and each of
// its possible sources comes up as often as the others.
func TestLayerGeneRates(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	const n = 60000
	var perLayer [3]int
	sinks := map[uint8]int{}
	fromBias := 0 // sources 32..38 of the output's genes
	for range n {
		x := RandomLayerGene(rng)
		if !x.Kept() {
			t.Fatalf("gene %v is not kept", x)
		}
		switch {
		case x.Sink < genome.FirstL2:
			perLayer[0]++
		case x.Sink < genome.Output:
			perLayer[1]++
		default:
			perLayer[2]++
			if x.Source >= 32 && x.Source < genome.FirstL1 {
				fromBias++
			}
		}
		sinks[x.Sink]++
	}
	for k, got := range perLayer {
		within(t, "genes in layer "+string(rune('1'+k)), got, n, 1.0/3, 5)
	}
	// 16 sinks in the first inner layer, 8 in the second.
	within(t, "genes into neuron 40", sinks[40], n, 1.0/3/16, 5)
	within(t, "genes into neuron 60", sinks[60], n, 1.0/3/8, 5)
	// The output takes any of 63 sources, 7 of them bias neurons.
	within(t, "output genes from a bias neuron", fromBias, perLayer[2], 7.0/63, 5)
	if g := RandomLayerGenome(rng, 20, 0, nil); !g.Viable() || len(g) != 20 {
		t.Errorf("a random layer-first genome of 20 genes has %d genes, viable %v", len(g), g.Viable())
	}
}

// Each letter position is redrawn at its own rate; a position at rate 0
// never changes.
func TestLetterRates(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 8))
	var rates [genome.GeneLen]float64
	for k := range rates {
		rates[k] = 0.004 * float64(k%4) // 0, 0.004, 0.008, 0.012, ...
	}
	var changed [genome.GeneLen]int
	genes := 0
	for range 200 {
		g := RandomGenome(rng, 200)
		before := slices.Clone(g)
		Variation{PointRate: 0.5, LetterRates: &rates}.Mutate(rng, g)
		for i := range g {
			for k := range genome.GeneLen {
				if Letter(g[i], k) != Letter(before[i], k) {
					changed[k]++
				}
			}
		}
		genes += len(g)
	}
	for k, got := range changed {
		if rates[k] == 0 {
			if got != 0 {
				t.Errorf("letter %d at rate 0 changed %d times", k, got)
			}
			continue
		}
		// Three redraws in four change the letter.
		within(t, "changes of letter "+strconv.Itoa(k), got, genes, rates[k]*0.75, 5)
	}
}

// Initial weights drawn within [−w, +w] stay there and reach both ends'
// neighbourhoods; w = 0 is the whole range.
func TestRandomRawWithin(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	lo, hi := math.Inf(1), math.Inf(-1)
	for range 20000 {
		x := genome.Gene{Raw: RandomRaw(rng, 1.5)}.Weight()
		lo, hi = min(lo, x), max(hi, x)
	}
	if lo < -1.5 || hi > 1.5 || lo > -1.45 || hi < 1.45 {
		t.Errorf("weights within 1.5 span [%v, %v]", lo, hi)
	}
	lo, hi = math.Inf(1), math.Inf(-1)
	for range 20000 {
		x := genome.Gene{Raw: RandomRaw(rng, 0)}.Weight()
		lo, hi = min(lo, x), max(hi, x)
	}
	if lo > -50 || hi < 50 {
		t.Errorf("weights over the whole range span [%v, %v]", lo, hi)
	}
	g := RandomLayerGenome(rng, 50, 0.5, nil)
	for _, x := range g {
		if w := x.Weight(); w < -0.5 || w > 0.5 {
			t.Fatalf("a gene of a genome drawn within 0.5 has weight %v", w)
		}
	}
}

// A layer mix weighs the sinks' layers as it says.
func TestLayerMix(t *testing.T) {
	rng := rand.New(rand.NewPCG(10, 10))
	mix := []float64{1, 2, 5}
	var perLayer [3]int
	n := 0
	for range 100 {
		for _, x := range RandomLayerGenome(rng, 200, 0, mix) {
			if !x.Kept() {
				t.Fatalf("gene %v is not kept", x)
			}
			switch {
			case x.Sink < genome.FirstL2:
				perLayer[0]++
			case x.Sink < genome.Output:
				perLayer[1]++
			default:
				perLayer[2]++
			}
			n++
		}
	}
	for k, got := range perLayer {
		within(t, "genes in layer "+strconv.Itoa(k+1), got, n, mix[k]/8, 5)
	}
}
