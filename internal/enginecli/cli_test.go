package enginecli

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"strconv"
	"strings"
	"testing"

	"github.com/bashni/bashni/ai"
	"github.com/bashni/bashni/rules"
)

func TestThinkPrintsTheMoveFirst(t *testing.T) {
	var out, errOut bytes.Buffer
	err := Think(context.Background(), []string{"-fen", rules.StartText, "-depth", "4"}, &out, &errOut)
	if err != nil {
		t.Fatalf("Think: %v (stderr %q)", err, errOut.String())
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	p := rules.Start(rules.Bashni)
	m, err := rules.ParseMove(&p, lines[0])
	if err != nil || m.String() != lines[0] {
		t.Errorf("first line %q is not a legal move in notation: %v", lines[0], err)
	}
	for i, key := range []string{"depth 4", "score ", "nodes ", "nps ", "time ", "pv " + lines[0]} {
		if i+1 >= len(lines) || !strings.HasPrefix(lines[i+1], key) {
			t.Errorf("line %d = %q, want it to start with %q; output:\n%s", i+2, lines[min(i+1, len(lines)-1)], key, out.String())
		}
	}
}

// TestThinkWithThreadsAnswersLegally: with helper threads and a move time,
// think returns and its first line is a legal move (how long it took is a
// benchmark's business, not a test's).
func TestThinkWithThreadsAnswersLegally(t *testing.T) {
	for _, fen := range []string{rules.StartText, "w:c1w,e1w,b2w,d2w,f2wb,a3w,c3w,b4w,d4w,f4b,h4b,e5bbww,b6b,f6bw,h6b,c7b,e7bb,g7b"} {
		var out bytes.Buffer
		if err := Think(context.Background(), []string{"-fen", fen, "-threads", "2", "-movetime", "50ms"}, &out, &out); err != nil {
			t.Fatalf("think: %v\n%s", err, out.String())
		}
		first, _, _ := strings.Cut(out.String(), "\n")
		p := rules.MustParsePosition(fen)
		if m, err := rules.ParseMove(&p, first); err != nil || m.String() != first {
			t.Errorf("%s: first line %q is not a legal move: %v", fen, first, err)
		}
	}
}

func TestThinkAtALevel(t *testing.T) {
	var out bytes.Buffer
	if err := Think(context.Background(), []string{"-level", "1"}, &out, &out); err != nil {
		t.Fatal(err)
	}
	var nodes uint64
	for _, line := range strings.Split(out.String(), "\n") {
		if n, ok := strings.CutPrefix(line, "nodes "); ok {
			nodes, _ = strconv.ParseUint(n, 10, 64)
		}
	}
	if limit := ai.Levels[0].Limits.Nodes; nodes == 0 || nodes > limit {
		t.Errorf("level 1 searched %d nodes, want 1 to its %d; output:\n%s", nodes, limit, out.String())
	}
}

func TestCommandsRefuseBadUsage(t *testing.T) {
	tests := []struct {
		name string
		run  func(args []string, out *bytes.Buffer) error
		args []string
	}{
		{"think bad position", think, []string{"-fen", "w:z9w"}},
		{"think bad level", think, []string{"-level", "99"}},
		{"think unknown flag", think, []string{"-speed", "3"}},
		{"think stray argument", think, []string{"c3-d4"}},
		{"think negative depth", think, []string{"-depth", "-2"}},
		{"think no threads", think, []string{"-threads", "0"}},
		{"match too many threads", matchCmd, []string{"-a", "depth=1", "-b", "depth=1", "-threads", "1000"}},
		{"match scaled external build", matchCmd, []string{"-a", "depth=1", "-b", "exe=/bin/true,scale=0.5"}},
		{"play no threads", playCmd, []string{"-threads", "0"}},
		{"match without b", matchCmd, []string{"-a", "depth=1"}},
		{"match bad spec", matchCmd, []string{"-a", "level=99", "-b", "depth=1"}},
		{"match unknown spec key", matchCmd, []string{"-a", "speed=9", "-b", "depth=1"}},
		{"match missing openings file", matchCmd, []string{"-a", "depth=1", "-b", "depth=1", "-openings", "/nonexistent/openings.txt"}},
		{"match zero games", matchCmd, []string{"-a", "depth=1", "-b", "depth=1", "-games", "0"}},
		{"play bad colour", playCmd, []string{"-color", "green"}},
		{"play bad level", playCmd, []string{"-level", "0"}},
		{"play bad position", playCmd, []string{"-fen", "x"}},
		{"think unknown variant", think, []string{"-variant", "chess"}},
		{"play unknown variant", playCmd, []string{"-variant", "chess"}},
		{"match unknown variant", matchCmd, []string{"-a", "depth=1", "-b", "depth=1", "-variant", "chess"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out bytes.Buffer
			err := tt.run(tt.args, &out)
			if !errors.Is(err, ErrUsage) {
				t.Errorf("err = %v, want ErrUsage", err)
			}
		})
	}
}

func TestHelpIsAUsageErrorAndErrHelp(t *testing.T) {
	var out bytes.Buffer
	err := Think(context.Background(), []string{"-h"}, &out, &out)
	if !errors.Is(err, ErrUsage) || !errors.Is(err, flag.ErrHelp) {
		t.Errorf("err = %v, want ErrUsage and flag.ErrHelp", err)
	}
	if !strings.Contains(out.String(), "-movetime") {
		t.Errorf("help does not list the flags:\n%s", out.String())
	}
}

func think(args []string, out *bytes.Buffer) error {
	return Think(context.Background(), args, out, out)
}

func matchCmd(args []string, out *bytes.Buffer) error {
	return Match(context.Background(), args, out, out)
}

func playCmd(args []string, out *bytes.Buffer) error {
	return Play(context.Background(), args, strings.NewReader(""), out, out)
}

func TestMatchPrintsProgressAndTable(t *testing.T) {
	var out bytes.Buffer
	err := Match(context.Background(), []string{"-a", "depth=3", "-b", "depth=1", "-games", "2", "-concurrency", "2"}, &out, &out)
	if err != nil {
		t.Fatal(err)
	}
	text := out.String()
	for _, want := range []string{"game 1/2", "game 2/2", "wins", "draws", "losses", "Elo diff (95%)", "A depth=3", "B depth=1"} {
		if !strings.Contains(text, want) {
			t.Errorf("output lacks %q:\n%s", want, text)
		}
	}
}

func TestPlayScriptedGame(t *testing.T) {
	// White (the player) takes Black's last man: c3:e5 wins at once. Before
	// that: a typo, an illegal step (capturing is compulsory), a request for
	// the moves.
	stdin := strings.NewReader("hello\nc3-b4\nmoves\n\nC3xE5\n")
	var out bytes.Buffer
	err := Play(context.Background(), []string{"-fen", "w:c3w,d4b", "-level", "1"}, stdin, &out, &out)
	if err != nil {
		t.Fatal(err)
	}
	text := out.String()
	for _, want := range []string{
		`Sorry: illegal move "hello": "he" is not a square`,
		`Sorry: illegal move "c3-b4": capturing is compulsory`,
		"Legal moves: c3:e5",
		"Game over: white wins: black has no legal move.",
		"Moves: 1. c3:e5 1-0",
		"4 |   | . |   | b |", // the board before the capture
	} {
		if !strings.Contains(text, want) {
			t.Errorf("output lacks %q:\n%s", want, text)
		}
	}
}

func TestPlayAsBlackTheEngineMovesFirstAndQuitEnds(t *testing.T) {
	var out bytes.Buffer
	err := Play(context.Background(), []string{"-color", "black", "-level", "1"}, strings.NewReader("quit\n"), &out, &out)
	if err != nil {
		t.Fatal(err)
	}
	text := out.String()
	if !strings.Contains(text, "Novice (white) plays ") || !strings.Contains(text, "Game abandoned.") {
		t.Errorf("want the engine's first move and the end on quit:\n%s", text)
	}
	// Black's view: rank 1 at the top, files from h to a.
	if !strings.Contains(text, "    h   g   f   e   d   c   b   a") {
		t.Errorf("board not drawn from Black's side:\n%s", text)
	}
}

func TestPlayEndsAtEndOfInput(t *testing.T) {
	var out bytes.Buffer
	if err := Play(context.Background(), nil, strings.NewReader("c3-d4\n"), &out, &out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "Game abandoned.") {
		t.Errorf("want the game abandoned at end of input:\n%s", out.String())
	}
}

func TestBoardShowsTowers(t *testing.T) {
	p := rules.MustParsePosition("w:c3Wbb,e5bwwwwwwwwww,h8B")
	var out bytes.Buffer
	drawBoard(&out, &p, false)
	text := out.String()
	for _, want := range []string{"3 | . |   | W3|", "5 | . |   | . |   |b11|", "| B | 8", "Towers, top first (w/b man, W/B king): c3 Wbb, e5 bwwwwwwwwww"} {
		if !strings.Contains(text, want) {
			t.Errorf("board lacks %q:\n%s", want, text)
		}
	}
}

// The engine plays every ruleset: in each of these positions the variants
// differ in their captures, and think answers a capture of the variant asked
// for, which is no capture of Bashni's.
func TestThinkFollowsTheVariant(t *testing.T) {
	tests := []struct {
		variant rules.Variant
		fen     string
	}{
		{rules.BashniMP, "w:b2b,c3W,g7b"},
		{rules.Russian, "w:c3w,d4b,f4b,f2b,d2b,h8B"},
	}
	for _, tt := range tests {
		t.Run(tt.variant.String(), func(t *testing.T) {
			var out bytes.Buffer
			if err := think([]string{"-fen", tt.fen, "-variant", tt.variant.String(), "-depth", "3"}, &out); err != nil {
				t.Fatalf("think: %v\n%s", err, out.String())
			}
			first, _, _ := strings.Cut(out.String(), "\n")
			p := rules.MustParsePosition(tt.fen).WithVariant(tt.variant)
			m, err := rules.ParseMove(&p, first)
			if err != nil {
				t.Fatalf("%q is not a legal %v move: %v", first, tt.variant, err)
			}
			after, bashni := p.Play(m), rules.MustParsePosition(tt.fen)
			if bm, err := rules.ParseMove(&bashni, first); err == nil && bashni.Play(bm).String() == after.String() {
				t.Errorf("%v: %s leaves the board as Bashni would", tt.variant, first)
			}
		})
	}
}

func TestMatchUnderAVariant(t *testing.T) {
	var out bytes.Buffer
	if err := matchCmd([]string{"-a", "depth=2", "-b", "depth=1", "-games", "2", "-variant", "russian", "-quiet"}, &out); err != nil {
		t.Fatalf("match: %v\n%s", err, out.String())
	}
	if !strings.Contains(out.String(), "wins") {
		t.Errorf("no table:\n%s", out.String())
	}
}
