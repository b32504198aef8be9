package rules

import (
	"errors"
	"strings"
	"testing"
)

func TestParseMoveForgiving(t *testing.T) {
	tests := []struct{ pos, in, want string }{
		{StartText, "c3-d4", "c3-d4"},
		{StartText, "C3-D4", "c3-d4"},
		{StartText, "c3 d4", "c3-d4"},
		{StartText, "c3d4", "c3-d4"},
		{StartText, "с3–d4", "c3-d4"}, // Cyrillic es and an en dash
		{"w:a1w,b2b,d4b", "a1:c3:e5", "a1:c3:e5"},
		{"w:a1w,b2b,d4b", "a1xc3xe5", "a1:c3:e5"},
		{"w:a1w,b2b,d4b", "a1-c3-e5", "a1:c3:e5"},
		{"w:a1w,b2b,d4b", "a1:e5", "a1:c3:e5"},
		{"w:a1w,b2b,d4b", " A1 X E5 ", "a1:c3:e5"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			p := MustParsePosition(tt.pos)
			m, err := ParseMove(&p, tt.in)
			if err != nil {
				t.Fatalf("ParseMove(%q): %v", tt.in, err)
			}
			if m.String() != tt.want {
				t.Errorf("ParseMove(%q) = %s, want %s", tt.in, m, tt.want)
			}
		})
	}
}

func TestParseMoveErrors(t *testing.T) {
	tests := []struct {
		name, pos, in string
		kind          error
		says          []string
	}{
		{"capture compulsory", "w:c3w,d4b,a1w", "a1-b2", ErrIllegalMove, []string{"compulsory", "legal: c3:e5"}},
		{"no tower", StartText, "d4-e5", ErrIllegalMove, []string{"no tower on d4", "legal:"}},
		{"opponent's tower", StartText, "b6-a5", ErrIllegalMove, []string{"black's", "white to move"}},
		{"cannot go there", StartText, "c3-c5", ErrIllegalMove, []string{"cannot go there"}},
		{"light square", StartText, "c3-c4", ErrIllegalMove, []string{"light square"}},
		{"man backward", "w:c3w,e1w", "c3-b2", ErrIllegalMove, []string{"cannot go there"}},
		{"garbage", StartText, "hello", ErrIllegalMove, []string{"not a square"}},
		{"empty", StartText, "", ErrIllegalMove, []string{"empty move"}},
		{"one square", StartText, "c3", ErrIllegalMove, []string{"at least two squares"}},
		{"ambiguous short capture", "w:c1w,d2bb,d4b,b4b,b2b", "c1:c1", ErrAmbiguousMove, []string{"c1:a3:c5:e3:c1", "c1:e3:c5:a3:c1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := MustParsePosition(tt.pos)
			_, err := ParseMove(&p, tt.in)
			if !errors.Is(err, tt.kind) {
				t.Fatalf("ParseMove(%q) = %v; want %v", tt.in, err, tt.kind)
			}
			for _, s := range tt.says {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("error %q does not say %q", err, s)
				}
			}
		})
	}
}

// Two different legal moves never share their notation (docs/rules.md, Notation).
func TestNotationIsUnique(t *testing.T) {
	for _, pos := range []string{StartText, "w:c1w,d2bb,d4b,b4b,b2b", "w:a1W,c3b,f6b", "w:b6w,c7b,f6b"} {
		p := MustParsePosition(pos)
		seen := map[string]bool{}
		for _, m := range p.Legal() {
			if seen[m.String()] {
				t.Errorf("%s: two moves written %s", pos, m)
			}
			seen[m.String()] = true
			back, err := ParseMove(&p, m.String())
			if err != nil || back != m {
				t.Errorf("%s: ParseMove(%s) = %v, %v", pos, m, back, err)
			}
		}
	}
}

// A light square is named as the reason, not "not a move" (docs/rules.md,
// Board: play on the dark squares).
func TestParseMoveNamesTheLightSquare(t *testing.T) {
	p := MustParsePosition(StartText)
	for _, tc := range []struct{ text, name string }{{"h2-h3", "h3"}, {"c3-c4", "c4"}, {"d3-e4", "d3"}} {
		_, err := ParseMove(&p, tc.text)
		me, ok := errors.AsType[*MoveError](err)
		if !ok || me.Cause != CauseLightSquare || me.Name != tc.name {
			t.Errorf("ParseMove(%q) = %v; want CauseLightSquare naming %s", tc.text, err, tc.name)
		}
	}
}

// TestParseMoveCaptureUnfinished: a capture given only as far as a square
// it must jump on from is refused for that reason (docs/rules.md,
// Captures: it goes on while it can), not as "capturing is compulsory";
// the player did capture.
func TestParseMoveCaptureUnfinished(t *testing.T) {
	for _, tc := range []struct{ pos, in, want string }{
		{"w:c3w,d4b,f4b,h8b", "c3:e5", "c3:e5:g3"},
		{"w:c3w,d4b,f4b,h8b", "c3-e5", "c3:e5:g3"},
		{"w:d6w,e7b,g7b,a1w,h4b", "d6:f8", "d6:f8:h6"}, // crowned mid-capture, goes on as a king
		{"w:a1W,c3b,f6b,h8b", "a1:d4", "a1:d4:g7"},
		// A king that lands beyond the piece where it cannot go on, when
		// another landing goes on (docs/rules.md, Choice of landing square).
		{"w:c3b,c5b,a7W,h8b", "a7-g1", "a7:d4:b2"},
		{"w:c3b,c5b,a7W,h8b", "a7:f2", "a7:d4:b2"},
		{"w:b2b,e3b,f4W,h8b", "f4:d2", "f4:c1:a3"},
	} {
		p := MustParsePosition(tc.pos)
		_, err := ParseMove(&p, tc.in)
		me, ok := errors.AsType[*MoveError](err)
		if !ok || me.Cause != CauseCaptureUnfinished || me.Square.String() != tc.in[:2] || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s, %s: %v; want CauseCaptureUnfinished naming %s", tc.pos, tc.in, err, tc.want)
		}
	}
	// A capture that ends where it may stays legal; a different wrong one
	// from the same tower is still the compulsory-capture reason.
	p := MustParsePosition("w:c3w,d4b,a1w,h8b")
	if _, err := ParseMove(&p, "c3:e5"); err != nil {
		t.Errorf("a finished capture: %v", err)
	}
	if _, err := ParseMove(&p, "c3-b4"); err == nil || err.(*MoveError).Cause != CauseMustCapture {
		t.Errorf("a quiet move beside a capture: %v, want CauseMustCapture", err)
	}
}

// TestGameRefusesAnUnfinishedCapture: in a game, a typed capture that
// stops early gets the same cause, and the game is unchanged (issue 41: it
// was told "capturing is compulsory").
func TestGameRefusesAnUnfinishedCapture(t *testing.T) {
	g := NewGame(MustParsePosition("w:c3w,d4b,f4b,h8b"))
	_, err := g.PlayText("c3:e5")
	if me, ok := errors.AsType[*MoveError](err); !ok || me.Cause != CauseCaptureUnfinished {
		t.Fatalf("c3:e5 in a game: %v, want CauseCaptureUnfinished", err)
	}
	if m, err := g.PlayText("c3:e5:g3"); err != nil || len(g.Moves()) != 1 {
		t.Errorf("the whole capture after the refusal: %v, %v", m, err)
	}
}
