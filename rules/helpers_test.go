package rules

import (
	"slices"
	"testing"
)

// movesOf returns the legal moves of the position text in notation, sorted.
func movesOf(t *testing.T, text string) []string {
	t.Helper()
	p, err := ParsePosition(text)
	if err != nil {
		t.Fatalf("ParsePosition(%q): %v", text, err)
	}
	var out []string
	for _, m := range p.Legal() {
		out = append(out, m.String())
	}
	slices.Sort(out)
	return out
}
