package play

import (
	"context"
	"fmt"
	"time"

	"github.com/bashni/bashni/ai"
)

// hintLeaseMargin is added to the AI's timeout for a hint's lease: the
// search ends by then, or its process has died and the lease lapses.
const hintLeaseMargin = 5 * time.Second

// Hint asks the engine (at the ladder's top, ai.LadderTop: the timed level
// above it would cost its whole time and all cores on every hint) for userID's best move in a game
// against the AI, on their turn, and counts it. ply is the board the player
// saw (AnyPly for a typed command): a hint for an old board is refused.
//
// The hint is reserved in the store before the search starts: counted, and
// the game's hint search leased to this caller, so that any number of
// requests across replicas run at most one search a game at a time and
// never more searches than hints (ErrHintRunning for the others). A
// search that fails gives the hint back. A forced move (the only legal
// one) is no help the engine gave: it is told without a search and costs
// no hint, even with none left.
func (s *Service) Hint(ctx context.Context, id string, userID int64, ply int) (*Hint, error) {
	if s.ai == nil {
		return nil, ErrNoAI
	}
	if h, err := s.forcedHint(ctx, id, userID, ply); h != nil || err != nil {
		return h, err
	}
	now := s.now()
	lease := now.Add(s.cfg.AITimeout + hintLeaseMargin)
	g, err := s.act(ctx, id, func(g *Game) error {
		if err := humanTurnVsAI(g, userID); err != nil {
			return err
		}
		if ply != AnyPly && ply != g.Ply() {
			return ErrStale
		}
		if g.rec.HintUntil.After(now) {
			return ErrHintRunning
		}
		if g.rec.Hints >= HintsPerGame {
			return ErrNoHintsLeft
		}
		g.rec.Hints++
		g.rec.HintUntil = lease
		return nil
	})
	if err != nil {
		return nil, err
	}
	at := g.Ply()
	tctx, cancel := context.WithTimeout(ctx, s.cfg.AITimeout)
	defer cancel()
	m, err := s.ai.Think(tctx, g.rules, min(s.cfg.MaxLevel, ai.LadderTop))
	// Not cancelled with the caller: the lease and the count must be put
	// right even if the player has gone.
	done, derr := s.update(context.WithoutCancel(ctx), id, func(g *Game) error {
		if !g.rec.HintUntil.Equal(lease) {
			return errUnchanged // lapsed, and another search has it now
		}
		g.rec.HintUntil = timeZero
		if err != nil {
			g.rec.Hints-- // no hint was given
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("play: hint: %w", err)
	}
	if derr != nil {
		return nil, derr
	}
	if !done.rec.Active() {
		return nil, ErrGameOver
	}
	if done.Ply() != at {
		return nil, ErrStale // the board changed during the search: the hint is spent
	}
	return &Hint{Game: done, Move: m, Left: HintsPerGame - done.rec.Hints}, nil
}

// forcedHint is the hint of a position with one legal move, counted as
// nothing; nil (and no error) when the player has a choice, so that Hint
// reserves a search. The same refusals as a counted hint's apply.
func (s *Service) forcedHint(ctx context.Context, id string, userID int64, ply int) (*Hint, error) {
	g, err := s.Game(ctx, id)
	if err != nil {
		return nil, err
	}
	if err := humanTurnVsAI(g, userID); err != nil {
		return nil, err
	}
	if ply != AnyPly && ply != g.Ply() {
		return nil, ErrStale
	}
	legal := g.rules.Legal()
	if len(legal) != 1 {
		return nil, nil
	}
	return &Hint{Game: g, Move: legal[0], Left: HintsPerGame - g.rec.Hints}, nil
}
