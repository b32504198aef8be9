package rules

import (
	"errors"
	"testing"
)

func TestGameEndsWithoutLegalMoves(t *testing.T) {
	// docs/rules.md, End of game: every tower Black could move is under a white
	// top after this capture.
	g := NewGame(MustParsePosition("w:c3w,d4b"))
	if _, err := g.PlayText("c3:e5"); err != nil {
		t.Fatal(err)
	}
	r, why := g.Result()
	if r != WhiteWins || why != NoLegalMoves {
		t.Errorf("result %v (%v), want 1-0 (no legal moves)", r, why)
	}
	if _, err := g.PlayText("e5-d6"); !errors.Is(err, ErrGameOver) {
		t.Errorf("move after the end: %v, want ErrGameOver", err)
	}
}

func TestGameBlockedSideLoses(t *testing.T) {
	g := NewGame(MustParsePosition("w:a1w,b2b,c3b"))
	if r, why := g.Result(); r != BlackWins || why != NoLegalMoves {
		t.Errorf("White blocked: got %v (%v), want 0-1 (no legal moves)", r, why)
	}
}

// lockedCentre has eight men a side locked in the centre so that neither side
// can capture or move a man; only the kings behind them move.
const lockedCentre = "w:a1W,c1W,a3w,c3w,e3w,g3w,b4w,d4w,f4w,h4w,a5b,c5b,e5b,g5b,b6b,d6b,f6b,h6b,h8B,f8B"

func TestThreefoldRepetition(t *testing.T) {
	g := NewGame(MustParsePosition(lockedCentre))
	cycle := []string{"a1-b2", "h8-g7", "b2-a1", "g7-h8"}
	for i := 0; i < 2; i++ {
		for _, m := range cycle {
			if g.Over() {
				t.Fatalf("game ended early after %d plies: %v", g.Ply(), g.Record())
			}
			if _, err := g.PlayText(m); err != nil {
				t.Fatal(err)
			}
		}
	}
	if r, why := g.Result(); r != Draw || why != ThreefoldRepetition {
		t.Errorf("after the start position came round a third time: %v (%v), want a draw by repetition", r, why)
	}
}

func TestFifteenMoveRule(t *testing.T) {
	// Kings shuffle without capture or crowning, White on a 6-move cycle
	// and Black on a 4-move one, so no position comes a third time within
	// 30 plies: then it is drawn (docs/rules.md, End of game).
	g := NewGame(MustParsePosition(lockedCentre))
	whites := []string{"a1-b2", "c1-d2", "d2-e1", "b2-a1", "e1-d2", "d2-c1"}
	blacks := []string{"f8-e7", "h8-g7", "e7-f8", "g7-h8"}
	for ply := 0; !g.Over(); ply++ {
		m := whites[(ply/2)%len(whites)]
		if ply%2 == 1 {
			m = blacks[(ply/2)%len(blacks)]
		}
		if _, err := g.PlayText(m); err != nil {
			t.Fatalf("ply %d %s: %v", ply, m, err)
		}
	}
	if r, why := g.Result(); r != Draw || why != FifteenMoveRule || g.Ply() != FifteenMovePlies {
		t.Errorf("got %v (%v) after %d plies, want a draw by the 15-move rule after 30", r, why, g.Ply())
	}
}

func TestCaptureResetsFifteenMoveCount(t *testing.T) {
	g := NewGame(MustParsePosition("w:c3w,f6b,h8B"))
	for _, m := range []string{"c3-d4", "f6-e5"} {
		if _, err := g.PlayText(m); err != nil {
			t.Fatal(err)
		}
	}
	if g.QuietPlies() != 2 {
		t.Fatalf("quiet plies %d, want 2", g.QuietPlies())
	}
	if _, err := g.PlayText("d4:f6"); err != nil {
		t.Fatal(err)
	}
	if g.QuietPlies() != 0 {
		t.Errorf("after a capture quiet plies = %d, want 0", g.QuietPlies())
	}
}

func TestResignAgreeUndo(t *testing.T) {
	g := NewGame(Start(Bashni))
	if _, err := g.PlayText("c3-d4"); err != nil {
		t.Fatal(err)
	}
	if err := g.Resign(Black); err != nil {
		t.Fatal(err)
	}
	if r, why := g.Result(); r != WhiteWins || why != Resignation {
		t.Errorf("Black resigned: %v (%v)", r, why)
	}
	if err := g.AgreeDraw(); !errors.Is(err, ErrGameOver) {
		t.Errorf("draw after the end: %v, want ErrGameOver", err)
	}
	if err := g.Undo(); err != nil {
		t.Fatal(err)
	}
	if g.Over() || g.Ply() != 0 || g.Position() != Start(Bashni) {
		t.Errorf("after undo: over=%v ply=%d pos=%s", g.Over(), g.Ply(), g.Position())
	}
	if err := g.Undo(); err == nil {
		t.Error("undo with no moves succeeded")
	}
	if err := g.AgreeDraw(); err != nil {
		t.Fatal(err)
	}
	if r, why := g.Result(); r != Draw || why != Agreement {
		t.Errorf("agreed draw: %v (%v)", r, why)
	}
}

func TestRecord(t *testing.T) {
	// The record of docs/rules.md, Notation.
	const want = "1. c3-b4 b6-c5 2. b4-a5 a7-b6 3. b2-c3 c5-b4 4. a3:c5:a7 c7-b6"
	g, err := ReplayGame(Start(Bashni), []string{"c3-b4", "b6-c5", "b4-a5", "a7-b6", "b2-c3", "c5-b4", "a3:c5:a7", "c7-b6"})
	if err != nil {
		t.Fatal(err)
	}
	if got := g.Record(); got != want {
		t.Errorf("record\n got  %s\n want %s", got, want)
	}
	g2, err := ReplayGame(MustParsePosition("b:c3w,f6b"), []string{"f6-e5", "c3-d4"})
	if err != nil {
		t.Fatal(err)
	}
	if got := g2.Record(); got != "1... f6-e5 2. c3-d4" {
		t.Errorf("record from Black: %s", got)
	}
	if _, err := ReplayGame(Start(Bashni), []string{"c3-d4", "c3-b4"}); !errors.Is(err, ErrIllegalMove) {
		t.Errorf("replaying an illegal move: %v", err)
	}
}

// A clone plays on without touching the game it came from, and the other way
// round.
func TestGameCloneIsIndependent(t *testing.T) {
	g, err := ReplayGame(Start(Bashni), []string{"c3-d4", "f6-e5"})
	if err != nil {
		t.Fatal(err)
	}
	c := g.Clone()
	if _, err := c.PlayText("d4:f6"); err != nil {
		t.Fatal(err)
	}
	if err := g.Resign(White); err != nil {
		t.Fatal(err)
	}
	if g.Ply() != 2 || g.Record() != "1. c3-d4 f6-e5 0-1" {
		t.Errorf("original after the clone played: ply %d, %q", g.Ply(), g.Record())
	}
	if c.Ply() != 3 || c.Over() || c.Record() != "1. c3-d4 f6-e5 2. d4:f6" {
		t.Errorf("clone after the original resigned: ply %d over %v, %q", c.Ply(), c.Over(), c.Record())
	}
	if err := c.Undo(); err != nil || c.Position() != g.Position() {
		t.Errorf("clone after undo: %v, position differs from the original's", err)
	}
}
