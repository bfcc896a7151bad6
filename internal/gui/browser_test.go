package gui

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// screenshots is where the browser test writes its screenshots; empty:
// nowhere. docs/gui holds the ones the guide shows:
//
//	go test ./internal/gui -run TestBrowser -screenshots ../../docs/gui
var screenshots = flag.String("screenshots", "", "write the browser test's screenshots (PNG) to this folder")

// chromiumNames are the browser commands looked for on PATH.
var chromiumNames = []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "headless-shell"}

// findChromium returns the Chromium to drive: $NECHECB_CHROMIUM, else the
// first of chromiumNames on PATH. Without one the test skips, unless
// $NECHECB_BROWSER_TESTS is "require" (CI sets it, having installed one).
func findChromium(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("NECHECB_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range chromiumNames {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	msg := fmt.Sprintf("no Chromium found (none of %s on PATH, and NECHECB_CHROMIUM unset)", strings.Join(chromiumNames, ", "))
	if os.Getenv("NECHECB_BROWSER_TESTS") == "require" {
		t.Fatal(msg + "; NECHECB_BROWSER_TESTS=require")
	}
	t.Skip(msg + ": the browser tests need one (Debian: apt-get install chromium; .ci/run installs it)")
	return ""
}

// browser drives one headless Chromium tab.
type browser struct {
	t   *testing.T
	ctx context.Context
	// noShots stops shot: steps shared with TestBrowser leave its
	// pictures to it.
	noShots bool
}

func newBrowser(t *testing.T, exe string) *browser { return newBrowserFor(t, exe, 3*time.Minute) }

// newBrowserFor is newBrowser with the time the tab is given.
func newBrowserFor(t *testing.T, exe string, limit time.Duration) *browser {
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(exe), chromedp.NoSandbox,
		chromedp.WindowSize(1100, 820), chromedp.Flag("disable-dev-shm-usage", true))
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelTab := chromedp.NewContext(actx)
	ctx, cancelTime := context.WithTimeout(ctx, limit)
	t.Cleanup(func() {
		cancelTime()
		cancelTab()
		cancelAlloc()
	})
	return &browser{t: t, ctx: ctx}
}

// staleNode is Chromium's error for a node that was found and then
// replaced before its use: the page redraws the board for each state it
// gets (a request's answer, then the same state pushed as an event), and
// an action that hits the gap fails before it sends any input.
const staleNode = "Could not find node with given id"

// do runs actions, failing the test on an error; it tries again, up to
// three times, when a node went stale under it.
func (b *browser) do(what string, actions ...chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	err := chromedp.Do(b.ctx, actions...)
	for try := 1; try < 3 && err != nil && strings.Contains(err.Error(), staleNode); try++ {
		b.t.Logf("%s: %v; trying again", what, err)
		err = chromedp.Do(b.ctx, actions...)
	}
	if err != nil {
		b.t.Fatalf("%s: %v", what, err)
	}
}

// wait polls a JavaScript predicate until it holds (20 s at most).
func (b *browser) wait(what, expr string) {
	b.t.Helper()
	if _, err := chromedp.Run(b.ctx, chromedp.Poll[bool](expr, chromedp.WithPollingTimeout(20*time.Second), chromedp.WithPollingInterval(20*time.Millisecond))); err != nil {
		b.t.Fatalf("waiting for %s (%s): %v", what, expr, err)
	}
}

// eval evaluates a JavaScript expression.
func eval[T any](b *browser, expr string) T {
	b.t.Helper()
	v, err := chromedp.Run(b.ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		b.t.Fatalf("evaluating %s: %v", expr, err)
	}
	return v
}

// click clicks the element of a CSS selector.
func (b *browser) click(sel string) {
	b.t.Helper()
	b.do("click "+sel, chromedp.Click(chromedp.CSS(sel)))
}

// square clicks a square of the board.
func (b *browser) square(sq int) { b.click(fmt.Sprintf(`#board rect[data-sq="%d"]`, sq)) }

// shot writes a screenshot of the viewport when -screenshots is set.
func (b *browser) shot(name string) {
	b.t.Helper()
	if *screenshots == "" || b.noShots {
		return
	}
	eval[bool](b, `window.scrollTo(0, 0) || true`)
	png, err := chromedp.Run(b.ctx, chromedp.CaptureScreenshot())
	if err != nil {
		b.t.Fatalf("screenshot %s: %v", name, err)
	}
	if err := os.WriteFile(filepath.Join(*screenshots, name), png, 0o644); err != nil {
		b.t.Fatal(err)
	}
}

