package versus

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/bashni/bashni/ai"
	"github.com/bashni/bashni/internal/testkit"
	"github.com/bashni/bashni/play"
	"github.com/bashni/bashni/play/team"
	"github.com/bashni/bashni/rules"
	"github.com/bashni/bashni/storage"
	"github.com/bashni/bashni/storage/bolt"
)

// newTestService wires the matches on a fresh bolt store as cmd/bashni
// does, its clock starting now.
func newTestService(t *testing.T) (*Service, *play.Service) {
	t.Helper()
	clock := testkit.NewClock(time.Now())
	st, err := bolt.Open(filepath.Join(t.TempDir(), "bashni.db"), clock.Now)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	core := play.New(st, play.NewEnginePool(1, 1, ai.Limits{Nodes: 2000}), play.DefaultConfig, clock.Now)
	votes := team.New(core, st, nil)
	core.AddDeadline(votes.CloseDue)
	return New(core, votes, st, DefaultConfig, nil), core
}

var (
	club   = storage.VersusSide{Chat: -1, Title: "Club", Lang: "en"}
	office = storage.VersusSide{Chat: -2, Title: "Office", Lang: "ru"}
)

// A challenge is accepted once: by the first group, again by the same
// group (the same game), never by a third or by the group that made it;
// the game's two sides are the two groups, each voting in its own chat.
func TestAcceptOnce(t *testing.T) {
	ctx := context.Background()
	s, _ := newTestService(t)
	c, err := s.Challenge(ctx, club, 7)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Accept(ctx, c.Code, club, rules.Bashni, time.Hour); !errors.Is(err, ErrSameChat) {
		t.Errorf("the challenger accepting its own challenge: %v, want ErrSameChat", err)
	}
	if _, err := s.Accept(ctx, c.Code, office, rules.Bashni, 5*time.Hour); !errors.Is(err, ErrBadPace) {
		t.Errorf("a pace not on offer: %v, want ErrBadPace", err)
	}
	g, err := s.Accept(ctx, c.Code, office, rules.Russian, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	again, err := s.Accept(ctx, c.Code, office, rules.Russian, time.Hour)
	if err != nil || again.ID() != g.ID() {
		t.Errorf("accepted again by the same group: %v, %v; want the same game %s", again, err, g.ID())
	}
	if _, err := s.Accept(ctx, c.Code, storage.VersusSide{Chat: -3, Title: "Third"}, rules.Bashni, time.Hour); !errors.Is(err, ErrTaken) {
		t.Errorf("a third group accepting: %v, want ErrTaken", err)
	}
	sides := g.Team().Sides
	if len(sides) != 2 || sides[0].Chat == sides[1].Chat || sides[0].Chat+sides[1].Chat != -3 || sides[0].Quorum != DefaultQuorum {
		t.Errorf("the sides %+v: want the two groups, each with the default quorum", sides)
	}
	if p := g.Position(); p.Variant() != rules.Russian || !Is(g) {
		t.Errorf("the game's rules %v, a match %v", p.Variant(), Is(g))
	}
}

// A match that ends is counted once in each group, however often its end
// is told: one point to the winner, ratings apart, one line of history.
func TestGameOverCountedOnce(t *testing.T) {
	ctx := context.Background()
	s, core := newTestService(t)
	c, err := s.Challenge(ctx, club, 7)
	if err != nil {
		t.Fatal(err)
	}
	g, err := s.Accept(ctx, c.Code, office, rules.Bashni, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	g, err = core.ChangeGame(ctx, g.ID(), func(g *play.Game) error {
		for range 2 { // both sides move: a game, not an abort
			if _, err := core.PlayFor(g, g.Rules().Legal()[0].String()); err != nil {
				return err
			}
		}
		_, err := core.PlayFor(g, play.Resign) // White resigns
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if err := s.GameOver(ctx, g); err != nil {
			t.Fatal(err)
		}
	}
	white, _ := s.Chat(ctx, g.Team().Sides[0].Chat)
	black, _ := s.Chat(ctx, g.Team().Sides[1].Chat)
	if g.Aborted() || g.Result() != "0-1" {
		t.Fatalf("the game ended %s (aborted %v), want 0-1", g.Result(), g.Aborted())
	}
	if white.Played != 1 || black.Played != 1 || black.Points != 1 || white.Points != 0 || len(black.History) != 1 {
		t.Errorf("counted twice or wrongly: white %+v, black %+v", white, black)
	}
	if !(black.Rating > 1500 && white.Rating < 1500) {
		t.Errorf("ratings: white %.0f, black %.0f; want the winner above 1500, the loser below", white.Rating, black.Rating)
	}
}

// A group that seeks a match waits when none waits; the next group pairs
// with it at once, and neither waits any more.
func TestSeekPairs(t *testing.T) {
	ctx := context.Background()
	s, _ := newTestService(t)
	g, err := s.Seek(ctx, club)
	if err != nil || g != nil {
		t.Fatalf("the first group: %v, %v; want it to wait", g, err)
	}
	g, err = s.Seek(ctx, office)
	if err != nil || g == nil {
		t.Fatalf("the second group: %v, %v; want a match", g, err)
	}
	for _, side := range []storage.VersusSide{club, office} {
		c, _ := s.Chat(ctx, side.Chat)
		if !c.Waiting.IsZero() || len(c.Playing) != 1 {
			t.Errorf("group %d after the pairing: waiting %v, playing %v", side.Chat, c.Waiting, c.Playing)
		}
	}
}
