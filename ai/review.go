package ai

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/bashni/bashni/rules"
)

// ReviewCap bounds the scores of a review: a forced win counts as this
// much (hundredths of a man, 20 men), so a missed win or a move into a
// lost position shows as a large loss, and a graph has a finite scale.
const ReviewCap = 2000

// MoveReview is the engine's judgement of one move of a game.
type MoveReview struct {
	Ply   int // 0-based: the move played in Positions[Ply]
	Move  rules.Move
	Mover rules.Color
	// Best is the engine's choice in the position before the move.
	Best rules.Move
	// Loss is how much worse the move is than Best for the mover, in
	// hundredths of a man (0 when it is Best or as good).
	Loss int
}

// Number writes where the move stands in the game's record, counted from
// its start as the record counts: "5." for White's fifth move, "5…" for
// Black's.
func (m MoveReview) Number(start rules.Position) string {
	ply := m.Ply
	if start.SideToMove() == rules.Black {
		ply++
	}
	if m.Mover == rules.Black {
		return fmt.Sprintf("%d…", ply/2+1)
	}
	return fmt.Sprintf("%d.", ply/2+1)
}

// Review is an analysis of a whole game.
type Review struct {
	// Scores has one score per position of the game (the start and after
	// each move), from White's point of view, capped at ±ReviewCap.
	Scores []int
	Moves  []MoveReview
}

// Mistakes returns the moves by any of colors that lose at least
// threshold, worst first, at most n of them.
func (r Review) Mistakes(threshold, n int, colors ...rules.Color) []MoveReview {
	var out []MoveReview
	for _, m := range r.Moves {
		if slices.Contains(colors, m.Mover) && m.Loss >= threshold {
			out = append(out, m)
		}
	}
	slices.SortStableFunc(out, func(a, b MoveReview) int { return b.Loss - a.Loss })
	return out[:min(n, len(out))]
}

// ReviewGame reviews a game on e: see the function ReviewGame. Each search
// takes the Engine's lock on its own, so other searches on a shared Engine
// interleave with a long review.
func (e *Engine) ReviewGame(ctx context.Context, start rules.Position, moves []rules.Move, per Limits) (Review, error) {
	return ReviewGame(ctx, e.Search, start, moves, per)
}

// ReviewGame searches, with search, every position of the game that starts
// at start and plays moves, each within per (a node or depth limit gives
// the same review on any machine; a move time bounds the whole to about
// (len(moves)+1)·per). The game's history goes with every position, so
// repetitions count.
func ReviewGame(ctx context.Context, search func(context.Context, Request) (Result, error), start rules.Position, moves []rules.Move, per Limits) (Review, error) {
	if per == (Limits{}) {
		return Review{}, errors.New("ai: review: no limit per position")
	}
	g := rules.NewGame(start)
	type node struct {
		score  int // for the side to move
		best   rules.Move
		forced bool // one legal move: no search, the score comes from the next node
	}
	nodes := make([]node, len(moves)+1)
	positions := make([]rules.Position, 0, len(moves)+1)
	for i := 0; ; i++ {
		p := g.Position()
		positions = append(positions, p)
		legal := g.Legal()
		switch r, _ := g.Result(); {
		case r == rules.Draw || r == rules.NoResult:
			nodes[i] = node{}
		case r != rules.Ongoing || len(legal) == 0:
			nodes[i] = node{score: -MateScore} // the side to move has lost
		case len(legal) == 1:
			// Search answers a forced move without a score: it is
			// worth what the position after it is worth.
			nodes[i] = node{best: legal[0], forced: true}
		default:
			res, err := search(ctx, Request{Position: p, History: g.History(), QuietPlies: g.QuietPlies(), Limits: per})
			if err != nil && (res.Move.Len() == 0 || ctx.Err() != nil) {
				return Review{}, fmt.Errorf("ai: review of ply %d: %w", i, err)
			}
			nodes[i] = node{score: res.Score, best: res.Move}
		}
		if i == len(moves) {
			break
		}
		if err := g.Play(moves[i]); err != nil {
			return Review{}, fmt.Errorf("ai: review: move %d: %w", i+1, err)
		}
	}
	// Forced moves take their worth from the position after them. A game
	// that stopped (resigned) on a forced move ends with that position
	// counted as even: nothing after it was played.
	for i := len(nodes) - 2; i >= 0; i-- {
		if nodes[i].forced {
			nodes[i].score = -nodes[i+1].score
		}
	}
	rv := Review{Scores: make([]int, len(nodes))}
	for i, n := range nodes {
		s := capScore(n.score)
		if positions[i].SideToMove() == rules.Black {
			s = -s
		}
		rv.Scores[i] = s
	}
	for i, m := range moves {
		mover := positions[i].SideToMove()
		loss := 0
		if m != nodes[i].best {
			// The best line's worth against what is left after the move,
			// both for the mover.
			loss = max(capScore(nodes[i].score)-capScore(-nodes[i+1].score), 0)
		}
		rv.Moves = append(rv.Moves, MoveReview{Ply: i, Move: m, Mover: mover, Best: nodes[i].best, Loss: loss})
	}
	return rv, nil
}

// capScore maps forced results to ±ReviewCap and bounds evaluations.
func capScore(s int) int {
	return max(min(s, ReviewCap), -ReviewCap)
}
