package match

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/bashni/bashni/ai"
	"github.com/bashni/bashni/rules"
)

// DefaultMaxPlies is the ply limit at which a game is adjudicated a draw.
const DefaultMaxPlies = 300

// Config describes a match.
type Config struct {
	A, B Player
	// Games is rounded up to an even number: each opening is played twice,
	// A taking White once and Black once.
	Games int
	// Openings are the start positions, used in order and wrapped around;
	// nil means ai.Openings().
	Openings []rules.Position
	// Concurrency is how many games run at once (at least 1).
	Concurrency int
	// MaxPlies adjudicates a game still going as a draw (DefaultMaxPlies
	// when 0).
	MaxPlies int
	// Seed varies the weaker levels' random choices between matches.
	Seed int64
	// Progress, if set, is called after each game, from one goroutine at a
	// time.
	Progress func(Progress)
}

// Game is one finished game.
type Game struct {
	Number  int     // 0-based; games 2k and 2k+1 share opening k
	Opening int     // index into the openings
	AWhite  bool    // A played White
	Score   float64 // A's points: 1, ½ or 0
	Reason  string  // why it ended: a rules.Reason's text or ReasonPlyLimit
	Start   rules.Position
	Moves   []rules.Move
	Nodes   [2]uint64        // nodes searched by A and by B
	Time    [2]time.Duration // thinking time of A and of B
}

// Progress reports a finished game and the running score.
type Progress struct {
	Game        Game
	Done, Total int
	Score       Score
}

// Result is a whole match.
type Result struct {
	Score   Score
	Games   []Game // in game-number order
	Elapsed time.Duration
}

// ReasonPlyLimit is the reason of a game adjudicated a draw at the ply
// limit; other games end for a rules.Reason, in its words.
const ReasonPlyLimit = "ply limit (adjudicated a draw)"

// Run plays the match. If ctx ends it first, Run returns the games finished
// so far with ctx's error.
func Run(ctx context.Context, cfg Config) (Result, error) {
	start := time.Now()
	openings := cfg.Openings
	if openings == nil {
		openings = ai.Openings()
	}
	if len(openings) == 0 {
		return Result{}, errors.New("match: no openings")
	}
	total := cfg.Games + cfg.Games%2
	workers := max(cfg.Concurrency, 1)
	maxPlies := cfg.MaxPlies
	if maxPlies <= 0 {
		maxPlies = DefaultMaxPlies
	}

	parent := ctx
	jobs := make(chan int)
	type done struct {
		game Game
		err  error
	}
	results := make(chan done)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := range jobs {
				opening := (n / 2) % len(openings)
				g, err := play(ctx, cfg, n, opening, openings[opening], maxPlies)
				results <- done{g, err}
			}
		}()
	}
	go func() {
		defer close(jobs)
		for n := 0; n < total; n++ {
			select {
			case jobs <- n:
			case <-ctx.Done():
				return
			}
		}
	}()
	go func() {
		wg.Wait()
		close(results)
	}()

	var res Result
	var firstErr error
	for d := range results {
		if d.err != nil {
			if firstErr == nil {
				firstErr = d.err
				cancel()
			}
			continue
		}
		res.Games = append(res.Games, d.game)
		switch d.game.Score {
		case 1:
			res.Score.Wins++
		case 0:
			res.Score.Losses++
		default:
			res.Score.Draws++
		}
		if cfg.Progress != nil {
			cfg.Progress(Progress{Game: d.game, Done: len(res.Games), Total: total, Score: res.Score})
		}
	}
	if firstErr == nil && parent.Err() != nil {
		firstErr = fmt.Errorf("match: stopped after %d games: %w", len(res.Games), parent.Err())
	}
	slices.SortFunc(res.Games, func(a, b Game) int { return a.Number - b.Number })
	res.Elapsed = time.Since(start)
	return res, firstErr
}

// play plays game number n from the given opening, judged by rules.Game.
func play(ctx context.Context, cfg Config, n, opening int, start rules.Position, maxPlies int) (Game, error) {
	g := Game{Number: n, Opening: opening, AWhite: n%2 == 0, Start: start}
	players := [2]Player{cfg.A, cfg.B} // by colour: index 0 plays White
	if !g.AWhite {
		players[0], players[1] = players[1], players[0]
	}
	var engines [2]*ai.Engine
	for c, p := range players {
		if p.Exe == "" {
			engines[c] = ai.New(p.Options)
		}
	}
	aColor := rules.White
	if !g.AWhite {
		aColor = rules.Black
	}
	game := rules.NewGame(start)
	for !game.Over() && game.Ply() < maxPlies {
		p := game.Position()
		side := p.SideToMove()
		seed := cfg.Seed*1_000_003 + int64(n)*1009 + int64(game.Ply())
		var res ai.Result
		var err error
		if pl := players[side]; pl.Exe != "" {
			res, err = pl.thinkExternal(ctx, p, seed)
		} else {
			req := pl.request()
			req.Position, req.History, req.QuietPlies = p, game.History(), game.QuietPlies()
			req.Seed = seed
			res, err = engines[side].Search(ctx, req)
		}
		if err != nil {
			return g, fmt.Errorf("match: game %d, ply %d: %w", n, game.Ply(), err)
		}
		if err := game.Play(res.Move); err != nil {
			return g, fmt.Errorf("match: game %d, ply %d: the engine's move: %w", n, game.Ply(), err)
		}
		who := 0
		if side != aColor {
			who = 1
		}
		g.Nodes[who] += res.Nodes
		g.Time[who] += res.Elapsed
	}
	g.Moves = game.Moves()
	result, reason := game.Result()
	switch winner, won := result.Winner(); {
	case result == rules.Ongoing:
		g.Reason, g.Score = ReasonPlyLimit, 0.5
	case !won:
		g.Reason, g.Score = reason.String(), 0.5
	default:
		g.Reason = reason.String()
		if winner == aColor {
			g.Score = 1
		}
	}
	return g, nil
}
