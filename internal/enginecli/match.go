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
// from balanced openings, under -variant's rules. It prints a line per game and then a table of
// A's wins, draws, losses, score and Elo difference with its 95% interval.
//
//	bashni match -a SPEC -b SPEC [-games N] [-movetime D | -nodes N] [-openings FILE] [-variant V] [-concurrency K] [-threads N]
//
// A SPEC is comma-separated key=value pairs: level=N, depth=N, nodes=N,
// movetime=D, scale=F (multiplies a level's node and time budgets), hash=MB,
// threads=N, exe=PATH (another build of bashni, asked through its think
// command, see package ai/match); e.g. "level=6", "depth=5", "nodes=20000",
// "level=5,scale=0.1", "exe=/tmp/bashni-old,movetime=1s". -movetime and
// -nodes give every player that limit unless its spec sets its own; -scale
// does the same for scale (our own engines only).
func Match(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	f, err := parseMatchFlags(args, stderr)
	if err != nil {
		return err
	}
	var players [2]match.Player
	for i, spec := range []string{f.specA, f.specB} {
		if players[i], err = f.player(spec); err != nil {
			return err
		}
	}
	openings, err := loadOpenings(f.openingsFile)
	if err != nil {
		return err
	}
	// The shipped openings are Bashni's (reached by its captures, towers
	// and all): another variant starts from its own (ai.OpeningsFor), or
	// from -openings played under its rules.
	if openings == nil {
		openings = ai.OpeningsFor(f.variant)
	}
	for i := range openings {
		openings[i] = openings[i].WithVariant(f.variant)
	}
	cfg := match.Config{
		A: players[0], B: players[1], Games: f.games, Openings: openings,
		Concurrency: f.concurrency, MaxPlies: f.maxPlies, Seed: f.seed,
	}
	if !f.quiet {
		cfg.Progress = func(p match.Progress) { printProgress(stdout, p) }
	}
	res, err := match.Run(ctx, cfg)
	printTable(stdout, players, res)
	if err != nil {
		return fmt.Errorf("match: %w", err)
	}
	return nil
}

// matchFlags are match's command line, checked.
type matchFlags struct {
	specA, specB string
	games        int
	moveTime     time.Duration
	nodes        uint64
	scale        float64
	openingsFile string
	variant      rules.Variant
	concurrency  int
	threads      int
	maxPlies     int
	seed         int64
	quiet        bool
}

func parseMatchFlags(args []string, stderr io.Writer) (matchFlags, error) {
	var f matchFlags
	fs := newFlags("match", "-a SPEC -b SPEC [-games N] [-movetime D | -nodes N] [-openings FILE] [-variant V] [-concurrency K] [-threads N]", stderr)
	fs.StringVar(&f.specA, "a", "", "player A, e.g. level=6, depth=5 or nodes=20000")
	fs.StringVar(&f.specB, "b", "", "player B")
	fs.IntVar(&f.games, "games", 100, "games to play (rounded up to pairs)")
	fs.DurationVar(&f.moveTime, "movetime", 0, "time per move for players whose spec sets none")
	fs.Uint64Var(&f.nodes, "nodes", 0, "nodes per move for players whose spec sets none")
	fs.Float64Var(&f.scale, "scale", 0, "scale the levels' node and time budgets (e.g. 0.1)")
	fs.StringVar(&f.openingsFile, "openings", "", "file of opening positions, one per line (default: the shipped balanced set)")
	fs.TextVar(&f.variant, "variant", rules.Bashni, variantUsage+"; the openings are played under it (by default, for a variant other than bashni, positions 2 to 4 plies from its start)")
	fs.IntVar(&f.concurrency, "concurrency", 1, "games played at once")
	fs.IntVar(&f.threads, "threads", 1, "search threads of each player whose spec sets none")
	fs.IntVar(&f.maxPlies, "maxplies", match.DefaultMaxPlies, "adjudicate a draw after this many plies")
	fs.Int64Var(&f.seed, "seed", 1, "seed for the weaker levels' random choices")
	fs.BoolVar(&f.quiet, "quiet", false, "print only the final table")
	if err := parseFlags(fs, args); err != nil {
		return f, err
	}
	if f.specA == "" || f.specB == "" {
		fs.Usage()
		return f, usagef("match: both -a and -b are required")
	}
	switch {
	case f.games < 1:
		return f, usagef("match: -games %d: want at least 1", f.games)
	case f.concurrency < 1:
		return f, usagef("match: -concurrency %d: want at least 1", f.concurrency)
	case f.moveTime < 0:
		return f, usagef("match: -movetime %v: want a positive duration", f.moveTime)
	case f.scale < 0:
		return f, usagef("match: -scale %v: want a positive factor", f.scale)
	case f.maxPlies < 1:
		return f, usagef("match: -maxplies %d: want at least 1", f.maxPlies)
	case f.threads < 1 || f.threads > ai.MaxThreads:
		return f, usagef("match: -threads %d: want 1 to %d", f.threads, ai.MaxThreads)
	}
	return f, nil
}

// player reads one side's spec and fills in what the command line gives
// every player whose spec sets none.
func (f matchFlags) player(spec string) (match.Player, error) {
	p, err := match.ParseSpec(spec)
	if err != nil {
		return p, usagef("match: %v", err)
	}
	if p.Limits.MoveTime == 0 {
		p.Limits.MoveTime = f.moveTime
	}
	if p.Limits.Nodes == 0 {
		p.Limits.Nodes = f.nodes
	}
	if p.Options.Threads == 0 {
		p.Options.Threads = f.threads
	}
	if p.Exe != "" {
		// An external build plays at its own default strength when no
		// limit is given, so -scale (which needs our levels) is not
		// passed on to it.
		exe, err := exec.LookPath(p.Exe)
		if err != nil {
			return p, usagef("match: %q: %v", spec, err)
		}
		p.Exe = exe
	} else {
		if p.Scale == 0 {
			p.Scale = f.scale
		}
		if p.Level == 0 && p.Limits == (ai.Limits{}) {
			return p, usagef("match: %q has no limit", spec)
		}
	}
	if p.WeightsFile != "" {
		if p.Exe != "" {
			return p, usagef("match: %q: weights do not apply to another build", spec)
		}
		w, err := LoadWeights(p.WeightsFile)
		if err != nil {
			return p, usagef("match: %q: %v", spec, err)
		}
		p.Options.Weights = &w
	}
	return p, nil
}

// loadOpenings reads -openings; no file means the shipped set (nil).
func loadOpenings(path string) ([]rules.Position, error) {
	if path == "" {
		return nil, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, usagef("match: -openings: %v", err)
	}
	defer f.Close()
	openings, err := ai.ParseOpenings(f)
	if err != nil {
		return nil, usagef("match: -openings %s: %v", path, err)
	}
	if len(openings) == 0 {
		return nil, usagef("match: -openings %s: no positions", path)
	}
	return openings, nil
}

// printProgress writes the line of one finished game.
func printProgress(w io.Writer, p match.Progress) {
	g := p.Game
	white, black := "A", "B"
	if !g.AWhite {
		white, black = "B", "A"
	}
	result := map[float64]string{1: "A wins", 0.5: "draw", 0: "B wins"}[g.Score]
	fmt.Fprintf(w, "game %d/%d  opening %d  %s white, %s black  %s by %s after %d plies   A %s\n",
		p.Done, p.Total, g.Opening+1, white, black, result, g.Reason, len(g.Moves), p.Score)
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
