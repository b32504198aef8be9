package miniapp

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/bashni/bashni/puzzle"
)

// A puzzle of two solver moves: c3-b4, the reply b6:d4, then e1-f2.
const twoMovePuzzle = "mpq7pjzy\tw:e1wb,a3w,c3www,f4bb,a5bwww,c5w,g5bw,b6bb,f6b,h6b,a7wwb,b8b,h8b\tc3-b4 b6:d4 e1-f2\t1100"

// The viewer's puzzle on the board: none until they ask, then moves
// checked with the reply played; a stale or illegal move is refused and
// changes nothing; the attempt is the stored one the chat shows too.
func TestPuzzleThroughTheAPI(t *testing.T) {
	pz, err := puzzle.ParseLine(twoMovePuzzle)
	if err != nil {
		t.Fatal(err)
	}
	h := newHarnessWith(t, gameSpec{puzzles: []puzzle.Puzzle{pz}}, nil)
	r := h.reps[0]
	auth := h.initData(h.alice)
	var errBody errorBody
	if code := h.call(r, "GET", "/api/puzzle", auth, "", &errBody); code != http.StatusNotFound || !strings.Contains(errBody.Error, "/puzzle") {
		t.Errorf("no puzzle under way: %d %q; want 404 saying to send /puzzle", code, errBody.Error)
	}
	var st state
	if code := h.call(r, "POST", "/api/puzzle/next", auth, "", &st); code != http.StatusOK {
		t.Fatalf("next: %d", code)
	}
	if st.You != "w" || st.Turn != "w" || st.Ply != 0 || !st.Active || len(st.Legal) == 0 || !strings.Contains(st.Status, "White to play and win") {
		t.Fatalf("new puzzle: %+v", st)
	}
	errBody = errorBody{}
	if code := h.call(r, "POST", "/api/puzzle/move", auth, `{"ply":1,"move":"c3-b4"}`, &errBody); code != http.StatusConflict || errBody.State == nil || errBody.State.Ply != 0 {
		t.Errorf("stale move: %d %+v; want 409 with the puzzle at ply 0", code, errBody)
	}
	if code := h.call(r, "POST", "/api/puzzle/move", auth, `{"ply":0,"move":"d4-e5"}`, &errBody); code != http.StatusUnprocessableEntity {
		t.Errorf("illegal move: %d; want 422", code)
	}
	if code := h.call(r, "POST", "/api/puzzle/move", auth, `{"ply":0,"move":"c3-b4"}`, &st); code != http.StatusOK {
		t.Fatalf("right move: %d", code)
	}
	if st.Ply != 2 || !st.Active || strings.Join(st.Moves, " ") != "c3-b4 b6:d4" || st.Last == nil || st.Last.Text != "b6:d4" {
		t.Errorf("after the right move: ply %d active %v moves %v; want the reply b6:d4 played", st.Ply, st.Active, st.Moves)
	}
	var again state
	if code := h.call(r, "GET", "/api/puzzle", auth, "", &again); code != http.StatusOK || again.Ply != 2 {
		t.Errorf("the attempt as stored: %d ply %d; want 200 at ply 2", code, again.Ply)
	}
	if code := h.call(r, "POST", "/api/puzzle/move", auth, `{"ply":2,"move":"e1-f2"}`, &st); code != http.StatusOK {
		t.Fatalf("last move: %d", code)
	}
	if st.Active || !strings.Contains(st.Status, "Solved") {
		t.Errorf("solved: active %v status %q", st.Active, st.Status)
	}
	if code := h.call(r, "GET", "/api/puzzle", h.initData(h.bob), "", &errBody); code != http.StatusNotFound {
		t.Errorf("Bob, who has no puzzle: %d; want 404", code)
	}
}

// The puzzle solved on the live board by tapping, as the card's "Open
// board" link opens it: the reply is drawn, the end says so, and Next
// brings another puzzle.
func TestBrowserPuzzle(t *testing.T) {
	pz, err := puzzle.ParseLine(twoMovePuzzle)
	if err != nil {
		t.Fatal(err)
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
	waitPly(t, alice, 2) // the move and the reply b6:d4
	tap(t, alice, "e1")
	tap(t, alice, "f2")
	waitPly(t, alice, 3)
	if _, err := chromedp.Run(alice, chromedp.Poll[bool](`document.body.dataset.active === "false" && !!document.getElementById("next-puzzle")`,
		chromedp.WithPollingTimeout(10*time.Second))); err != nil {
		t.Fatalf("no end and Next button: %v", err)
	}
	status, _ := chromedp.Run(alice, chromedp.Evaluate[string](`document.getElementById("status").textContent`))
	if !strings.Contains(status, "Solved") {
		t.Errorf("status after the last move: %q", status)
	}
	if err := do(alice, chromedp.Click(chromedp.CSS("#next-puzzle"))); err != nil {
		t.Fatal(err)
	}
	waitPly(t, alice, 0)
	if _, err := chromedp.Run(alice, chromedp.Poll[bool](`document.body.dataset.active === "true"`, chromedp.WithPollingTimeout(10*time.Second))); err != nil {
		t.Errorf("the next puzzle is not under way: %v", err)
	}
}
