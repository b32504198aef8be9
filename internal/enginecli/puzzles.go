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
	f, err := parsePuzzlesFlags(args, stderr)
	if err != nil {
		return err
	}
	pdnGames, err := f.pdnGames()
	if err != nil {
		return err
	}
	w := stdout
	if f.out != "" {
		file, err := os.Create(f.out)
		if err != nil {
			return fmt.Errorf("puzzles: %w", err)
		}
		defer file.Close()
		w = file
	}
	h := &puzzleHunt{puzzlesFlags: f, w: w, log: stderr, finder: puzzle.NewFinder(f.nodes), start: time.Now()}
	h.finder.MaxLevel = f.maxLevel
	if err := h.run(ctx, newGameSource(f, pdnGames)); err != nil {
		return err
	}
	fmt.Fprintf(stderr, "puzzles: %d puzzles from %d games in %s (judge %d nodes a move, confirmed at %d)\n",
		h.found, h.looked, time.Since(h.start).Round(time.Second), f.nodes, 2*f.nodes)
	if ctx.Err() != nil {
		return fmt.Errorf("puzzles: stopped early: %w", ctx.Err())
	}
	return nil
}

// puzzlesFlags are puzzles' command line, checked.
type puzzlesFlags struct {
	out                string
	nodes              uint64
	games, level       int
	target, random     int
	minLevel, maxLevel int
	seed               int64
	files              []string // PDN files; none: self-play
}

func parsePuzzlesFlags(args []string, stderr io.Writer) (puzzlesFlags, error) {
	var f puzzlesFlags
	fs := newFlags("puzzles", "[-out FILE] [-nodes N] [-games N] [-level L] [-target N] [-seed S] [-min-level L] [-max-level L] [FILE.pdn ...]", stderr)
	fs.StringVar(&f.out, "out", "", "file to write the puzzles to (default: standard output)")
	fs.Uint64Var(&f.nodes, "nodes", 20000, "the judge's budget for each move (uniqueness is confirmed at twice it)")
	fs.IntVar(&f.games, "games", 100, "self-play games to look through (without PDN files)")
	fs.IntVar(&f.level, "level", 13, "the level both sides of a self-play game play at")
	fs.IntVar(&f.target, "target", 0, "stop once this many puzzles are found (0: look through every game)")
	fs.Int64Var(&f.seed, "seed", 1, "seed for the self-play openings and random moves")
	fs.IntVar(&f.random, "random", 4, "random moves after the opening in self-play, so games differ")
	fs.IntVar(&f.maxLevel, "max-level", 16, "the strongest level tried when rating a puzzle")
	fs.IntVar(&f.minLevel, "min-level", 2, "drop puzzles the levels below this one solve (too easy to teach anything)")
	flagArgs, files := splitFileArgs(args)
	if err := parseFlags(fs, flagArgs); err != nil {
		return f, err
	}
	f.files = files
	return f, f.check()
}

// splitFileArgs splits the PDN files off the end of args: parseFlags
// refuses stray arguments, and the files come after the flags.
func splitFileArgs(args []string) (flagArgs, files []string) {
	for i, a := range args {
		if !strings.HasPrefix(a, "-") && (i == 0 || !needsValue(args[i-1])) {
			return args[:i], args[i:]
		}
	}
	return args, nil
}

func (f puzzlesFlags) check() error {
	switch {
	case f.nodes < 100:
		return usagef("puzzles: -nodes %d: want at least 100", f.nodes)
	case f.games < 1:
		return usagef("puzzles: -games %d: want at least 1", f.games)
	case f.level < 1 || f.level > ai.LadderTop:
		return usagef("puzzles: -level %d: want 1 to %d", f.level, ai.LadderTop)
	case f.target < 0 || f.random < 0:
		return usagef("puzzles: -target and -random want 0 or more")
	case f.minLevel < 1 || f.minLevel > f.maxLevel+1:
		return usagef("puzzles: -min-level %d: want 1 to -max-level+1", f.minLevel)
	case f.maxLevel < 1 || f.maxLevel > ai.LadderTop:
		return usagef("puzzles: -max-level %d: want 1 to %d", f.maxLevel, ai.LadderTop)
	}
	return nil
}

// pdnGames reads the games of every PDN file named.
func (f puzzlesFlags) pdnGames() ([]puzzle.Game, error) {
	var games []puzzle.Game
	for _, name := range f.files {
		gs, err := readPDNGames(name)
		if err != nil {
			return nil, usagef("puzzles: %v", err)
		}
		games = append(games, gs...)
	}
	return games, nil
}

// gameSource gives the games to look through: the PDN files' if any were
// named, else games the engine plays against itself.
type gameSource struct {
	total int
	pdn   []puzzle.Game // nil: self-play
	eng   *ai.Engine
	cfg   puzzle.SelfPlay
}

func newGameSource(f puzzlesFlags, pdn []puzzle.Game) *gameSource {
	if f.files != nil {
		return &gameSource{total: len(pdn), pdn: pdn}
	}
	return &gameSource{
		total: f.games,
		eng:   ai.New(ai.Options{HashMB: 4}),
		cfg:   puzzle.SelfPlay{Nodes: ai.Levels[f.level-1].Limits.Nodes, RandomPlies: f.random, Seed: f.seed},
	}
}

// game is game n (from 0).
func (s *gameSource) game(ctx context.Context, n int) (puzzle.Game, error) {
	if s.pdn != nil {
		return s.pdn[n], nil
	}
	return puzzle.PlayGame(ctx, s.eng, s.cfg, n)
}

// puzzleHunt looks through games for puzzles and writes those hard
// enough, up to the target, saying how far it got every ten games.
type puzzleHunt struct {
	puzzlesFlags
	w, log        io.Writer
	finder        *puzzle.Finder
	start         time.Time
	found, looked int
}

// run looks through the games until they, the target or ctx run out. A
// game cut short by ctx ends the run without an error.
func (h *puzzleHunt) run(ctx context.Context, games *gameSource) error {
	for n := 0; n < games.total && ctx.Err() == nil && !h.enough(); n++ {
		g, err := games.game(ctx, n)
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return fmt.Errorf("puzzles: %w", err)
		}
		ps, err := h.finder.Find(ctx, g)
		if err != nil && ctx.Err() == nil {
			return fmt.Errorf("puzzles: game %d: %w", n+1, err)
		}
		h.looked++
		if err := h.write(ps); err != nil {
			return err
		}
		if h.looked%10 == 0 {
			fmt.Fprintf(h.log, "puzzles: %d games, %d puzzles, %s\n", h.looked, h.found, time.Since(h.start).Round(time.Second))
		}
	}
	return nil
}

// write writes the puzzles the levels below -min-level do not solve, up
// to the target.
func (h *puzzleHunt) write(ps []puzzle.Puzzle) error {
	for _, p := range ps {
		if h.enough() {
			return nil
		}
		if p.Rating < puzzle.LevelRating(h.minLevel) {
			continue
		}
		if _, err := fmt.Fprintln(h.w, p.String()); err != nil {
			return fmt.Errorf("puzzles: %w", err)
		}
		h.found++
	}
	return nil
}

// enough reports whether the target is reached (never without one).
func (h *puzzleHunt) enough() bool { return h.target > 0 && h.found >= h.target }

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
