package enginecli

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bashni/bashni/puzzle"
	"github.com/bashni/bashni/rules"
)

// TestPuzzlesFromPDN: a game file whose start is a known puzzle gives that
// puzzle back, in the set's line format.
func TestPuzzlesFromPDN(t *testing.T) {
	const line = "c2uv8191\tw:a1w,c1Bww,e1w,g1w,h2w,b4ww,h4bw,a5bww,g5b,a7wbb,c7b,g7b,b8b,d8b,f8b,h8b\tg1-f2\t1000"
	want, err := puzzle.ParseLine(line)
	if err != nil {
		t.Fatal(err)
	}
	g := rules.NewGame(want.Position)
	for _, m := range want.Solution {
		if err := g.Play(m); err != nil {
			t.Fatal(err)
		}
	}
	pdn := (&rules.PDN{Tags: map[string]string{"Event": "test"}, Game: g}).String()
	name := filepath.Join(t.TempDir(), "games.pdn")
	// Two games in one file: the second is the start position's, which
	// has no puzzle in its first move.
	start := (&rules.PDN{Game: rules.NewGame(rules.Start(rules.Bashni))}).String()
	if err := os.WriteFile(name, []byte(pdn+"\n"+start), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	if err := Puzzles(context.Background(), []string{"-nodes", "10000", "-max-level", "8", name}, &out, &errOut); err != nil {
		t.Fatalf("puzzles: %v\n%s", err, errOut.String())
	}
	got := strings.TrimSpace(out.String())
	if got != line {
		t.Errorf("puzzles wrote %q, want %q", got, line)
	}
	if !strings.Contains(errOut.String(), "1 puzzles from 2 games") {
		t.Errorf("summary %q does not count 1 puzzle from 2 games", errOut.String())
	}
}

func TestPuzzlesUsage(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "bad.pdn")
	if err := os.WriteFile(bad, []byte("[Event \"x\"]\n\n1. c3-c4 *\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"-nodes", "5"}, {"-level", "0"}, {"-level", "19"}, {"-games", "0"}, {"-target", "-1"},
		{"-min-level", "0"}, {"-max-level", "40"}, {"no-such-file.pdn"}, {bad},
	} {
		var out bytes.Buffer
		err := Puzzles(context.Background(), args, &out, &out)
		if !errors.Is(err, ErrUsage) {
			t.Errorf("puzzles %q: %v, want a usage error", args, err)
		}
	}
}

// Without PDN files the games are self-play, -games of them; a run whose
// context ends stops early and says so.
func TestPuzzlesFromSelfPlay(t *testing.T) {
	args := []string{"-games", "2", "-level", "1", "-nodes", "100", "-max-level", "2", "-min-level", "1"}
	var out, errOut bytes.Buffer
	if err := Puzzles(context.Background(), args, &out, &errOut); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(errOut.String(), "from 2 games") {
		t.Errorf("summary %q does not count 2 games", errOut.String())
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	errOut.Reset()
	if err := Puzzles(ctx, args, &out, &errOut); !errors.Is(err, context.Canceled) || !strings.Contains(errOut.String(), "from 0 games") {
		t.Errorf("a cancelled run: %v, summary %q; want it stopped early after 0 games", err, errOut.String())
	}
}
