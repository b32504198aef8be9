package aicli

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
//	bashni play [-level N] [-color white|black] [-fen POS]
func Play(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := newFlags("play", "[-level N] [-color white|black] [-fen POS]", stderr)
	level := fs.Int("level", 3, "the engine's level: "+levelNames())
	color := fs.String("color", "white", "your colour: white or black")
	fen := fs.String("fen", rules.StartText, "start position, in the position format")
	seed := fs.Int64("seed", 0, "seed for the engine's random choices (default: varies with the position)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *level < 1 || *level > len(ai.Levels) {
		return usagef("play: -level %d: want 1 to %d (%s)", *level, len(ai.Levels), levelNames())
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
	engine := ai.New(ai.Options{})
	g := newGame(start)
	lines := readLines(ctx, stdin)
	fmt.Fprintf(stdout, "Bashni against level %d (%s). You play %s. Type moves like c3-d4 or c3:e5:c7; \"moves\", \"help\", \"quit\".\n\n",
		lv.Number, lv.Name, human)
	for {
		p := g.pos
		drawBoard(stdout, &p, human == rules.Black)
		if over, text := g.result(); over {
			fmt.Fprintf(stdout, "Game over: %s.\n", text)
			if rec := g.record(); rec != "" {
				fmt.Fprintf(stdout, "Moves: %s\n", rec)
			}
			return nil
		}
		if p.SideToMove() != human {
			res, err := engine.Search(ctx, ai.Request{
				Position: p, History: g.history, QuietPlies: g.quiet,
				Level: lv.Number, Seed: *seed ^ int64(p.Hash()),
			})
			if err != nil {
				return fmt.Errorf("play: %w", err)
			}
			fmt.Fprintf(stdout, "\n%s (%s) plays %s\n\n", lv.Name, p.SideToMove(), res.Move)
			g.play(res.Move)
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
				fmt.Fprintf(stdout, "Legal moves: %s\n", rules.JoinMoves(p.Legal(), ", "))
				continue
			case "help", "?":
				fmt.Fprintln(stdout, "Give a move by its squares: c3-d4 for a step, c3:e5:c7 for a capture (every landing square;\n"+
					"the first and last are enough when only one capture fits). Capturing is compulsory.\n"+
					"The board shows each tower's top piece (w/b man, W/B king) and its height; \"moves\" lists legal moves.")
				continue
			}
			m, err := parseMove(&p, line)
			if err != nil {
				fmt.Fprintf(stdout, "Sorry: %v\n", err)
				continue
			}
			fmt.Fprintln(stdout)
			g.play(m)
			break
		}
	}
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

// game is a game in progress with what the draw rules need.
type game struct {
	pos     rules.Position
	history []uint64 // earlier positions' hashes
	quiet   int      // plies without capture or crowning
	moves   []rules.Move
	start   rules.Position
}

func newGame(p rules.Position) *game { return &game{pos: p, start: p} }

func (g *game) play(m rules.Move) {
	if m.IsCapture() || g.pos.Crowns(m) {
		g.quiet = 0
	} else {
		g.quiet++
	}
	g.history = append(g.history, g.pos.Hash())
	g.moves = append(g.moves, m)
	g.pos = g.pos.Play(m)
}

// result applies RULES.md, End of game.
func (g *game) result() (bool, string) {
	side := g.pos.SideToMove()
	if len(g.pos.Legal()) == 0 {
		return true, fmt.Sprintf("%s wins (%s has no legal move)", side.Opponent(), side)
	}
	if g.quiet >= 30 {
		return true, "draw by the 15-move rule"
	}
	seen := 1
	for _, h := range g.history {
		if h == g.pos.Hash() {
			seen++
		}
	}
	if seen >= 3 {
		return true, "draw by threefold repetition"
	}
	return false, ""
}

// record is the game in numbered notation.
func (g *game) record() string {
	var b strings.Builder
	side := g.start.SideToMove()
	num := 1
	for i, m := range g.moves {
		if i > 0 {
			b.WriteByte(' ')
		}
		if side == rules.White {
			fmt.Fprintf(&b, "%d. ", num)
		} else if i == 0 {
			fmt.Fprintf(&b, "%d... ", num)
		}
		b.WriteString(m.String())
		if side == rules.Black {
			num++
		}
		side = side.Opponent()
	}
	return b.String()
}
