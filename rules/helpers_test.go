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

// after plays a move given in notation and returns the resulting position.
func after(t *testing.T, text, move string) Position {
	t.Helper()
	p := MustParsePosition(text)
	m, err := ParseMove(&p, move)
	if err != nil {
		t.Fatalf("ParseMove(%s, %q): %v", text, move, err)
	}
	return p.Play(m)
}
