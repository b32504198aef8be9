package enginecli

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/bashni/bashni/ai"
	"github.com/bashni/bashni/rules"
)

// Think is `bashni think`: it searches one position and prints the chosen
// move on the first line, then the depth, score, nodes, nodes per second,
// time and principal variation, one "key value" per line.
//
//	bashni think -fen POS [-variant V] [-level N | -movetime D | -depth N | -nodes N] [-hash MB] [-threads N]
func Think(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("think", "-fen POS [-variant V] [-level N | -movetime D | -depth N | -nodes N]", stderr)
	fen := fs.String("fen", rules.StartText, "position to search, in the position format")
	variant := fs.String("variant", "bashni", variantUsage)
	level := fs.Int("level", 0, "level: "+levelNames()+" (default: full strength, unless a limit is given)")
	moveTime := fs.Duration("movetime", 0, "time to think, e.g. 500ms")
	depth := fs.Int("depth", 0, "search depth in plies")
	nodes := fs.Uint64("nodes", 0, "positions to search")
	hash := fs.Int("hash", ai.DefaultHashMB, "transposition table size in MB")
	seed := fs.Int64("seed", 0, "seed for the weaker levels' random choices")
	threads := fs.Int("threads", 1, "search threads for a -movetime search (levels, -nodes and noise search on one)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	p, err := rules.ParsePosition(*fen)
	if err != nil {
		return usagef("think: -fen: %v", err)
	}
	v, err := rules.ParseVariant(*variant)
	if err != nil {
		return usagef("think: -variant: %v", err)
	}
	p = p.WithVariant(v)
	switch {
	case *level < 0 || *level > len(ai.Levels):
		return usagef("think: -level %d: want 1 to %d (%s)", *level, len(ai.Levels), levelNames())
	case *moveTime < 0:
		return usagef("think: -movetime %v: want a positive duration", *moveTime)
	case *depth < 0 || *depth > ai.MaxPly-8:
		return usagef("think: -depth %d: want 1 to %d", *depth, ai.MaxPly-8)
	case *hash < 1:
		return usagef("think: -hash %d: want at least 1 MB", *hash)
	case *threads < 1 || *threads > ai.MaxThreads:
		return usagef("think: -threads %d: want 1 to %d", *threads, ai.MaxThreads)
	}
	e := ai.New(ai.Options{HashMB: *hash, Threads: *threads})
	res, err := e.Search(ctx, ai.Request{
		Position: p,
		Level:    *level,
		Limits:   ai.Limits{Depth: *depth, Nodes: *nodes, MoveTime: *moveTime},
		Seed:     *seed,
	})
	if err != nil && res.Move.Len() == 0 {
		return fmt.Errorf("think: %w", err)
	}
	nps := 0.0
	if res.Elapsed > 0 {
		nps = float64(res.Nodes) / res.Elapsed.Seconds()
	}
	fmt.Fprintln(stdout, res.Move)
	fmt.Fprintf(stdout, "depth %d\nscore %s\nnodes %d\nnps %.0f\ntime %v\npv %s\n",
		res.Depth, formatScore(res.Score), res.Nodes, nps, res.Elapsed.Round(time.Millisecond), rules.JoinMoves(res.PV, " "))
	return err
}
