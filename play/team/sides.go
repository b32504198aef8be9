package team

import (
	"context"
	"slices"
	"time"

	"github.com/bashni/bashni/play"
	"github.com/bashni/bashni/rules"
	"github.com/bashni/bashni/storage"
)

// A game between two chats (play/versus starts it) is a game by vote on
// both sides: storage.TeamGame.Sides names each side's chat. The vote is
// the same (the ballots of the board on show, one a member, the tally,
// the closed votes), but a side votes only on its own moves and only in
// its own chat, its vote closes once its quorum has voted, and at the
// latest when its time for the move (Pace) runs out; a side that lets its
// time run out without a single vote loses the game on time. A side's
// clock held by the core (play.Game.Hold: a group's pause) starts its
// next move's time at the hold's end.

// Sided reports whether g is a game between two chats.
func Sided(g *play.Game) bool { return g.Team() != nil && len(g.Team().Sides) > 0 }

// SideChat returns the chat whose vote moves g now: in a game between two
// chats the side to move's, else the game's own chat.
func SideChat(g *play.Game) int64 {
	t := g.Team()
	if t == nil || len(t.Sides) == 0 {
		return g.ChatID()
	}
	return sideOf(g).Chat
}

// VotesIn reports whether chat votes in g at all: the game's chat, or
// either side's in a game between two chats.
func VotesIn(g *play.Game, chat int64) bool {
	t := g.Team()
	if t == nil || len(t.Sides) == 0 {
		return chat == g.ChatID()
	}
	return chat == t.Sides[0].Chat || chat == t.Sides[1].Chat
}

// ClosesAt is when the open vote of a game between two chats closes at
// the latest: its side's time for the move runs out (zero for any other
// game).
func ClosesAt(g *play.Game) time.Time {
	if !Sided(g) || !g.Active() {
		return time.Time{}
	}
	return g.Team().ClosesAt
}

// sideOf is the side to move of a game between two chats.
func sideOf(g *play.Game) storage.TeamSide {
	t := g.Team()
	c, _ := g.ToMove()
	if int(c) < len(t.Sides) {
		return t.Sides[c]
	}
	return storage.TeamSide{}
}

// Quorum is how many votes close the vote of the side to move of a game
// between two chats before its time runs out (0: only its time).
func Quorum(g *play.Game) int {
	if !Sided(g) {
		return 0
	}
	return sideOf(g).Quorum
}

// quorate reports whether the open vote of g may close now: its side's
// quorum has voted in a game between two chats; everyone who voted last
// time has voted again in a game against the AI.
func quorate(g *play.Game) bool {
	t := g.Team()
	if len(t.Sides) == 0 {
		return everyoneVoted(t)
	}
	q := sideOf(g).Quorum
	return q > 0 && len(t.Ballots) >= q
}

// startTurn starts the time of the next side's move in a game between two
// chats, once a move is played.
func (s *Service) startTurn(g *play.Game) {
	t := g.Team()
	if len(t.Sides) == 0 || !g.Active() {
		return
	}
	next, _ := g.ToMove()
	start := s.core.Now()
	if held := g.HeldUntil(next); held.After(start) {
		start = held
	}
	t.Ply, t.ClosesAt = g.Ply(), start.Add(t.Pace)
}

// forfeit ends a game between two chats whose side to move let its time
// run out without a vote: that side loses on time. Before both sides
// have moved the core would abort a game lost on time; a match the other
// group accepted and waits in is not void, so that side resigns instead.
func (s *Service) forfeit(g *play.Game) (*play.Outcome, error) {
	how := play.OnTime
	if g.Ply() < 2 {
		how = play.Resign
	}
	o, err := s.core.PlayFor(g, how)
	if err != nil {
		return nil, err
	}
	t := g.Team()
	t.Ballots, t.ClosesAt = nil, time.Time{}
	return o, nil
}

// SetLeave says that chat's side of game id leaves: it resigns at at,
// unless it says it stays (a zero at) before then.
func (s *Service) SetLeave(ctx context.Context, id string, chat int64, at time.Time) (*play.Game, error) {
	return s.core.ChangeGame(ctx, id, func(g *play.Game) error {
		t := g.Team()
		if t == nil || len(t.Sides) == 0 {
			return ErrNotTeamGame
		}
		if !g.Active() {
			return play.ErrGameOver
		}
		i := slices.IndexFunc(t.Sides, func(s storage.TeamSide) bool { return s.Chat == chat })
		if i < 0 {
			return ErrNotTeamGame
		}
		if t.Sides[i].LeavesAt.Equal(at) {
			return play.Unchanged
		}
		t.Sides[i].LeavesAt = at
		return nil
	})
}

// LeavesAt is when chat's side of g resigns, having said it leaves (zero:
// it stays).
func LeavesAt(g *play.Game, chat int64) time.Time {
	if !Sided(g) {
		return time.Time{}
	}
	for _, s := range g.Team().Sides {
		if s.Chat == chat {
			return s.LeavesAt
		}
	}
	return time.Time{}
}

// leaveDue resigns the side of a game between two chats that said it
// leaves, once its grace is over.
func (s *Service) leaveDue(g *play.Game, now time.Time) (*play.Outcome, error) {
	t := g.Team()
	if t == nil || !g.Active() {
		return nil, nil
	}
	for i, side := range t.Sides {
		if !side.LeavesAt.IsZero() && !now.Before(side.LeavesAt) {
			t.Ballots = nil
			return s.core.ResignFor(g, rules.Color(i))
		}
	}
	return nil, nil
}
