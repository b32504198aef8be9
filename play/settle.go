package play

import (
	"context"
	"time"

	"github.com/bashni/bashni/rules"
)

// A player's action on a live game first settles a deadline that has
// passed: the game is lost on time, in the very write the action would
// have made, and the action is refused. Otherwise a flag that fell
// between two clock ticks could still be drawn, resigned or taken back
// (the clock's tick and a board's flag claim only end the game later).

// TimeUpError refuses an action because the game was lost on time before
// it. Event is the loss on time when this call was the one that settled
// it (exactly one caller of any number across replicas): that caller
// tells the players, as the clock's tick would. errors.Is holds for
// ErrGameOver (what the player reads: the game is over) and ErrTimeUp.
type TimeUpError struct {
	Event ClockEvent
}

func (e *TimeUpError) Error() string { return "play: the game was lost on time before this action" }

// Is makes a TimeUpError an ErrGameOver and an ErrTimeUp.
func (e *TimeUpError) Is(target error) bool { return target == ErrGameOver || target == ErrTimeUp }

// Unwrap gives ErrTimeUp, so that errors.As finds its kind (Conflict).
func (e *TimeUpError) Unwrap() error { return ErrTimeUp }

// flagFallen reports whether g's deadline for the side to move has passed
// at now.
func flagFallen(g *Game, now time.Time) bool {
	return g.rec.Active() && !g.rec.TimeoutAt.IsZero() && !now.Before(g.rec.TimeoutAt)
}

// loseOnTime ends g on time for the side to move, its clock at zero.
func (s *Service) loseOnTime(g *Game) error {
	c, _ := g.ToMove()
	if err := g.conclude(func(r *rules.Game) error { return r.LoseOnTime(c) }); err != nil {
		return err
	}
	if g.rec.TimeControl != "" {
		// The flag fell: the loser's clock shows zero, not the time it
		// had when its turn began.
		g.rec.Spent = append(g.rec.Spent, g.rec.TimeoutAt.Sub(g.rec.TurnStart))
		if c == rules.White {
			g.rec.WhiteLeft = 0
		} else {
			g.rec.BlackLeft = 0
		}
	}
	s.syncRecord(g)
	return nil
}

// act is update for a player's action on a live game: when the deadline
// has passed at the service's clock, the compare-and-set writes the loss
// on time instead of the action, and act returns a *TimeUpError.
func (s *Service) act(ctx context.Context, id string, decide func(g *Game) error) (*Game, error) {
	return s.actFrom(ctx, id, nil, decide)
}

// actFrom is act deciding first on seen (updateFrom).
func (s *Service) actFrom(ctx context.Context, id string, seen *Game, decide func(g *Game) error) (*Game, error) {
	now := s.now()
	fell := false
	g, err := s.updateFrom(ctx, id, seen, func(g *Game) error {
		fell = flagFallen(g, now)
		if fell {
			return s.loseOnTime(g)
		}
		return decide(g)
	})
	if err != nil {
		return nil, err
	}
	if fell {
		s.finished(ctx, g)
		return nil, &TimeUpError{Event: ClockEvent{Game: g, TimedOut: true, Receipt: ReceiptOf(ctx)}}
	}
	return g, nil
}
