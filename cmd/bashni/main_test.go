package main

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"
)

// runCmd runs the program as a user would and returns stdout, stderr and
// the exit status.
func runCmd(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errOut bytes.Buffer
	err := run(context.Background(), args, nil, strings.NewReader(""), &out, &errOut)
	code = exitCode(err, &errOut)
	return out.String(), errOut.String(), code
}

func TestMoves(t *testing.T) {
	out, _, code := runCmd(t, "moves", "-fen", "w:a1w,b2b,d4b")
	if code != 0 || out != "a1:c3:e5 b:e5wbb\n" {
		t.Errorf("moves: code %d, out %q", code, out)
	}
	out, _, _ = runCmd(t, "moves")
	if got := strings.Count(out, "\n"); got != 7 {
		t.Errorf("moves from the start: %d lines, want 7", got)
	}
	out, _, _ = runCmd(t, "moves", "-fen", "w:a1w,b2b,d4b", "-variant", "russian")
	if out != "a1:c3:e5 b:e5w\n" {
		t.Errorf("russian moves: %q", out)
	}
}

func TestUsageErrorsExitTwo(t *testing.T) {
	tests := []struct {
		args []string
		says string
	}{
		{[]string{"moves", "-fen", "w:c3w,d3b"}, "light square"},
		{[]string{"moves", "-variant", "chess"}, "unknown variant"},
		{[]string{"moves", "-bogus"}, "flag provided but not defined"},
		{[]string{"perft", "-depth", "0"}, "out of range"},
		{[]string{"nosuch"}, "unknown subcommand"},
		{nil, "no subcommand"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			out, errOut, code := runCmd(t, tt.args...)
			if code != 2 {
				t.Errorf("exit status %d, want 2", code)
			}
			if out != "" {
				t.Errorf("stdout %q, want nothing", out)
			}
			if !strings.Contains(errOut, tt.says) {
				t.Errorf("stderr %q does not say %q", errOut, tt.says)
			}
		})
	}
}

func TestPerft(t *testing.T) {
	out, _, code := runCmd(t, "perft", "-depth", "4")
	if code != 0 || !strings.Contains(out, "depth  4            1469") {
		t.Errorf("perft: code %d, out %q", code, out)
	}
	out, _, code = runCmd(t, "perft", "-depth", "3", "-divide")
	if code != 0 || !strings.Contains(out, "total 302") {
		t.Errorf("perft -divide: code %d, out %q", code, out)
	}
}

// The rulesets first part at depth 6 (Russian draughts) and 8 (the other
// school of Bashni); -short stops at 6.
func TestPerftVariants(t *testing.T) {
	tests := []struct {
		variant string
		depth   int
		want    string
	}{
		{"russian", 6, "37986"},
		{"bashni-mp", 6, "37908"},
		{"bashni-mp", 8, "925945"},
	}
	for _, tt := range tests {
		if testing.Short() && tt.depth > 6 {
			continue
		}
		out, _, code := runCmd(t, "perft", "-variant", tt.variant, "-depth", fmt.Sprint(tt.depth))
		if want := fmt.Sprintf("depth %2d  %14s", tt.depth, tt.want); code != 0 || !strings.Contains(out, want) {
			t.Errorf("perft -variant %s: code %d, out %q, want a line %q", tt.variant, code, out, want)
		}
	}
}
