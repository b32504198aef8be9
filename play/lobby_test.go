package play

import (
	"context"
	"errors"
	"testing"

	"github.com/bashni/bashni/rules"
	"github.com/bashni/bashni/storage"
)

// A game against the AI started where nobody posts its card (the Mini
// App's lobby, under a detached receipt) is stored with its first card
// owed, and that event is handed to the OwedFunc right after the write;
// the human's cap on games in progress refuses the next one and stores
// nothing.
func TestAIGameOwesItsCard(t *testing.T) {
	s, _, st := newTestService(t)
	ctx := context.Background()
	var handed []storage.GameEvent
	var handedGame string
	s.OnOwed(func(ctx context.Context, g *Game, ev storage.GameEvent) {
		handed = append(handed, ev)
		handedGame = g.ID()
	})
	req := AIGameRequest{ChatID: alice.UserID, Human: alice, Level: 3, Color: ColorWhite, Variant: rules.Russian, Lang: "ru", OwesCard: true, MaxActive: 1}
	g, err := s.NewAIGame(Detached(ctx), req)
	if err != nil {
		t.Fatal(err)
	}
	if len(handed) != 1 || handed[0].Kind != storage.EventStarted || handedGame != g.ID() || handed[0].Receipt >= 0 {
		t.Fatalf("handed over %+v (game %q); want one started event of game %s under a receipt of its own", handed, handedGame, g.ID())
	}
	rec, err := st.Game(ctx, g.ID())
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.Owed) != 1 || rec.Owed[0].Kind != storage.EventStarted || rec.ShowAt.IsZero() {
		t.Errorf("stored: owed %+v, ShowAt %v; want the card owed until shown", rec.Owed, rec.ShowAt)
	}
	if rec.Variant != rules.Russian.String() || rec.ChatID != alice.UserID || rec.Lang != "ru" || rec.White != alice || rec.Black.AILevel != 3 {
		t.Errorf("stored %+v; want Alice (White) against level 3 in Russian draughts, in her chat", rec)
	}

	// One game in progress is Alice's cap here: the next is refused.
	_, err = s.NewAIGame(Detached(ctx), req)
	if !errors.Is(err, ErrTooManyGames) || KindOf(err) != TooMany {
		t.Fatalf("a second game over the cap: %v; want ErrTooManyGames", err)
	}
	if ids, err := st.ActiveGamesByUser(ctx, alice.UserID); err != nil || len(ids) != 1 {
		t.Errorf("Alice's games after the refusal: %v (%v); want the one", ids, err)
	}
	if len(handed) != 1 {
		t.Errorf("the refusal handed over %+v", handed[1:])
	}
	// A game the bot starts, posting its card itself, owes nothing.
	plain, err := s.NewAIGame(Detached(ctx), AIGameRequest{ChatID: bob.UserID, Human: bob, Level: 1, Color: ColorWhite})
	if err != nil {
		t.Fatal(err)
	}
	if rec, err := st.Game(ctx, plain.ID()); err != nil || len(rec.Owed) != 0 || len(handed) != 1 {
		t.Errorf("a game without OwesCard: owed %+v, handed %d (%v); want nothing", rec.Owed, len(handed), err)
	}
}

// Doors name rulesets by their canonical names only.
func TestVariantNamed(t *testing.T) {
	for _, v := range rules.Variants {
		if got, err := VariantNamed(v.String()); err != nil || got != v {
			t.Errorf("VariantNamed(%q) = %v, %v", v.String(), got, err)
		}
	}
	for _, name := range []string{"", "chess", "Russian", "mp", "russian "} {
		if _, err := VariantNamed(name); !errors.Is(err, ErrBadVariant) || KindOf(err) != Invalid {
			t.Errorf("VariantNamed(%q): %v; want ErrBadVariant", name, err)
		}
	}
}
