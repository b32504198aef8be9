package review

import (
	"context"

	"github.com/bashni/bashni/ai"
	"github.com/bashni/bashni/rules"
	"github.com/bashni/bashni/storage"
)

// A finished game's review is kept with the game in the store, not only in
// the process that made it: with several replicas, the chat's Analyse
// button and the Mini App's requests land anywhere, and a review is time-
// bounded, so two replicas reviewing one game would spend the engine twice
// and could show the player two different verdicts on the same move.

// reviewRecord is rv as the game's record keeps it: moves in notation.
func reviewRecord(rv ai.Review) *storage.GameReview {
	kept := &storage.GameReview{Scores: rv.Scores, Best: make([]string, len(rv.Moves)), Loss: make([]int, len(rv.Moves))}
	for i, m := range rv.Moves {
		kept.Best[i], kept.Loss[i] = m.Best.String(), m.Loss
	}
	return kept
}

// keptReview reads back the review kept with g. ok is false when there is
// none, or when it does not fit g's moves (a record edited by hand, or
// written by a build that kept something else): that one is reviewed
// again and replaced.
func keptReview(g *game) (rv ai.Review, ok bool) {
	kept := g.rec.Review
	moves := g.Rules().Moves()
	if kept == nil || len(kept.Scores) != len(moves)+1 || len(kept.Best) != len(moves) || len(kept.Loss) != len(moves) {
		return ai.Review{}, false
	}
	rv = ai.Review{Scores: kept.Scores, Moves: make([]ai.MoveReview, len(moves))}
	p := g.Rules().StartPosition()
	for i, m := range moves {
		best, err := rules.ParseMove(&p, kept.Best[i])
		if err != nil || kept.Loss[i] < 0 {
			return ai.Review{}, false
		}
		rv.Moves[i] = ai.MoveReview{Ply: i, Move: m, Mover: p.SideToMove(), Best: best, Loss: kept.Loss[i]}
		p = p.Play(m)
	}
	return rv, true
}

// keepReview stores rv with game id, unless a review is kept there already
// (another replica finished first), and returns the one kept, so that
// every replica shows the same. A failed write costs only that: the review
// is still good here, and is logged.
func (s *Service) keepReview(ctx context.Context, id string, rv ai.Review) ai.Review {
	g, err := s.change(ctx, id, func(g *game) error {
		_, ok := keptReview(g)
		if ok && g.rec.ReviewWork == nil {
			return errUnchanged
		}
		if !ok {
			g.rec.Review = reviewRecord(rv)
		}
		g.rec.ReviewWork = nil // the queue's work on it is done
		return nil
	})
	if err != nil {
		s.log.Warn("review: keeping a game's review", "game", id, "err", err)
		return rv
	}
	if kept, ok := keptReview(g); ok {
		return kept
	}
	return rv
}
