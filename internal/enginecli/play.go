package enginecli

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/bashni/bashni/ai"
	"github.com/bashni/bashni/rules"
)

// Play is `bashni play`: a game against the engine in the terminal. The
// board is drawn after every move with tower contents visible; moves are
// typed in notation. "moves" lists the legal moves, "help" explains, and
// "quit" or the end of input ends the game.
//
//	bashni play [-level N] [-color white|black] [-fen POS] [-threads N]
func Play(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := newFlags("play", "[-level N] [-color white|black] [-fen POS] [-threads N]", stderr)
	level := fs.Int("level", 3, "the engine's level: "+levelNames())
	color := fs.String("color", "white", "your colour: white or black")
	fen := fs.String("fen", rules.StartText, "start position, in the position format")
	seed := fs.Int64("seed", 0, "seed for the engine's random choices (default: varies with the position)")
	threads := fs.Int("threads", 1, "the engine's search threads (the levels are node budgets searched on one)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *level < 1 || *level > len(ai.Levels) {
		return usagef("play: -level %d: want 1 to %d (%s)", *level, len(ai.Levels), levelNames())
	}
	if *threads < 1 || *threads > ai.MaxThreads {
		return usagef("play: -threads %d: want 1 to %d", *threads, ai.MaxThreads)
	}
	var human rules.Color
	switch strings.ToLower(*color) {
	case "white", "w":
		human = rules.White
	case "black", "b":
		human = rules.Black
	default:
		return usagef("play: -color %q: want white or black", *color)
	}
	start, err := rules.ParsePosition(*fen)
	if err != nil {
		return usagef("play: -fen: %v", err)
	}

	ctx, cancel := context.WithCancel(ctx)
	defer cancel() // lets the stdin reader go once the game is over
	lv := ai.Levels[*level-1]
	engine := ai.New(ai.Options{Threads: *threads})
	g := rules.NewGame(start)
	lines := readLines(ctx, stdin)
	fmt.Fprintf(stdout, "Bashni against level %d (%s). You play %s. Type moves like c3-d4 or c3:e5:c7; \"moves\", \"help\", \"quit\".\n\n",
		lv.Number, lv.Name, human)
	for {
		p := g.Position()
		drawBoard(stdout, &p, human == rules.Black)
		if g.Over() {
			fmt.Fprintf(stdout, "Game over: %s.\n", resultText(g))
			if g.Ply() > 0 {
				fmt.Fprintf(stdout, "Moves: %s\n", g.Record())
			}
			return nil
		}
		if p.SideToMove() != human {
			res, err := engine.Search(ctx, ai.Request{
				Position: p, History: g.History(), QuietPlies: g.QuietPlies(),
				Level: lv.Number, Seed: *seed ^ int64(p.Hash()),
			})
			if err != nil {
				return fmt.Errorf("play: %w", err)
			}
			fmt.Fprintf(stdout, "\n%s (%s) plays %s\n\n", lv.Name, p.SideToMove(), res.Move)
			if err := g.Play(res.Move); err != nil {
				return fmt.Errorf("play: the engine's move: %w", err)
			}
			continue
		}
		for {
			fmt.Fprintf(stdout, "Your move (%s): ", human)
			var line string
			var ok bool
			select {
			case line, ok = <-lines:
			case <-ctx.Done():
			}
			if !ok {
				fmt.Fprintln(stdout, "\nGame abandoned.")
				return ctx.Err()
			}
			line = strings.TrimSpace(line)
			switch strings.ToLower(line) {
			case "":
				continue
			case "quit", "exit", "resign":
				fmt.Fprintln(stdout, "Game abandoned.")
				return nil
			case "moves":
				fmt.Fprintf(stdout, "Legal moves: %s\n", rules.JoinMoves(g.Legal(), ", "))
				continue
			case "help", "?":
				fmt.Fprintln(stdout, "Give a move by its squares: c3-d4 for a step, c3:e5:c7 for a capture (every landing square;\n"+
					"the first and last are enough when only one capture fits). Capturing is compulsory.\n"+
					"The board shows each tower's top piece (w/b man, W/B king) and its height; \"moves\" lists legal moves.")
				continue
			}
			if _, err := g.PlayText(line); err != nil {
				fmt.Fprintf(stdout, "Sorry: %s\n", strings.TrimPrefix(err.Error(), "rules: "))
				continue
			}
			fmt.Fprintln(stdout)
			break
		}
	}
}

// resultText says who won and why: "white wins: black has no legal move".
func resultText(g *rules.Game) string {
	result, reason := g.Result()
	winner, won := result.Winner()
	switch {
	case won && reason == rules.NoLegalMoves:
		return fmt.Sprintf("%s wins: %s has no legal move", winner, winner.Opponent())
	case won:
		return fmt.Sprintf("%s wins (%s)", winner, reason)
	}
	return fmt.Sprintf("draw (%s)", reason)
}

// readLines delivers stdin's lines until it ends or ctx does.
func readLines(ctx context.Context, r io.Reader) <-chan string {
	out := make(chan string)
	go func() {
		defer close(out)
		sc := bufio.NewScanner(r)
		for sc.Scan() {
			select {
			case out <- sc.Text():
			case <-ctx.Done():
				return
			}
		}
	}()
	return out
}
