package play

import (
	"context"
	"errors"
	"slices"
	"testing"
)

// aiGame starts alice (White) against the AI at level 2.
func aiGame(t *testing.T, s *Service) *Game {
	t.Helper()
	g, err := s.NewAIGame(context.Background(), AIGameRequest{ChatID: 1, Human: alice, Level: 2, Color: ColorWhite})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// moveAndAnswer plays text for alice and lets the AI answer.
func moveAndAnswer(t *testing.T, s *Service, id, text string) *Game {
	t.Helper()
	ctx := context.Background()
	if _, err := s.Move(ctx, id, alice.UserID, AnyPly, text); err != nil {
		t.Fatal(err)
	}
	out, err := s.PlayAI(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	return out.Game
}

func TestHintsAreLegalCountedAndLimited(t *testing.T) {
	s, _, _ := newTestService(t)
	ctx := context.Background()
	g := aiGame(t, s)
	if _, err := s.Hint(ctx, g.rec.ID, bob.UserID, AnyPly); !errors.Is(err, ErrNotAPlayer) {
		t.Errorf("a stranger's hint: err = %v, want ErrNotAPlayer", err)
	}
	if _, err := s.Hint(ctx, g.rec.ID, alice.UserID, 5); !errors.Is(err, ErrStale) {
		t.Errorf("a hint for another board: err = %v, want ErrStale", err)
	}
	// A forced move's hint is free (TestForcedMoveCostsNoHint): count
	// only the hints given where the player had a choice.
	for counted := 0; counted < HintsPerGame; {
		h, err := s.Hint(ctx, g.rec.ID, alice.UserID, g.Ply())
		if err != nil {
			t.Fatal(err)
		}
		if len(g.Rules().Legal()) > 1 {
			counted++
		}
		if !slices.Contains(g.Rules().Legal(), h.Move) || h.Left != HintsPerGame-counted || h.Game.rec.Hints != counted {
			t.Errorf("hint %d: %s, %d left, %d counted", counted, h.Move, h.Left, h.Game.rec.Hints)
		}
		g = moveAndAnswer(t, s, g.rec.ID, h.Move.String())
	}
	for len(g.Rules().Legal()) == 1 {
		g = moveAndAnswer(t, s, g.rec.ID, g.Rules().Legal()[0].String())
	}
	if _, err := s.Hint(ctx, g.rec.ID, alice.UserID, AnyPly); !errors.Is(err, ErrNoHintsLeft) {
		t.Errorf("hint %d: err = %v, want ErrNoHintsLeft", HintsPerGame+1, err)
	}
}

func TestHintsOnlyAgainstTheAI(t *testing.T) {
	s, _, _ := newTestService(t)
	g := startGame(t, s)
	if _, err := s.Hint(context.Background(), g.rec.ID, alice.UserID, AnyPly); !errors.Is(err, ErrNotAgainstAI) {
		t.Errorf("hint between people: err = %v, want ErrNotAgainstAI", err)
	}
	if _, err := s.Takeback(context.Background(), g.rec.ID, alice.UserID, AnyPly); !errors.Is(err, ErrNotAgainstAI) {
		t.Errorf("takeback between people: err = %v, want ErrNotAgainstAI", err)
	}
}

func TestTakebackUndoesAFullMoveAndMakesTheGameCasual(t *testing.T) {
	s, _, st := newTestService(t)
	ctx := context.Background()
	g := aiGame(t, s)
	if _, err := s.Takeback(ctx, g.rec.ID, alice.UserID, AnyPly); !errors.Is(err, ErrNoTakeback) {
		t.Errorf("takeback at the start: err = %v, want ErrNoTakeback", err)
	}
	g = moveAndAnswer(t, s, g.rec.ID, "c3-d4")
	before := g.Position()
	g = moveAndAnswer(t, s, g.rec.ID, g.Rules().Legal()[0].String())
	if _, err := s.Takeback(ctx, g.rec.ID, alice.UserID, 2); !errors.Is(err, ErrStale) {
		t.Errorf("takeback on an old board: err = %v, want ErrStale", err)
	}
	out, err := s.Takeback(ctx, g.rec.ID, alice.UserID, g.Ply())
	if err != nil {
		t.Fatal(err)
	}
	if out.Game.Ply() != 2 || out.Game.Position() != before || !out.Game.rec.Casual || out.Game.rec.Takebacks != 1 {
		t.Errorf("after the takeback: ply %d, position %s (want %s), casual %v, takebacks %d",
			out.Game.Ply(), out.Game.Position(), before, out.Game.rec.Casual, out.Game.rec.Takebacks)
	}
	// Stored so, and a casual game's result counts in no statistics.
	rec, err := st.Game(ctx, g.rec.ID)
	if err != nil || len(rec.Moves) != 2 || !rec.Casual {
		t.Fatalf("stored: %v moves %v casual %v", err, rec.Moves, rec.Casual)
	}
	if _, err := s.Resign(ctx, g.rec.ID, alice.UserID); err != nil {
		t.Fatal(err)
	}
	if u, err := st.User(ctx, alice.UserID); err == nil && u.Stats.Games != 0 {
		t.Errorf("a casual game counted: %+v", u.Stats)
	}
	if _, err := s.Takeback(ctx, g.rec.ID, alice.UserID, AnyPly); !errors.Is(err, ErrGameOver) {
		t.Errorf("takeback after the end: err = %v, want ErrGameOver", err)
	}
}

func TestTakebacksAreLimited(t *testing.T) {
	s, _, _ := newTestService(t)
	ctx := context.Background()
	g := aiGame(t, s)
	for range TakebacksPerGame {
		g = moveAndAnswer(t, s, g.rec.ID, g.Rules().Legal()[0].String())
		out, err := s.Takeback(ctx, g.rec.ID, alice.UserID, AnyPly)
		if err != nil {
			t.Fatal(err)
		}
		g = out.Game
	}
	g = moveAndAnswer(t, s, g.rec.ID, g.Rules().Legal()[0].String())
	if _, err := s.Takeback(ctx, g.rec.ID, alice.UserID, AnyPly); !errors.Is(err, ErrNoTakebacksLeft) {
		t.Errorf("takeback %d: err = %v, want ErrNoTakebacksLeft", TakebacksPerGame+1, err)
	}
}
