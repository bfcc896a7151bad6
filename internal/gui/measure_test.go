package gui

import (
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/nechecb/nechecb/engine/search"
	_ "github.com/nechecb/nechecb/eval/pattern" // the bench's evaluators, for the native side
	"github.com/nechecb/nechecb/internal/player"
)

// measure runs TestSiteMeasure, which takes minutes: the figures of
// docs/gui.md's browser build section.
//
//	go test ./internal/gui -run TestSiteMeasure -v -site-measure
var measure = flag.Bool("site-measure", false, "measure the browser build against the native engine (TestSiteMeasure)")

// TestSiteMeasure measures the exported site in headless Chromium: the
// time from navigation to a playable board over several loads, and the
// bench positions searched in the worker against the same bench run
// natively in this process, one after the other, for each evaluator.
func TestSiteMeasure(t *testing.T) {
	if !*measure {
		t.Skip("a measurement: run with -site-measure")
	}
	st := openSite(t, 3*time.Minute)
	b := st.browser
	loads := []float64{eval[float64](b, `window.nechecbStats.readyMs`)}
	for range 4 {
		b.loadSite(st.url)
		loads = append(loads, eval[float64](b, `window.nechecbStats.readyMs`))
	}
	first, later := loads[0], slices.Clone(loads[1:])
	slices.Sort(later)
	t.Logf("load to a playable board: first %.0f ms, then median %.0f ms (%v)", first, later[len(later)/2], loads)
	t.Logf("the server's answers to the 5 loads' requests for nechecb.wasm: %v", st.answered("/nechecb.wasm"))
	for _, spec := range []string{"material", "pattern"} {
		nativeNodes, nativeTime, err := player.Bench(io.Discard, search.BenchDepth, spec, player.Play)
		if err != nil {
			t.Fatal(err)
		}
		r, err := chromedp.Run(b.ctx, chromedp.Evaluate[benchAnswer](fmt.Sprintf(`window.nechecbBench(%d, %q)`, search.BenchDepth, spec), chromedp.EvalAwaitPromise))
		if err != nil {
			t.Fatalf("the bench in the browser: %v", err)
		}
		if r.Status != 200 || uint64(r.Nodes) != nativeNodes {
			t.Errorf("%s: the browser's bench searched %.0f nodes (status %d), the native %d", spec, r.Nodes, r.Status, nativeNodes)
		}
		nps := func(nodes float64, ms float64) float64 { return nodes / ms * 1000 }
		nat := nps(float64(nativeNodes), float64(nativeTime.Milliseconds()))
		web := nps(r.Nodes, r.Ms)
		t.Logf("bench depth %d, %s: native %d nodes in %v, %.0f nps; browser %.0f nodes in %.0f ms, %.0f nps: %.2f of native",
			search.BenchDepth, spec, nativeNodes, nativeTime.Round(time.Millisecond), nat, r.Nodes, r.Ms, web, web/nat)
		t.Logf("in the browser: %s", heapLines(r.Text))
	}
}

// benchAnswer is the worker's answer to a bench.
type benchAnswer struct {
	Status int     `json:"status"`
	Nodes  float64 `json:"nodes"`
	Ms     float64 `json:"ms"`
	Text   string  `json:"text"`
}

// heapLines returns the lines of a bench's text on the heap.
func heapLines(text string) string {
	return fmt.Sprint(slices.DeleteFunc(strings.Split(text, "\n"), func(s string) bool { return !strings.Contains(s, "heap") }))
}
