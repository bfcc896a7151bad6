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
	_ "github.com/nechecb/nechecb/eval/nn" // the bench's evaluators, for the native side
	_ "github.com/nechecb/nechecb/eval/pattern"
	"github.com/nechecb/nechecb/internal/player"
)

// measure runs TestSiteMeasure, which takes minutes: the figures of
// docs/gui.md's browser build section.
//
//	go test ./internal/gui -run TestSiteMeasure -v -site-measure
var measure = flag.Bool("site-measure", false, "measure the browser build against the native engine (TestSiteMeasure)")

// measureEvals are the evaluators TestSiteMeasure benches: material,
// the bench's signature, and the two defaults, pattern and the net.
var measureEvals = []string{"material", "pattern", "nn"}

// TestSiteMeasure measures the exported site in headless Chromium: the
// time from navigation to a playable board over several loads, and the
// bench positions searched in the worker against the same bench run
// natively in this process, one after the other, for each evaluator.
// When the export was built with SIMD, a plain build (GOTOOLCHAIN=local)
// is exported too and benched the same way, in the same run.
func TestSiteMeasure(t *testing.T) {
	if !*measure {
		t.Skip("a measurement: run with -site-measure")
	}
	st := openSite(t, 20*time.Minute)
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
	_, info := exportedSite(t)
	builds := []*site{st}
	names := []string{info.build.String()}
	if info.build.simd {
		dir := t.TempDir()
		t.Setenv("GOTOOLCHAIN", "local")
		plain, err := exportSite(dir, "../..", io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		builds = append(builds, openSiteIn(t, findChromium(t), dir, 20*time.Minute))
		names = append(names, plain.build.String())
	}
	for _, spec := range measureEvals {
		nativeNodes, nativeTime, err := player.Bench(io.Discard, search.BenchDepth, 1, spec, player.Play)
		if err != nil {
			t.Fatal(err)
		}
		nat := float64(nativeNodes) / nativeTime.Seconds()
		t.Logf("bench depth %d, %s: native %d nodes in %v, %.0f nps", search.BenchDepth, spec, nativeNodes, nativeTime.Round(time.Millisecond), nat)
		for i, site := range builds {
			r := siteBench(t, site.browser, spec)
			if r.Status != 200 || uint64(r.Nodes) != nativeNodes {
				t.Errorf("%s, %s: the browser's bench searched %.0f nodes (status %d), the native %d", names[i], spec, r.Nodes, r.Status, nativeNodes)
			}
			web := r.Nodes / r.Ms * 1000
			t.Logf("  %s (the net's kernels: %s): %.0f ms, %.0f nps, %.2f of native; %s", names[i], r.Kernels, r.Ms, web, web/nat, heapLines(r.Text))
		}
	}
}

// siteBench runs the bench positions at the bench's depth with spec in
// the worker of the site open in b.
func siteBench(t *testing.T, b *browser, spec string) benchAnswer {
	t.Helper()
	r, err := chromedp.Run(b.ctx, chromedp.Evaluate[benchAnswer](fmt.Sprintf(`window.nechecbBench(%d, %q)`, search.BenchDepth, spec), chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("the bench in the browser: %v", err)
	}
	return r
}

// benchAnswer is the worker's answer to a bench.
type benchAnswer struct {
	Status int     `json:"status"`
	Nodes  float64 `json:"nodes"`
	Ms     float64 `json:"ms"`
	Text   string  `json:"text"`
	// SIMD and Kernels: the build has WebAssembly SIMD; the net's
	// kernels (nn.Kernels).
	SIMD    bool   `json:"simd"`
	Kernels string `json:"kernels"`
}

// heapLines returns the lines of a bench's text on the heap.
func heapLines(text string) string {
	return fmt.Sprint(slices.DeleteFunc(strings.Split(text, "\n"), func(s string) bool { return !strings.Contains(s, "heap") }))
}
