package enginecli

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"text/tabwriter"
	"time"

	"github.com/bashni/bashni/ai"
	"github.com/bashni/bashni/ai/match"
	"github.com/bashni/bashni/rules"
)

// Match is `bashni match`: engine against engine in colour-swapped pairs
// from balanced openings. It prints a line per game and then a table of
// A's wins, draws, losses, score and Elo difference with its 95% interval.
//
//	bashni match -a SPEC -b SPEC [-games N] [-movetime D | -nodes N] [-openings FILE] [-concurrency K] [-threads N]
//
// A SPEC is comma-separated key=value pairs: level=N, depth=N, nodes=N,
// movetime=D, scale=F (multiplies a level's node and time budgets), hash=MB,
// threads=N, exe=PATH (another build of bashni, asked through its think
// command, see package ai/match); e.g. "level=6", "depth=5", "nodes=20000",
// "level=5,scale=0.1", "exe=/tmp/bashni-old,movetime=1s". -movetime and
// -nodes give every player that limit unless its spec sets its own; -scale
// does the same for scale (our own engines only).
func Match(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("match", "-a SPEC -b SPEC [-games N] [-movetime D | -nodes N] [-openings FILE] [-concurrency K] [-threads N]", stderr)
	specA := fs.String("a", "", "player A, e.g. level=6, depth=5 or nodes=20000")
	specB := fs.String("b", "", "player B")
	games := fs.Int("games", 100, "games to play (rounded up to pairs)")
	moveTime := fs.Duration("movetime", 0, "time per move for players whose spec sets none")
	nodes := fs.Uint64("nodes", 0, "nodes per move for players whose spec sets none")
	scale := fs.Float64("scale", 0, "scale the levels' node and time budgets (e.g. 0.1)")
	openingsFile := fs.String("openings", "", "file of opening positions, one per line (default: the shipped balanced set)")
	concurrency := fs.Int("concurrency", 1, "games played at once")
	threads := fs.Int("threads", 1, "search threads of each player whose spec sets none")
	maxPlies := fs.Int("maxplies", match.DefaultMaxPlies, "adjudicate a draw after this many plies")
	seed := fs.Int64("seed", 1, "seed for the weaker levels' random choices")
	quiet := fs.Bool("quiet", false, "print only the final table")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *specA == "" || *specB == "" {
		fs.Usage()
		return usagef("match: both -a and -b are required")
	}
	switch {
	case *games < 1:
		return usagef("match: -games %d: want at least 1", *games)
	case *concurrency < 1:
		return usagef("match: -concurrency %d: want at least 1", *concurrency)
	case *moveTime < 0:
		return usagef("match: -movetime %v: want a positive duration", *moveTime)
	case *scale < 0:
		return usagef("match: -scale %v: want a positive factor", *scale)
	case *maxPlies < 1:
		return usagef("match: -maxplies %d: want at least 1", *maxPlies)
	case *threads < 1 || *threads > ai.MaxThreads:
		return usagef("match: -threads %d: want 1 to %d", *threads, ai.MaxThreads)
	}
	var players [2]match.Player
	for i, spec := range []string{*specA, *specB} {
		p, err := match.ParseSpec(spec)
		if err != nil {
			return usagef("match: %v", err)
		}
		if p.Limits.MoveTime == 0 {
			p.Limits.MoveTime = *moveTime
		}
		if p.Limits.Nodes == 0 {
			p.Limits.Nodes = *nodes
		}
		if p.Options.Threads == 0 {
			p.Options.Threads = *threads
		}
		if p.Scale == 0 && p.Exe == "" {
			p.Scale = *scale
		}
		if p.Exe != "" {
			// An external build plays at its own default strength when no
			// limit is given, so -scale (which needs our levels) is not
			// passed on to it.
			if p.Scale != 0 {
				return usagef("match: %q: -scale does not apply to another build: give movetime or nodes", spec)
			}
			exe, err := exec.LookPath(p.Exe)
			if err != nil {
				return usagef("match: %q: %v", spec, err)
			}
			p.Exe = exe
		} else if p.Level == 0 && p.Limits == (ai.Limits{}) {
			return usagef("match: %q has no limit", spec)
		}
		if p.WeightsFile != "" {
			if p.Exe != "" {
				return usagef("match: %q: weights do not apply to another build", spec)
			}
			w, err := LoadWeights(p.WeightsFile)
			if err != nil {
				return usagef("match: %q: %v", spec, err)
			}
			p.Options.Weights = &w
		}
		players[i] = p
	}
	var openings []rules.Position
	if *openingsFile != "" {
		f, err := os.Open(*openingsFile)
		if err != nil {
			return usagef("match: -openings: %v", err)
		}
		openings, err = ai.ParseOpenings(f)
		f.Close()
		if err != nil {
			return usagef("match: -openings %s: %v", *openingsFile, err)
		}
		if len(openings) == 0 {
			return usagef("match: -openings %s: no positions", *openingsFile)
		}
	}

	cfg := match.Config{
		A: players[0], B: players[1], Games: *games, Openings: openings,
		Concurrency: *concurrency, MaxPlies: *maxPlies, Seed: *seed,
	}
	if !*quiet {
		cfg.Progress = func(p match.Progress) {
			g := p.Game
			white, black := "A", "B"
			if !g.AWhite {
				white, black = "B", "A"
			}
			result := map[float64]string{1: "A wins", 0.5: "draw", 0: "B wins"}[g.Score]
			fmt.Fprintf(stdout, "game %d/%d  opening %d  %s white, %s black  %s by %s after %d plies   A %s\n",
				p.Done, p.Total, g.Opening+1, white, black, result, g.Reason, len(g.Moves), p.Score)
		}
	}
	res, err := match.Run(ctx, cfg)
	printTable(stdout, players, res)
	if err != nil {
		return fmt.Errorf("match: %w", err)
	}
	return nil
}

// printTable writes the final result table.
func printTable(w io.Writer, players [2]match.Player, res match.Result) {
	s := res.Score
	var nodes [2]uint64
	var think [2]time.Duration
	plies := 0
	for _, g := range res.Games {
		for i := range 2 {
			nodes[i] += g.Nodes[i]
			think[i] += g.Time[i]
		}
		plies += len(g.Moves)
	}
	fmt.Fprintf(w, "\nA = %s, B = %s: %d games in %v\n", players[0].Name, players[1].Name, s.Games(), res.Elapsed.Round(time.Second))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "player\twins\tdraws\tlosses\tscore\tElo diff (95%)\tnodes/move\t")
	moves := max(plies/2, 1)
	fmt.Fprintf(tw, "A %s\t%d\t%d\t%d\t%.1f%%\t%s\t%d\t\n", players[0].Name, s.Wins, s.Draws, s.Losses,
		100*s.Fraction(), s.EloText(), nodes[0]/uint64(moves))
	fmt.Fprintf(tw, "B %s\t%d\t%d\t%d\t%.1f%%\t%s\t%d\t\n", players[1].Name, s.Losses, s.Draws, s.Wins,
		100*s.Reversed().Fraction(), s.Reversed().EloText(), nodes[1]/uint64(moves))
	tw.Flush()
}
