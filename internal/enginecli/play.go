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
//	bashni play [-level N] [-color white|black] [-fen POS] [-variant V] [-threads N]
func Play(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	cfg, err := parsePlayFlags(args, stderr)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel() // lets the stdin reader go once the game is over
	s := &terminalGame{
		cfg:    cfg,
		engine: ai.New(ai.Options{Threads: cfg.threads}),
		game:   rules.NewGame(cfg.start),
		lines:  readLines(ctx, stdin),
		out:    stdout,
	}
	fmt.Fprintf(stdout, "Bashni against level %d (%s). You play %s. Type moves like c3-d4 or c3:e5:c7; \"moves\", \"help\", \"quit\".\n\n",
		cfg.level.Number, cfg.level.Name, cfg.human)
	for {
		p := s.game.Position()
		drawBoard(stdout, &p, cfg.human == rules.Black)
		if s.game.Over() {
			fmt.Fprintf(stdout, "Game over: %s.\n", resultText(s.game))
			if s.game.Ply() > 0 {
				fmt.Fprintf(stdout, "Moves: %s\n", s.game.Record())
			}
			return nil
		}
		if p.SideToMove() != cfg.human {
			if err := s.engineMove(ctx, p); err != nil {
				return err
			}
			continue
		}
		if done, err := s.humanMove(ctx); done || err != nil {
			return err
		}
	}
}

// playConfig is play's command line, checked.
type playConfig struct {
	level   ai.Level
	human   rules.Color
	start   rules.Position
	seed    int64
	threads int
}

func parsePlayFlags(args []string, stderr io.Writer) (playConfig, error) {
	var c playConfig
	fs := newFlags("play", "[-level N] [-color white|black] [-fen POS] [-variant V] [-threads N]", stderr)
	level := fs.Int("level", 3, "the engine's level: "+levelNames())
	color := fs.String("color", "white", "your colour: white or black")
	fen := fs.String("fen", rules.StartText, "start position, in the position format")
	variant := rules.Bashni
	fs.TextVar(&variant, "variant", rules.Bashni, variantUsage)
	fs.Int64Var(&c.seed, "seed", 0, "seed for the engine's random choices (default: varies with the position)")
	fs.IntVar(&c.threads, "threads", 1, "the engine's search threads (the levels are node budgets searched on one)")
	if err := parseFlags(fs, args); err != nil {
		return c, err
	}
	if *level < 1 || *level > len(ai.Levels) {
		return c, usagef("play: -level %d: want 1 to %d (%s)", *level, len(ai.Levels), levelNames())
	}
	c.level = ai.Levels[*level-1]
	if c.threads < 1 || c.threads > ai.MaxThreads {
		return c, usagef("play: -threads %d: want 1 to %d", c.threads, ai.MaxThreads)
	}
	switch strings.ToLower(*color) {
	case "white", "w":
		c.human = rules.White
	case "black", "b":
		c.human = rules.Black
	default:
		return c, usagef("play: -color %q: want white or black", *color)
	}
	var err error
	if c.start, err = rules.ParsePosition(*fen); err != nil {
		return c, usagef("play: -fen: %v", err)
	}
	c.start = c.start.WithVariant(variant)
	return c, nil
}

// terminalGame is one game of bashni play in progress.
type terminalGame struct {
	cfg    playConfig
	engine *ai.Engine
	game   *rules.Game
	lines  <-chan string
	out    io.Writer
}

// engineMove searches and plays the engine's move in p.
func (s *terminalGame) engineMove(ctx context.Context, p rules.Position) error {
	res, err := s.engine.Search(ctx, ai.Request{
		Position: p, History: s.game.History(), QuietPlies: s.game.QuietPlies(),
		Level: s.cfg.level.Number, Seed: s.cfg.seed ^ int64(p.Hash()),
	})
	if err != nil {
		return fmt.Errorf("play: %w", err)
	}
	fmt.Fprintf(s.out, "\n%s (%s) plays %s\n\n", s.cfg.level.Name, p.SideToMove(), res.Move)
	if err := s.game.Play(res.Move); err != nil {
		return fmt.Errorf("play: the engine's move: %w", err)
	}
	return nil
}

// humanMove reads lines until one is a legal move, which it plays; done
// reports that the player left (quit, or the end of input).
func (s *terminalGame) humanMove(ctx context.Context) (done bool, err error) {
	for {
		fmt.Fprintf(s.out, "Your move (%s): ", s.cfg.human)
		var line string
		var ok bool
		select {
		case line, ok = <-s.lines:
		case <-ctx.Done():
		}
		if !ok {
			fmt.Fprintln(s.out, "\nGame abandoned.")
			return true, ctx.Err()
		}
		line = strings.TrimSpace(line)
		switch strings.ToLower(line) {
		case "":
			continue
		case "quit", "exit", "resign":
			fmt.Fprintln(s.out, "Game abandoned.")
			return true, nil
		case "moves":
			fmt.Fprintf(s.out, "Legal moves: %s\n", rules.JoinMoves(s.game.Legal(), ", "))
			continue
		case "help", "?":
			fmt.Fprintln(s.out, "Give a move by its squares: c3-d4 for a step, c3:e5:c7 for a capture (every landing square;\n"+
				"the first and last are enough when only one capture fits). Capturing is compulsory.\n"+
				"The board shows each tower's top piece (w/b man, W/B king) and its height; \"moves\" lists legal moves.")
			continue
		}
		if _, err := s.game.PlayText(line); err != nil {
			fmt.Fprintf(s.out, "Sorry: %s\n", strings.TrimPrefix(err.Error(), "rules: "))
			continue
		}
		fmt.Fprintln(s.out)
		return false, nil
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
