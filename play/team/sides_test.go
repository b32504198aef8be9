package team

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/bashni/bashni/play"
	"github.com/bashni/bashni/storage"
)

// A game between two chats: a side votes only in its chat and on its
// moves, its vote closes at its quorum, and a side that lets its time run
// out without a vote resigns.
func TestSidesVoteInTurn(t *testing.T) {
	ctx := context.Background()
	s, clock, _ := newTestService(t)
	g, err := s.StartGame(ctx, play.GameSpec{ChatID: -1,
		White: storage.Player{Name: "👥 Club"}, Black: storage.Player{Name: "👥 Office"},
		Team: &storage.TeamGame{Window: time.Hour, Pace: time.Hour, ClosesAt: clock.Now().Add(time.Hour),
			Sides: []storage.TeamSide{{Chat: -1, Quorum: 2}, {Chat: -2, Quorum: 1}}},
		Link: &storage.GameLink{ChatID: -1, ID: "m", Feature: "versus", MirrorChat: -2}})
	if err != nil {
		t.Fatal(err)
	}
	move := g.Rules().Legal()[0].String()
	if _, err := s.VoteIn(ctx, g.ID(), -2, carol, g.Ply(), move); !errors.Is(err, ErrNotYourTurn) {
		t.Errorf("Black's chat voting on White's move: %v, want ErrNotYourTurn", err)
	}
	out, err := s.VoteIn(ctx, g.ID(), -1, alice, g.Ply(), move)
	if err != nil || out.Closed != nil {
		t.Fatalf("the first of a quorum of 2: %+v, %v; want the vote open", out, err)
	}
	out, err = s.VoteIn(ctx, g.ID(), -1, bob, g.Ply(), move)
	if err != nil || out.Closed == nil {
		t.Fatalf("the quorum's second vote: %+v, %v; want the move played", out, err)
	}
	g = out.Game
	if SideChat(g) != -2 || ClosesAt(g).Sub(clock.Now()) != time.Hour {
		t.Errorf("after White's move: side chat %d, closes in %v; want Black's chat, an hour", SideChat(g), ClosesAt(g).Sub(clock.Now()))
	}
	// Each card shows its own chat's votes only.
	if turns := Turns(g); len(turns) != 1 || turns[0].Chat != -1 {
		t.Errorf("White's card shows the turns %+v, want White's one", turns)
	}
	if m, ok := g.Mirrored(); !ok || len(Turns(m)) != 0 {
		t.Errorf("Black's card shows White's voters: %+v", Turns(m))
	}
	clock.Advance(time.Hour + time.Second)
	if _, err := s.Tick(ctx, 10); err != nil {
		t.Fatal(err)
	}
	g, err = s.Game(ctx, g.ID())
	if err != nil {
		t.Fatal(err)
	}
	if g.Active() || g.Result() != "1-0" {
		t.Errorf("Black let its hour pass without a vote: active %v, result %q; want 1-0", g.Active(), g.Result())
	}
}
