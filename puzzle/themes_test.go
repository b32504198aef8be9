package puzzle

import (
	"context"
	"slices"
	"testing"

	"github.com/bashni/bashni/rules"
)

// Each theme read from a solution by the rules: positions of the course
// and small ones made for the theme.
func TestThemesOf(t *testing.T) {
	for _, tc := range []struct {
		name, pos, line string
		want, not       []Theme
	}{
		{"a tower set free", "w:b2b,f2bww,h2b,a3w,g3w,h8b", "g3:e1", []Theme{ThemeOneMove, ThemeLiberation}, []Theme{ThemeQuiet, ThemeKingCapture}},
		{"crowned mid-capture", "w:c3b,f6w,a7w,c7b,e7b,h2b", "f6:d8:a5:d2", []Theme{ThemeCrowning}, []Theme{ThemeKingCapture}},
		{"crowned at the end only", "w:f6w,e7b,h2b", "f6:d8", nil, []Theme{ThemeCrowning}},
		{"a king's capture", "w:c1W,e3b,h8b", "c1:f4", []Theme{ThemeKingCapture}, []Theme{ThemeCrowning}},
		{"the biggest of two captures", "w:a3w,c3w,b4b,d4b,f6b,h8b", "c3:e5:g7", []Theme{ThemeMajority}, nil},
		{"the only capture is no choice", "w:c3w,d4b,f6b,h8b", "c3:e5:g7", nil, []Theme{ThemeMajority}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pz := themePuzzle(t, tc.pos, tc.line)
			got := ThemesOf(&pz)
			for _, w := range tc.want {
				if !slices.Contains(got, w) {
					t.Errorf("themes %v, want %s among them", got, w)
				}
			}
			for _, n := range tc.not {
				if slices.Contains(got, n) {
					t.Errorf("themes %v, want no %s", got, n)
				}
			}
		})
	}
	// A shipped line: a quiet move, the opponent's capture, the solver's.
	pz, err := ParseLine("mpq7pjzy\tw:e1wb,a3w,c3www,f4bb,a5bwww,c5w,g5bw,b6bb,f6b,h6b,a7wwb,b8b,h8b\tc3-b4 b6:d4 e1-f2\t1100")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := ThemesOf(&pz), []Theme{ThemeQuiet, ThemeSacrifice}; !slices.Equal(got, want) {
		t.Errorf("mpq7pjzy's themes %v, want %v", got, want)
	}
	for _, th := range Themes {
		if got, ok := ParseTheme(string(th)); !ok || got != th {
			t.Errorf("ParseTheme(%q) = %q, %v", th, got, ok)
		}
	}
	if _, ok := ParseTheme("nonsense"); ok {
		t.Error("ParseTheme took a word that is no theme")
	}
}

// themePuzzle is a one-move puzzle: a position and its move in notation.
func themePuzzle(t *testing.T, pos, line string) Puzzle {
	t.Helper()
	p, err := rules.ParsePosition(pos)
	if err != nil {
		t.Fatalf("position %q: %v", pos, err)
	}
	pz := Puzzle{ID: "t", Position: p, Rating: 1000}
	m, err := rules.ParseMove(&p, line)
	if err != nil {
		t.Fatalf("%s in %s: %v", line, pos, err)
	}
	pz.Solution = []rules.Move{m}
	return pz
}

// The line after a one-move solution: legal, searched the same way twice,
// within MaxLinePlies, and ending where the gain is banked (a capture of
// the solver's, or the game over) unless no capture comes at all.
func TestLine(t *testing.T) {
	set, err := Shipped()
	if err != nil {
		t.Fatal(err)
	}
	j := NewJudge(10000)
	n := 0
	for i := range set {
		pz := &set[i]
		if len(pz.Solution) != 1 || n == 4 {
			continue
		}
		n++
		line, err := j.Line(context.Background(), pz)
		if err != nil {
			t.Fatal(err)
		}
		again, err := j.Line(context.Background(), pz)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(line, again) {
			t.Errorf("%s: the line %s, then %s: not the same", pz.ID, rules.JoinMoves(line, " "), rules.JoinMoves(again, " "))
		}
		if len(line) > MaxLinePlies {
			t.Errorf("%s: a line of %d plies", pz.ID, len(line))
		}
		cur := pz.Position.Play(pz.Solution[0])
		captured := false
		for k, m := range line {
			if !slices.Contains(cur.Legal(), m) {
				t.Fatalf("%s: line move %d (%s) is not legal", pz.ID, k+1, m)
			}
			captured = captured || k%2 == 1 && m.IsCapture()
			cur = cur.Play(m)
		}
		last := len(line) - 1
		if captured && last%2 != 1 || captured && !line[last].IsCapture() {
			t.Errorf("%s: the line %s does not end with the solver's capture", pz.ID, rules.JoinMoves(line, " "))
		}
	}
}