// download clicks the element of a CSS selector, a link that saves a
// file, and returns the text of the file saved.
func (b *browser) download(sel string) string {
	b.t.Helper()
	dir := b.t.TempDir()
	ctx, cancel := context.WithTimeout(b.ctx, 30*time.Second)
	defer cancel()
	progress := chromedp.Events(ctx, cdpbrowser.DownloadProgress)
	b.do("allow downloads", chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
		_, err := chromedp.Call(ctx, cdpbrowser.SetDownloadBehavior, cdpbrowser.SetDownloadBehaviorParams{
			Behavior: cdpbrowser.SetDownloadBehaviorBehaviorAllowAndName, DownloadPath: dir, EventsEnabled: new(true)})
		return err
	}))
	b.click(sel)
	for ev, err := range progress {
		if err != nil {
			b.t.Fatalf("the download of %s: %v", sel, err)
		}
		if ev.State == cdpbrowser.DownloadProgressStateCanceled {
			b.t.Fatalf("the download of %s was cancelled", sel)
		}
		if ev.State != cdpbrowser.DownloadProgressStateCompleted {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, ev.GUID))
		if err != nil {
			b.t.Fatalf("the download of %s: %v", sel, err)
		}
		return string(data)
	}
	b.t.Fatalf("the download of %s did not complete", sel)
	return ""
}

// moveCount is the expression for the number of moves in the move list.
const moveCount = `document.querySelectorAll('#moves button').length`

// firstMove is the expression for the text of the move list's first move.
const firstMove = `document.querySelector('#moves button').firstChild.textContent`

// TestBrowser drives the page in a headless Chromium: it loads the page,
// plays a move by clicks, a double jump by a drag and then square by
// square (the engine answers each), takes back, imports a PDN and steps
// through it with the arrow keys, plays a side line in it and clicks
// through both lines, runs an analysis (lines, arrow, score graph, a
// clickable PV), flips the board, and checks that the page without the
// token gets 403.
func TestBrowser(t *testing.T) {
	exe := findChromium(t)
	s := newTestServer(t)
	s.mustPost("/api/engine", engineRequest{White: true, Level: level{Kind: "depth", Depth: 3}})
	b := newBrowser(t, exe)
	b.do("load the page", chromedp.Navigate(s.ts.URL+"/?token="+s.srv.Token()))
	b.wait("the page to start", `document.body.dataset.ready === "1"`)
	t.Logf("page ready %.0f ms after the navigation began", eval[float64](b, `window.nechecbStats.readyMs`))
	b.shot("board.png")

	browserPlay(t, b)
	browserImport(t, b)
	browserVariations(t, b)
	browserAnalyse(t, b)

	b.click("#flip")
	if x := eval[string](b, `document.querySelector('#board rect[data-sq="1"]').getAttribute('x')`); x != "6" {
		t.Errorf("flipped, square 1 is drawn in column %s, want 6", x)
	}
	b.do("phone width", chromedp.EmulateViewport(390, 844))
	if w := eval[float64](b, `document.documentElement.scrollWidth`); w > 390 {
		t.Errorf("at phone width the page is %.0f px wide, want 390 at most", w)
	}
	b.shot("phone.png")

	// localhost is an allowed Host, but the browser has no cookie for it.
	port := s.ts.URL[strings.LastIndex(s.ts.URL, ":")+1:]
	res, err := chromedp.Run(b.ctx, chromedp.NavigateResponse("http://localhost:"+port+"/"))
	if err != nil || res.Status != 403 {
		t.Errorf("the page without the token: %v, status %v; want 403", err, res)
	}
}

// browserPlay plays 11-15 by two clicks, then a double jump by a drag from
// its first square to its last and, taken back, square by square,
// waiting for the engine's answers, then takes back.
func browserPlay(t *testing.T, b *browser) {
	b.square(11)
	if n := eval[int](b, `document.querySelectorAll('#board .target').length`); n != 2 {
		t.Errorf("11 selected: %d targets shown, want 2 (15 and 16)", n)
	}
	b.square(15)
	b.wait("the engine's answer to 11-15", moveCount+` === 2`)
	b.click("#game-panel summary")
	b.do("enter a FEN", chromedp.SetValue(chromedp.CSS("#fen"), "B:W14,23,30,31:B1,2,9"))
	b.click("#fen-set")
	// Square 9 holds a black man before the FEN too: the wait looks for
	// what only the FEN's position has (an empty move list, a white man on
	// 14), so that the drag cannot start on the old position.
	b.wait("the FEN's position", moveCount+` === 0 && document.querySelector('#board rect[data-sq="14"]').getAttribute('aria-label').includes('white man')`)
	// A drag from 9 to 27 plays the only capture that ends there.
	b.do("drag 9 to 27", chromedp.DragAndDrop(chromedp.CSS(`#board rect[data-sq="9"]`), chromedp.CSS(`#board rect[data-sq="27"]`)))
	b.wait("the dragged capture and the engine's answer", moveCount+` === 2`)
	if first := eval[string](b, firstMove); first != "9x27" {
		t.Errorf("the drag played %q, want 9x27", first)
	}
	b.click("#takeback")
	b.wait("the take back of both moves", moveCount+` === 0`)
	b.square(9)
	b.square(18)
	if got := eval[int](b, moveCount); got != 0 {
		t.Fatalf("the capture was played before its last square: %d moves", got)
	}
	if !eval[bool](b, `!!document.querySelector('#board .path')`) {
		t.Error("the capture's path is not drawn after its first jump")
	}
	b.square(27)
	b.wait("the double jump and the engine's answer", moveCount+` === 2`)
	if first := eval[string](b, firstMove); first != "9x27" {
		t.Errorf("the double jump is listed as %q, want 9x27", first)
	}
	b.click("#takeback")
	b.wait("the take back of both moves", moveCount+` === 0`)
}

