package puzzle

import (
	"context"
	"fmt"
	"math/rand/v2"

	"github.com/bashni/bashni/ai"
	"github.com/bashni/bashni/rules"
)

// Game is a finished game to look for puzzles in.
type Game struct {
	Start rules.Position
	Moves []rules.Move
	// Scores, when not nil, holds the engine's score of each position
	// before Moves[i] for its side to move, as the game's own searches
	// gave it; Find then does not analyse the game again.
	Scores []int
}

// Finder finds puzzles in games. It is not safe for concurrent use.
type Finder struct {
	Judge *Judge
	// AnalysisNodes is the budget for scoring a game that comes without
	// scores (from a PDN file).
	AnalysisNodes uint64
	// MaxLevel bounds the levels Rate tries.
	MaxLevel int
	seen     map[uint64]bool
	eng      *ai.Engine
}

// NewFinder makes a Finder whose judge searches nodes a move.
func NewFinder(nodes uint64) *Finder {
	return &Finder{Judge: NewJudge(nodes), AnalysisNodes: nodes, MaxLevel: len(ai.Levels), seen: map[uint64]bool{}}
}

// Find returns the puzzles of g not found before by this Finder. The
// candidates are the moments a win appears: positions the side to move's
// own search scores as won (Win or more) right after the opponent's
// search did not see its loss, or after the solver's previous position
// was not yet won. The rest of a won game is not looked at: there many
// moves win.
func (f *Finder) Find(ctx context.Context, g Game) ([]Puzzle, error) {
	positions := make([]rules.Position, 0, len(g.Moves)+1)
	cur := g.Start
	positions = append(positions, cur)
	for _, m := range g.Moves {
		cur = cur.Play(m)
		positions = append(positions, cur)
	}
	scores := g.Scores
	if scores == nil {
		var err error
		if scores, err = f.analyse(ctx, positions[:len(g.Moves)]); err != nil {
			return nil, err
		}
	}
	var out []Puzzle
	for i := range min(len(scores), len(positions)) {
		if scores[i] < Win {
			continue
		}
		surprise := i == 0 || scores[i-1] > -Win
		fresh := i < 2 || scores[i-2] < Win
		if !surprise && !fresh {
			continue
		}
		p := positions[i]
		if f.seen[p.Hash()] {
			continue
		}
		f.seen[p.Hash()] = true
		pz, ok, err := f.Judge.Solve(ctx, p)
		if err != nil {
			return out, err
		}
		if !ok {
			continue
		}
		if pz.Rating, err = f.Judge.Rate(ctx, pz, f.MaxLevel); err != nil {
			return out, err
		}
		out = append(out, pz)
	}
	return out, nil
}

// analyse scores each position for its side to move.
func (f *Finder) analyse(ctx context.Context, ps []rules.Position) ([]int, error) {
	if f.eng == nil {
		f.eng = ai.New(ai.Options{HashMB: 4})
	}
	f.eng.Reset()
	out := make([]int, len(ps))
	for i, p := range ps {
		if len(p.Legal()) < 2 {
			continue // the engine answers a forced move without a score
		}
		res, err := f.eng.Search(ctx, ai.Request{Position: p, Limits: ai.Limits{Nodes: f.AnalysisNodes}})
		if err != nil {
			return nil, fmt.Errorf("puzzle: analysing ply %d: %w", i, err)
		}
		out[i] = res.Score
	}
	return out, nil
}

// SelfPlay is how PlayGame plays.
type SelfPlay struct {
	// Nodes is each move's budget, for both sides.
	Nodes uint64
	// RandomPlies uniformly random moves follow the opening, so that no
	// two games are one.
	RandomPlies int
	// MaxPlies ends a game still going.
	MaxPlies int
	Seed     int64
}

// PlayGame plays self-play game n from one of ai.Openings and returns it
// with its scores. The same n and seed give the same game.
func PlayGame(ctx context.Context, eng *ai.Engine, cfg SelfPlay, n int) (Game, error) {
	rng := rand.New(rand.NewPCG(uint64(cfg.Seed), uint64(n)))
	openings := ai.Openings()
	game := rules.NewGame(openings[rng.IntN(len(openings))])
	for range cfg.RandomPlies {
		p := game.Position()
		moves := p.Legal()
		if len(moves) == 0 {
			break
		}
		if err := game.Play(moves[rng.IntN(len(moves))]); err != nil {
			return Game{}, fmt.Errorf("puzzle: game %d: %w", n, err)
		}
	}
	start := game.Position()
	g := Game{Start: start}
	eng.Reset()
	maxPlies := cfg.MaxPlies
	if maxPlies <= 0 {
		maxPlies = 300
	}
	for !game.Over() && len(g.Moves) < maxPlies {
		p := game.Position()
		res, err := eng.Search(ctx, ai.Request{
			Position: p, History: game.History(), QuietPlies: game.QuietPlies(),
			Limits: ai.Limits{Nodes: cfg.Nodes},
		})
		if err != nil {
			return g, fmt.Errorf("puzzle: game %d, ply %d: %w", n, game.Ply(), err)
		}
		if err := game.Play(res.Move); err != nil {
			return g, fmt.Errorf("puzzle: game %d: the engine's move: %w", n, err)
		}
		g.Moves = append(g.Moves, res.Move)
		g.Scores = append(g.Scores, res.Score)
	}
	return g, nil
}
