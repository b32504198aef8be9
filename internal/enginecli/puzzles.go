package enginecli

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/bashni/bashni/ai"
	"github.com/bashni/bashni/puzzle"
	"github.com/bashni/bashni/rules"
)

// Puzzles runs `bashni puzzles`: finds puzzles in PDN files given as
// arguments, or else in self-play games, and writes them one a line in the
// set's format as they are found, so a long run stopped early keeps what
// it found.
func Puzzles(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("puzzles", "[-out FILE] [-nodes N] [-games N] [-level L] [-target N] [-seed S] [-min-level L] [-max-level L] [FILE.pdn ...]", stderr)
	out := fs.String("out", "", "file to write the puzzles to (default: standard output)")
	nodes := fs.Uint64("nodes", 20000, "the judge's budget for each move (uniqueness is confirmed at twice it)")
	games := fs.Int("games", 100, "self-play games to look through (without PDN files)")
	level := fs.Int("level", 13, "the level both sides of a self-play game play at")
	target := fs.Int("target", 0, "stop once this many puzzles are found (0: look through every game)")
	seed := fs.Int64("seed", 1, "seed for the self-play openings and random moves")
	random := fs.Int("random", 4, "random moves after the opening in self-play, so games differ")
	maxLevel := fs.Int("max-level", 16, "the strongest level tried when rating a puzzle")
	minLevel := fs.Int("min-level", 2, "drop puzzles the levels below this one solve (too easy to teach anything)")
	var files []string
	// PDN files come after the flags; parseFlags refuses stray arguments,
	// so split them off here.
	flagArgs := args
	for i, a := range args {
		if !strings.HasPrefix(a, "-") && (i == 0 || !needsValue(args[i-1])) {
			flagArgs, files = args[:i], args[i:]
			break
		}
	}
	if err := parseFlags(fs, flagArgs); err != nil {
		return err
	}
	switch {
	case *nodes < 100:
		return usagef("puzzles: -nodes %d: want at least 100", *nodes)
	case *games < 1:
		return usagef("puzzles: -games %d: want at least 1", *games)
	case *level < 1 || *level > len(ai.Levels):
		return usagef("puzzles: -level %d: want 1 to %d", *level, len(ai.Levels))
	case *target < 0 || *random < 0:
		return usagef("puzzles: -target and -random want 0 or more")
	case *minLevel < 1 || *minLevel > *maxLevel+1:
		return usagef("puzzles: -min-level %d: want 1 to -max-level+1", *minLevel)
	case *maxLevel < 1 || *maxLevel > len(ai.Levels):
		return usagef("puzzles: -max-level %d: want 1 to %d", *maxLevel, len(ai.Levels))
	}
	var pdnGames []puzzle.Game
	for _, name := range files {
		gs, err := readPDNGames(name)
		if err != nil {
			return usagef("puzzles: %v", err)
		}
		pdnGames = append(pdnGames, gs...)
	}
	w := stdout
	if *out != "" {
		f, err := os.Create(*out)
		if err != nil {
			return fmt.Errorf("puzzles: %w", err)
		}
		defer f.Close()
		w = f
	}

	finder := puzzle.NewFinder(*nodes)
	finder.MaxLevel = *maxLevel
	start := time.Now()
	found, looked := 0, 0
	total := *games
	if files != nil {
		total = len(pdnGames)
	}
	eng := ai.New(ai.Options{HashMB: 4})
	cfg := puzzle.SelfPlay{Nodes: ai.Levels[*level-1].Limits.Nodes, RandomPlies: *random, Seed: *seed}
	for n := 0; n < total && ctx.Err() == nil; n++ {
		var g puzzle.Game
		if files != nil {
			g = pdnGames[n]
		} else {
			var err error
			if g, err = puzzle.PlayGame(ctx, eng, cfg, n); err != nil {
				if ctx.Err() != nil {
					break
				}
				return fmt.Errorf("puzzles: %w", err)
			}
		}
		ps, err := finder.Find(ctx, g)
		if err != nil && ctx.Err() == nil {
			return fmt.Errorf("puzzles: game %d: %w", n+1, err)
		}
		looked++
		for _, p := range ps {
			if *target > 0 && found >= *target {
				break
			}
			if p.Rating < puzzle.LevelRating(*minLevel) {
				continue
			}
			if _, err := fmt.Fprintln(w, p.String()); err != nil {
				return fmt.Errorf("puzzles: %w", err)
			}
			found++
		}
		if looked%10 == 0 {
			fmt.Fprintf(stderr, "puzzles: %d games, %d puzzles, %s\n", looked, found, time.Since(start).Round(time.Second))
		}
		if *target > 0 && found >= *target {
			break
		}
	}
	fmt.Fprintf(stderr, "puzzles: %d puzzles from %d games in %s (judge %d nodes a move, confirmed at %d)\n",
		found, looked, time.Since(start).Round(time.Second), *nodes, 2**nodes)
	if ctx.Err() != nil {
		return fmt.Errorf("puzzles: stopped early: %w", ctx.Err())
	}
	return nil
}

// needsValue reports whether a flag argument takes the next argument as its
// value (every flag of puzzles does, unless written -flag=value).
func needsValue(arg string) bool {
	return strings.HasPrefix(arg, "-") && !strings.Contains(arg, "=")
}

// readPDNGames reads a file of one or more PDN games, each starting with
// its tag pairs.
func readPDNGames(name string) ([]puzzle.Game, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	var out []puzzle.Game
	for i, text := range splitPDN(string(data)) {
		pdn, err := rules.ParsePDN(text)
		if err != nil {
			return nil, fmt.Errorf("%s: game %d: %w", name, i+1, err)
		}
		if start := pdn.Game.StartPosition(); start.Variant() != rules.Bashni {
			continue // the set is Bashni's; another ruleset's tactics differ
		}
		out = append(out, puzzle.Game{Start: pdn.Game.StartPosition(), Moves: pdn.Game.Moves()})
	}
	return out, nil
}

// splitPDN cuts a file into games: a tag line after a move line starts the
// next game.
func splitPDN(text string) []string {
	var games []string
	var cur strings.Builder
	inMoves := false
	for _, line := range strings.Split(text, "\n") {
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, "[") && inMoves {
			games = append(games, cur.String())
			cur.Reset()
			inMoves = false
		}
		if t != "" && !strings.HasPrefix(t, "[") {
			inMoves = true
		}
		cur.WriteString(line)
		cur.WriteByte('\n')
	}
	if strings.TrimSpace(cur.String()) != "" {
		games = append(games, cur.String())
	}
	return games
}
