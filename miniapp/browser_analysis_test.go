package miniapp

import (
	"context"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/bashni/bashni/rules"
)

// towersOf lists a position's towers as the board draws them: square and
// pieces top first ("c3wb"), sorted.
func towersOf(position string) string {
	_, body, _ := strings.Cut(position, ":")
	entries := strings.Split(body, ",")
	slices.Sort(entries)
	return strings.Join(entries, ",")
}

// boardTowers is what the page's board draws, as towersOf writes it.
func boardTowers(t *testing.T, ctx context.Context) string {
	t.Helper()
	got, err := chromedp.Run(ctx, chromedp.Evaluate[string](
		`[...document.querySelectorAll("#towers .tower")].map(g => g.dataset.sq + g.dataset.pieces).sort().join(",")`))
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// waitCursor waits until the analysis shows the position after k moves.
func waitCursor(t *testing.T, ctx context.Context, k int) {
	t.Helper()
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`document.body.dataset.cursor === "`+strconv.Itoa(k)+`"`,
		chromedp.WithPollingTimeout(15*time.Second))); err != nil {
		got, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`String(document.body.dataset.cursor)`))
		t.Fatalf("the analysis never showed position %d (shows %s): %v", k, got, err)
	}
}

// A finished game with a planted blunder: Alice asks for the analysis,
// steps back and forth (buttons and arrow keys), jumps to the blunder from
// the mistakes list and to a position from the graph; the board shows each
// position, the move that led there, and for the blunder the engine's
// better move as an arrow. Bob, watching in Russian on a dark theme, finds
// the analysis already there.
func TestBrowserAnalysis(t *testing.T) {
	browser := newBrowser(t)
	spec, blunder := plantedSpec(t)
	h := newHarnessWith(t, spec, nil)
	r := h.reps[0]
	positions := []string{spec.start}
	p := rules.MustParsePosition(spec.start)
	for _, text := range spec.moves {
		m, err := rules.ParseMove(&p, text)
		if err != nil {
			t.Fatal(err)
		}
		p = p.Play(m)
		positions = append(positions, p.String())
	}
	n := len(spec.moves)
	shows := func(ctx context.Context, k int) {
		t.Helper()
		waitCursor(t, ctx, k)
		if got, want := boardTowers(t, ctx), towersOf(positions[k]); got != want {
			t.Errorf("position %d: the board draws %s; want %s", k, got, want)
		}
	}
	click := func(ctx context.Context, sel string) {
		t.Helper()
		if err := do(ctx, chromedp.Click(chromedp.CSS(sel))); err != nil {
			t.Fatalf("clicking %s: %v", sel, err)
		}
	}
	arrow := func(ctx context.Context) string {
		t.Helper()
		got, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(document.querySelector("#board polyline.best") || {dataset: {move: ""}}).dataset.move`))
		if err != nil {
			t.Fatal(err)
		}
		return got
	}

	alice := h.tab(browser, r, h.initData(h.alice), lightTheme)
	waitPly(t, alice, n)
	if err := do(alice, chromedp.WaitVisible(chromedp.CSS("#analyse"))); err != nil {
		t.Fatalf("no Analyse button on a finished game: %v", err)
	}
	screenshot(t, alice, "analysis-offer-light.png")
	click(alice, "#analyse")
	shows(alice, n) // the analysis opens at the end, where the board was
	click(alice, "#step-back")
	shows(alice, n-1)
	if err := do(alice, chromedp.KeyEvent(kb.ArrowLeft)); err != nil {
		t.Fatal(err)
	}
	shows(alice, n-2)
	click(alice, "#step-forward")
	shows(alice, n-1)
	click(alice, "#step-first")
	shows(alice, 0)
	if a := arrow(alice); a != "" {
		t.Errorf("an arrow at the start: %q", a)
	}
	if err := do(alice, chromedp.KeyEvent(kb.ArrowRight)); err != nil {
		t.Fatal(err)
	}
	shows(alice, 1)

	// The blunder, from the mistakes list: the position after it, the
	// blunder's squares marked, the better move as an arrow.
	click(alice, `#mistakes button[data-ply="`+strconv.Itoa(blunderAt)+`"]`)
	shows(alice, blunderAt+1)
	var an analysis
	if code := h.call(r, "GET", "/api/games/"+h.gameID+"/analysis", h.initData(h.alice), "", &an); code != http.StatusOK {
		t.Fatalf("GET analysis: %d", code)
	}
	best := an.Moves[blunderAt].Best
	if best == nil {
		t.Fatal("the blunder has no better move")
	}
	if got := arrow(alice); got != best.Text {
		t.Errorf("the arrow shows %q; want the better move %s", got, best.Text)
	}
	marked, err := chromedp.Run(alice, chromedp.Evaluate[int](`document.querySelectorAll("#board rect.last.mistake").length`))
	if err != nil || marked != len(blunder.Squares()) {
		t.Errorf("%d squares marked for the blunder (%v); want %d", marked, err, len(blunder.Squares()))
	}
	line, _ := chromedp.Run(alice, chromedp.Evaluate[string](`document.getElementById("step-move").textContent`))
	if !strings.Contains(line, blunder.String()+"?") || !strings.Contains(line, "better "+best.Text) {
		t.Errorf("under the board: %q; want the blunder and the better move", line)
	}
	// The score says its unit, and the graph numbers the moves.
	if ev, _ := chromedp.Run(alice, chromedp.Evaluate[string](`document.getElementById("eval").textContent`)); !strings.HasSuffix(ev, " men") && !strings.Contains(ev, "wins") {
		t.Errorf("the score reads %q; want it in men", ev)
	}
	if ticks, _ := chromedp.Run(alice, chromedp.Evaluate[string](`[...document.querySelectorAll("#graph text.g-move")].map((e) => e.textContent).join(" ")`)); ticks == "" || !strings.HasPrefix(ticks, "1 ") && !strings.HasPrefix(ticks, "2 ") && !strings.HasPrefix(ticks, "5 ") {
		t.Errorf("the graph's move axis reads %q; want move numbers", ticks)
	}
	screenshot(t, alice, "analysis-light.png")

	// The graph: a tap on a point goes there.
	click(alice, `#graph rect.g-hit[data-cursor="5"]`)
	shows(alice, 5)

	// Bob, in Russian on a dark theme, with the board turned for Black:
	// the analysis is kept, shown at once.
	bob := h.tab(browser, r, h.initData(h.bob), darkTheme)
	shows(bob, n)
	click(bob, `#mistakes button[data-ply="`+strconv.Itoa(blunderAt)+`"]`)
	shows(bob, blunderAt+1)
	if got := arrow(bob); got != best.Text {
		t.Errorf("Bob's arrow shows %q; want %s", got, best.Text)
	}
	line, _ = chromedp.Run(bob, chromedp.Evaluate[string](`document.getElementById("step-move").textContent`))
	if !strings.Contains(line, "лучше") {
		t.Errorf("Bob reads %q; want Russian", line)
	}
	if ev, _ := chromedp.Run(bob, chromedp.Evaluate[string](`document.getElementById("eval").textContent`)); !strings.HasSuffix(ev, " шашки") && !strings.Contains(ev, "выигрывают") {
		t.Errorf("Bob's score reads %q; want it in men, in Russian", ev)
	}
	screenshot(t, bob, "analysis-dark.png")
}

// An analysis longer than one request: the page says it is analysing,
// asks again on each 202, and shows the analysis once it is done.
func TestBrowserAnalysisPending(t *testing.T) {
	browser := newBrowser(t)
	rv := &gatedReviewer{started: make(chan struct{}, 4), release: make(chan struct{})}
	h := newHarnessWith(t, gameSpec{start: rules.Start(rules.Bashni).String(), moves: []string{"c3-d4", "f6-e5", "d4:f6"},
		result: "1-0", reason: "resignation", thinker: rv, analysisWait: 50 * time.Millisecond}, nil)
	alice := h.tab(browser, h.reps[0], h.initData(h.alice), lightTheme)
	waitPly(t, alice, 3)
	if err := do(alice, chromedp.Click(chromedp.CSS("#analyse"))); err != nil {
		t.Fatal(err)
	}
	<-rv.started
	if _, err := chromedp.Run(alice, chromedp.Poll[bool](`(() => { const b = document.getElementById("analyse"); return !!b && b.disabled && b.textContent.startsWith("Analysing"); })()`,
		chromedp.WithPollingTimeout(15*time.Second))); err != nil {
		t.Fatalf("the page does not say it is analysing: %v", err)
	}
	close(rv.release)
	waitCursor(t, alice, 3)
	if got, want := boardTowers(t, alice), towersOf(h.stored().Position().String()); got != want {
		t.Errorf("the analysis at the end draws %s; want %s", got, want)
	}
	if n := rv.calls.Load(); n != 1 {
		t.Errorf("%d reviews; want 1", n)
	}
}
