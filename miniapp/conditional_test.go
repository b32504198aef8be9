package miniapp

import (
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/bashni/bashni/play"
	"github.com/bashni/bashni/play/manners"
	"github.com/bashni/bashni/rules"
	"github.com/bashni/bashni/texts"
)

// A line left through the board's API is stored with the game as /if
// leaves it; a line with a move that cannot be played is refused with the
// move named, and nothing changes.
func TestLineThroughTheAPI(t *testing.T) {
	h := newHarnessWith(t, gameSpec{daysPerMove: 2}, nil)
	r := h.reps[0]
	path := "/api/games/" + h.gameID
	if _, err := r.svc.Move(h.ctx, h.gameID, h.alice.ID, 0, "c3-d4"); err != nil {
		t.Fatal(err)
	}
	// Bob is to move: Alice's board offers a line and shows the pace.
	var st state
	if code := h.call(r, "GET", path, h.initData(h.alice), "", &st); code != http.StatusOK {
		t.Fatalf("state: %d", code)
	}
	if !st.IfOK || len(st.IfLine) != 0 || !strings.Contains(st.Pace, "2") {
		t.Fatalf("Alice's state: if_ok %v, line %v, pace %q; want a line offered, none left, the pace of 2 days", st.IfOK, st.IfLine, st.Pace)
	}
	// Bob, to move, may not leave one.
	var eb errorBody
	if code := h.call(r, "POST", path+"/line", h.initData(h.bob), `{"moves":["d4-e5","f6:d4"]}`, &eb); code != http.StatusConflict {
		t.Errorf("Bob's line on his own move: %d %q; want 409", code, eb.Error)
	}
	// A board after the expected move, for the page to choose the answer.
	var lb lineBoard
	if code := h.call(r, "POST", path+"/line/try", h.initData(h.alice), `{"moves":["f6-e5"]}`, &lb); code != http.StatusOK || len(lb.Legal) == 0 || lb.Last == nil {
		t.Fatalf("line board: %d %+v", code, lb)
	}
	bad := `{"moves":["f6-e5","d4-c5"]}` // d4 must capture e5
	eb = errorBody{}
	if code := h.call(r, "POST", path+"/line", h.initData(h.alice), bad, &eb); code != http.StatusUnprocessableEntity || !strings.Contains(eb.Error, "d4-c5") {
		t.Errorf("bad line: %d %q; want 422 naming d4-c5", code, eb.Error)
	}
	eb = errorBody{}
	if code := h.call(r, "POST", path+"/line", h.initData(h.alice), `{"moves":["f6-e5"]}`, &eb); code != http.StatusUnprocessableEntity {
		t.Errorf("half a pair: %d %q; want 422", code, eb.Error)
	}
	if line := manners.LineOf(h.stored(), h.alice.ID); line != nil {
		t.Fatalf("refused lines stored %v", line)
	}
	st = state{}
	if code := h.call(r, "POST", path+"/line", h.initData(h.alice), `{"moves":["f6-e5","d4:f6"]}`, &st); code != http.StatusOK {
		t.Fatalf("good line: %d", code)
	}
	want := []string{"f6-e5", "d4:f6"}
	if line := manners.LineOf(h.stored(), h.alice.ID); !slices.Equal(line, want) || !slices.Equal(st.IfLine, want) {
		t.Fatalf("stored %v, shown %v; want %v", line, st.IfLine, want)
	}
	// An empty line drops it.
	st = state{}
	if code := h.call(r, "POST", path+"/line", h.initData(h.alice), `{"moves":[]}`, &st); code != http.StatusOK || len(st.IfLine) != 0 {
		t.Fatalf("clearing: %d, line %v", code, st.IfLine)
	}
	if line := manners.LineOf(h.stored(), h.alice.ID); line != nil {
		t.Fatalf("cleared line still stored: %v", line)
	}
}

// The board of a game at days per move says the pace and the time left,
// and, with a player away, that their clock stands until when: the
// card's own lines.
func TestPaceAndAwayOnTheBoard(t *testing.T) {
	h := newHarnessWith(t, gameSpec{daysPerMove: 1}, nil)
	r := h.reps[0]
	until := h.clock.Now().Add(5 * 24 * time.Hour)
	if _, err := r.svc.ChangeGame(h.ctx, h.gameID, func(g *play.Game) error {
		g.Hold(rules.White, until, h.clock.Now())
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	var st state
	if code := h.call(r, "GET", "/api/games/"+h.gameID, h.initData(h.bob), "", &st); code != http.StatusOK {
		t.Fatalf("state: %d", code)
	}
	words := r.bot.Texts()
	g := h.stored()
	if want := words.PaceLine("ru", g, h.clock.Now()); st.Pace == "" || st.Pace != want {
		t.Errorf("pace %q; want %q", st.Pace, want)
	}
	if len(st.Away) != 1 || !strings.Contains(st.Away[0], texts.FormatWhen(until)) || !strings.Contains(st.Away[0], "Alice") {
		t.Errorf("away %q; want Alice away until %s", st.Away, texts.FormatWhen(until))
	}
}
