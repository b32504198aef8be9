package miniapp

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/bashni/bashni/play/training"
	"github.com/bashni/bashni/puzzle"
	"github.com/bashni/bashni/rules"
)

// A solved puzzle's line on the live board: the state carries it (each
// move with the position after it, from the end of the solution), the
// status says it in words, and "Play the line" plays it through on the
// board move by move, ending on the line's last position.
func TestBrowserPuzzleLine(t *testing.T) {
	pz, err := puzzle.ParseLine(twoMovePuzzle)
	if err != nil {
		t.Fatal(err)
	}
	line, err := puzzle.NewJudge(training.LineNodes).Line(context.Background(), &pz)
	if err != nil {
		t.Fatal(err)
	}
	if len(line) == 0 {
		t.Fatalf("%s has no line: pick another puzzle for this test", pz.ID)
	}
	end := pz.Position
	for _, m := range append(append([]rules.Move{}, pz.Solution...), line...) {
		end = end.Play(m)
	}
	browser := newBrowser(t)
	h := newHarnessWith(t, gameSpec{puzzles: []puzzle.Puzzle{pz}}, nil)
	r := h.reps[0]
	var st state
	if code := h.call(r, "POST", "/api/puzzle/next", h.initData(h.alice), "", &st); code != http.StatusOK {
		t.Fatalf("next: %d", code)
	}
	auth := SignUser(h.tg.Token(), User{ID: h.alice.ID, FirstName: h.alice.FirstName, Username: h.alice.UserName, LanguageCode: h.alice.LanguageCode}, PuzzleParam, h.clock.Now())
	alice := h.tab(browser, r, auth, lightTheme)
	waitPly(t, alice, 0)
	tap(t, alice, "c3")
	tap(t, alice, "b4")
	waitPly(t, alice, 2)
	tap(t, alice, "e1")
	tap(t, alice, "f2")
	waitPly(t, alice, 3)
	if _, err := chromedp.Run(alice, chromedp.Poll[bool](`!!document.getElementById("play-line")`, chromedp.WithPollingTimeout(10*time.Second))); err != nil {
		t.Fatalf("no Play the line button: %v", err)
	}
	status, _ := chromedp.Run(alice, chromedp.Evaluate[string](`document.getElementById("status").textContent`))
	if want := "then " + rules.JoinMoves(line, " "); !strings.Contains(status, want) {
		t.Errorf("status %q, want %q", status, want)
	}
	if err := do(alice, chromedp.Click(chromedp.CSS("#play-line"))); err != nil {
		t.Fatal(err)
	}
	n := strconv.Itoa(len(line))
	if _, err := chromedp.Run(alice, chromedp.Poll[bool](`document.body.dataset.lineStep === "`+n+`"`, chromedp.WithPollingTimeout(20*time.Second))); err != nil {
		step, _ := chromedp.Run(alice, chromedp.Evaluate[string](`String(document.body.dataset.lineStep) + " " + String(!!animating) + " " + JSON.stringify(game.line && game.line.length)`))
		t.Fatalf("the line not played through to move %s (the page: step, animating, steps %s): %v", n, step, err)
	}
	shown, _ := chromedp.Run(alice, chromedp.Evaluate[string](`game.position`))
	if shown != end.String() {
		t.Errorf("the board after the line shows %s, want %s", shown, end.String())
	}
}

// Puzzle Streak on the board: a run begun there says its length on the
// status, a solve's next puzzle goes on with the run, a miss ends it and
// offers a new one.
func TestStreakThroughTheAPI(t *testing.T) {
	var set []puzzle.Puzzle
	for _, l := range []string{twoMovePuzzle, "c2uv8191\tw:a1w,c1Bww,e1w,g1w,h2w,b4ww,h4bw,a5bww,g5b,a7wbb,c7b,g7b,b8b,d8b,f8b,h8b\tg1-f2\t1000"} {
		pz, err := puzzle.ParseLine(l)
		if err != nil {
			t.Fatal(err)
		}
		set = append(set, pz)
	}
	h := newHarnessWith(t, gameSpec{puzzles: set}, nil)
	r := h.reps[0]
	auth := h.initData(h.alice)
	var st state
	if code := h.call(r, "POST", "/api/puzzle/next?streak=start", auth, "", &st); code != http.StatusOK {
		t.Fatalf("start: %d", code)
	}
	if st.Streak == nil || *st.Streak != 0 || !strings.Contains(st.Status, "solved in a row: 0") {
		t.Fatalf("a run's first puzzle: streak %v status %q", st.Streak, st.Status)
	}
	// The run climbs: the easier puzzle (1000) first.
	if code := h.call(r, "POST", "/api/puzzle/move", auth, `{"ply":0,"move":"g1-f2"}`, &st); code != http.StatusOK {
		t.Fatalf("the solve: %d", code)
	}
	if st.Active || st.StreakNext != "next" || st.StreakOffer || !strings.Contains(st.Status, "1 in a row") {
		t.Errorf("after a run's solve: active %v next %q offer %v status %q", st.Active, st.StreakNext, st.StreakOffer, st.Status)
	}
	if code := h.call(r, "POST", "/api/puzzle/next?streak=next", auth, "", &st); code != http.StatusOK {
		t.Fatalf("next: %d", code)
	}
	if st.Streak == nil || *st.Streak != 1 || !strings.Contains(st.Status, "solved in a row: 1") {
		t.Fatalf("the run's second puzzle: streak %v status %q", st.Streak, st.Status)
	}
	st = state{} // the fields the answer leaves out are zero
	if code := h.call(r, "POST", "/api/puzzle/move", auth, `{"ply":0,"move":"a3-b4"}`, &st); code != http.StatusOK {
		t.Fatalf("the miss: %d", code)
	}
	if st.StreakNext != "" || !st.StreakOffer || !strings.Contains(st.Status, "The streak ends at 1. Your best: 1.") {
		t.Errorf("after the miss: next %q offer %v status %q", st.StreakNext, st.StreakOffer, st.Status)
	}
}