// importedGame is the game the browser test imports.
const importedGame = `[Event "browser test"]
[Black "A"]
[White "B"]
1. 11-15 23-19 2. 8-11 22-17 3. 9-13 17-14 *
`

// browserImport imports a PDN through the text box and steps through the
// game with the arrow keys.
func browserImport(t *testing.T, b *browser) {
	b.do("paste a PDN", chromedp.SetValue(chromedp.CSS("#pdn-text"), importedGame))
	b.click("#pdn-import")
	b.wait("the imported game", moveCount+` === 6 && !document.querySelector('#moves .cur')`)
	b.click("#nav-first")
	for range 3 {
		b.do("arrow right", chromedp.KeyEvent(kb.ArrowRight))
	}
	b.wait("three steps forward", curMove+` === '8-11'`)
	b.do("arrow left", chromedp.KeyEvent(kb.ArrowLeft))
	b.wait("a step back", curMove+` === '23-19'`)
}

// curMove is the expression for the text of the move list's current move.
const curMove = `((document.querySelector('#moves .cur') || {}).firstChild || {}).textContent`

// browserVariations plays another move where the imported game is shown
// (after 23-19): both lines are listed, the new one in parentheses; a
// click on a main-line move and one on the side line's move show them, and
// the PDN export holds the side line.
func browserVariations(t *testing.T, b *browser) {
	b.square(9)
	b.square(14)
	b.wait("the side line", curMove+` === '9-14' && `+moveCount+` === 7 && `+
		`(document.querySelector('#moves .var button') || {}).textContent === '9-14'`)
	if got := eval[string](b, `document.getElementById('moves').textContent.trim()`); got != "1. 11-15 23-19 2. 8-11 (2. 9-14) 2... 22-17 3. 9-13 17-14" {
		t.Errorf("the move list reads %q", got)
	}
	eval[bool](b, `[...document.querySelectorAll('#moves > button')].find(e => e.textContent === '22-17').click() || true`)
	b.wait("the main line's 22-17", curMove+` === '22-17' && `+moveCount+` === 7 && document.getElementById('var-promote').disabled`)
	b.click("#moves .var button")
	b.wait("the side line's move", curMove+` === '9-14' && !document.getElementById('var-promote').disabled`)
	b.shot("variation.png")
	pdnText := b.download("#pdn-export")
	if !strings.Contains(pdnText, "1. 11-15 23-19 2. 8-11 (2. 9-14) 2... 22-17 3. 9-13 17-14 *") {
		t.Errorf("the PDN export has not the side line:\n%s", pdnText)
	}
}

// browserAnalyse runs the analysis of the position shown: the lines, the
// arrow and the score graph appear, and a click on a PV move plays it.
// Then it analyses the whole game: every position gets a graph point.
func browserAnalyse(t *testing.T, b *browser) {
	b.click("#analyse")
	b.wait("analysis lines, the arrow and a graph point",
		`document.querySelectorAll('#lines tbody tr').length > 0 && !!document.querySelector('#board .arrow') && document.querySelectorAll('#graph .pt').length > 0`)
	// The lines are redrawn on every report, so the move is found and
	// clicked in one step.
	pv := eval[string](b, `(() => { const m = document.querySelector('#lines .pvmove'); m.click(); return m.textContent; })()`)
	b.wait("the PV move played", fmt.Sprintf(curMove+` === %q`, pv))
	b.wait("the analysis of the new position", `document.querySelectorAll('#lines tbody tr').length > 0`)
	delays := eval[[]float64](b, `window.nechecbStats.infoDelays`)
	b.click("#analyse")
	b.wait("the analysis to stop", `document.getElementById('analyse').getAttribute('aria-pressed') === 'false'`)

	// The whole game at 50 ms a position: a point on the graph for each.
	b.do("game analysis time", chromedp.SetValue(chromedp.CSS("#review-time"), "0.05"))
	b.click("#review")
	b.wait("the game analysis", `document.getElementById('review').getAttribute('aria-pressed') === 'false' && `+
		`document.querySelectorAll('#graph .pt').length === document.querySelectorAll('#moves button.line').length + 1`)
	b.shot("analysis.png")
	if len(delays) == 0 {
		t.Fatal("no search report reached the page")
	}
	slices.Sort(delays)
	t.Logf("%d search reports: delay from the server to the page median %.0f ms, max %.0f ms", len(delays), delays[len(delays)/2], delays[len(delays)-1])
}
