package tune

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"

	"github.com/bashni/bashni/ai"
	"github.com/bashni/bashni/rules"
)

// SelfPlay configures Generate.
type SelfPlay struct {
	Games int
	// Nodes is each move's search budget. Small budgets give many games;
	// their results need only be right on average.
	Nodes uint64
	// RandomPlies is how many uniformly random moves follow the opening,
	// so no two games are the same game.
	RandomPlies int
	// PerGame is the most positions one game gives (they are picked at
	// random among its quiet ones): positions of one game are alike, and
	// many from few games would fit those games rather than the evaluation.
	PerGame int
	// MaxPlies adjudicates a game still going as a draw.
	MaxPlies int
	// Workers is how many games are played at once.
	Workers int
	Seed    int64
	// Weights are the evaluation the games are played with (the engine's
	// own when nil): a second round of tuning plays with the first's.
	Weights *ai.Weights
	// Variant is the rules the games are played under. Bashni's games
	// start from its shipped openings; the shipped openings are Bashni
	// positions, so another variant's games start from its start position
	// and only RandomPlies make them differ.
	Variant rules.Variant
	// Openings are the start positions, played under Variant (ai.Openings()
	// for Bashni, the start position for another variant, when nil).
	Openings []rules.Position
	// Progress, if set, is called after each game with the games done, from
	// one goroutine at a time.
	Progress func(done int)
}

// Generate plays cfg.Games self-play games and returns their samples, in
// game order. If ctx ends first it returns what it has with ctx's error.
func Generate(ctx context.Context, cfg SelfPlay) ([]Sample, error) {
	if cfg.Games < 1 || cfg.Nodes < 1 || cfg.PerGame < 1 {
		return nil, errors.New("tune: self-play needs games, nodes and positions per game of at least 1")
	}
	openings := cfg.Openings
	switch {
	case openings == nil && cfg.Variant == rules.Bashni:
		openings = ai.Openings()
	case openings == nil:
		openings = []rules.Position{rules.Start(cfg.Variant)}
	default:
		openings = slices.Clone(openings)
	}
	for i := range openings {
		openings[i] = openings[i].WithVariant(cfg.Variant)
	}
	if cfg.MaxPlies <= 0 {
		cfg.MaxPlies = 300
	}
	workers := max(cfg.Workers, 1)
	perGame := make([][]Sample, cfg.Games)
	jobs := make(chan int)
	var (
		mu       sync.Mutex
		done     int
		firstErr error
		wg       sync.WaitGroup
	)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			eng := ai.New(ai.Options{HashMB: 4, Weights: cfg.Weights})
			for n := range jobs {
				eng.Reset()
				s, err := selfPlayGame(ctx, eng, cfg, openings, n)
				mu.Lock()
				if err != nil && firstErr == nil {
					firstErr = err
				}
				perGame[n] = s
				done++
				if cfg.Progress != nil {
					cfg.Progress(done)
				}
				mu.Unlock()
			}
		}()
	}
	for n := 0; n < cfg.Games && ctx.Err() == nil; n++ {
		jobs <- n
	}
	close(jobs)
	wg.Wait()
	var out []Sample
	for _, s := range perGame {
		out = append(out, s...)
	}
	if firstErr == nil {
		firstErr = ctx.Err()
	}
	return out, firstErr
}

// selfPlayGame plays game n and returns up to cfg.PerGame of its quiet
// positions labelled with the game's result.
func selfPlayGame(ctx context.Context, eng *ai.Engine, cfg SelfPlay, openings []rules.Position, n int) ([]Sample, error) {
	rng := rand.New(rand.NewPCG(uint64(cfg.Seed), uint64(n)))
	game := rules.NewGame(openings[rng.IntN(len(openings))])
	for range cfg.RandomPlies {
		p := game.Position()
		moves := p.Legal()
		if len(moves) == 0 {
			break
		}
		if err := game.Play(moves[rng.IntN(len(moves))]); err != nil {
			return nil, fmt.Errorf("tune: game %d: %w", n, err)
		}
	}
	var quiet []rules.Position
	for !game.Over() && game.Ply() < cfg.MaxPlies {
		p := game.Position()
		if !p.HasCapture() {
			quiet = append(quiet, p)
		}
		res, err := eng.Search(ctx, ai.Request{
			Position: p, History: game.History(), QuietPlies: game.QuietPlies(),
			Limits: ai.Limits{Nodes: cfg.Nodes},
		})
		if err != nil {
			return nil, fmt.Errorf("tune: game %d, ply %d: %w", n, game.Ply(), err)
		}
		if err := game.Play(res.Move); err != nil {
			return nil, fmt.Errorf("tune: game %d, ply %d: the engine's move: %w", n, game.Ply(), err)
		}
	}
	points := 0.5
	result, _ := game.Result()
	if winner, won := result.Winner(); won {
		points = 0
		if winner == rules.White {
			points = 1
		}
	}
	rng.Shuffle(len(quiet), func(i, j int) { quiet[i], quiet[j] = quiet[j], quiet[i] })
	out := make([]Sample, 0, min(len(quiet), cfg.PerGame))
	for _, p := range quiet[:min(len(quiet), cfg.PerGame)] {
		out = append(out, Sample{Position: p, Result: points})
	}
	return out, nil
}
