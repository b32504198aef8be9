package puzzle

import (
	"context"
	"errors"
	"flag"
	"strings"
	"testing"

	"github.com/bashni/bashni/rules"
)

// allPuzzles checks every shipped puzzle again (minutes); by default a
// sample is checked.
var allPuzzles = flag.Bool("all-puzzles", false, "check every shipped puzzle at twice the generator's budget, not a sample")

// GeneratorNodes is the judge's budget the shipped set was made with
// (`bashni puzzles -nodes`); the checks search twice it.
const GeneratorNodes = 10000

// TestShippedSet: the embedded file reads, is big enough, and each line
// is what the generator writes: its id from its position, a rating on the
// levels' scale.
func TestShippedSet(t *testing.T) {
	set, err := Shipped()
	if err != nil {
		t.Fatal(err)
	}
	if len(set) < 500 {
		t.Errorf("%d shipped puzzles, want at least 500", len(set))
	}
	for _, pz := range set {
		if got := ID(pz.Position); got != pz.ID {
			t.Errorf("puzzle %s: id from its position is %s", pz.ID, got)
		}
		if pz.Rating < LevelRating(1) || pz.Rating > LevelRating(19) {
			t.Errorf("puzzle %s: rating %d off the levels' scale", pz.ID, pz.Rating)
		}
		if n := len(pz.Position.Legal()); n < 2 {
			t.Errorf("puzzle %s: %d legal moves: nothing to find", pz.ID, n)
		}
	}
}

// TestShippedUnique: each solver move of a shipped puzzle is still the
// only winning move when searched at twice the generator's budget, and
// each reply still the engine's best there. A sample by default (the
// judge is slow under the race detector); -all-puzzles checks the set.
func TestShippedUnique(t *testing.T) {
	set, err := Shipped()
	if err != nil {
		t.Fatal(err)
	}
	sample := set
	if !*allPuzzles {
		sample = nil
		for i := 0; i < len(set) && len(sample) < 3; i += max(len(set)/3, 1) {
			sample = append(sample, set[i])
		}
	}
	j := NewJudge(GeneratorNodes)
	for _, pz := range sample {
		if err := j.Check(context.Background(), pz, 2*GeneratorNodes); err != nil {
			t.Error(err)
		}
	}
}

const goodLine = "mpq7pjzy\tw:e1wb,a3w,c3www,f4bb,a5bwww,c5w,g5bw,b6bb,f6b,h6b,a7wwb,b8b,h8b\tc3-b4 b6:d4 e1-f2\t1100"

func TestParseLineRoundTrip(t *testing.T) {
	pz, err := ParseLine(goodLine)
	if err != nil {
		t.Fatal(err)
	}
	if got := pz.String(); got != goodLine {
		t.Errorf("String = %q, want %q", got, goodLine)
	}
	if pz.SolverMoves() != 2 || pz.Solver() != rules.White || pz.Rating != 1100 {
		t.Errorf("solver moves %d, solver %v, rating %d; want 2, white, 1100", pz.SolverMoves(), pz.Solver(), pz.Rating)
	}
	// Forgiving notation is read and written back canonically.
	loose, err := ParseLine(strings.Replace(goodLine, "b6:d4", "B6xD4", 1))
	if err != nil || loose.String() != goodLine {
		t.Errorf("loose notation: %v, %q", err, loose.String())
	}
}

func TestParseLineErrors(t *testing.T) {
	fields := strings.Split(goodLine, "\t")
	with := func(i int, v string) string {
		f := append([]string(nil), fields...)
		f[i] = v
		return strings.Join(f, "\t")
	}
	for _, tc := range []struct{ name, line, want string }{
		{"empty", "", "1 tab-separated fields"},
		{"three fields", strings.Join(fields[:3], "\t"), "3 tab-separated fields"},
		{"five fields", goodLine + "\tx", "5 tab-separated fields"},
		{"spaces for tabs", strings.ReplaceAll(goodLine, "\t", " "), "1 tab-separated"},
		{"empty id", with(0, ""), "id"},
		{"long id", with(0, strings.Repeat("a", 17)), "1 to 16"},
		{"id with a space", with(0, "a b"), "only letters"},
		{"column notation", with(1, "White: c1 – 0; Black: h8 – 0"), "position format"},
		{"bad position", with(1, "w:a2w"), "position"},
		{"no moves", with(2, ""), "0 solution moves"},
		{"ends on a reply", with(2, "c3-b4 b6:d4"), "2 solution moves"},
		{"too long", with(2, strings.Repeat("c3-b4 ", 11)), "11 solution moves"},
		{"illegal first move", with(2, "a3-b2"), "solution move 1 (a3-b2)"},
		{"illegal reply", with(2, "c3-b4 b6-c5 e1-f2"), "solution move 2"},
		{"rating not a number", with(3, "high"), "rating"},
		{"rating too low", with(3, "5"), "rating"},
		{"rating too high", with(3, "99999"), "rating"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseLine(tc.line)
			if err == nil {
				t.Fatalf("ParseLine(%q) = nil error, want one about %q", tc.line, tc.want)
			}
			if !errors.Is(err, ErrBadLine) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q: want ErrBadLine mentioning %q", err, tc.want)
			}
		})
	}
}

func TestReadNamesTheLine(t *testing.T) {
	text := "# a comment\n\n" + goodLine + "\n" + goodLine + "\n"
	_, err := Read(strings.NewReader(text))
	if err == nil || !strings.Contains(err.Error(), "line 4") || !strings.Contains(err.Error(), "already on line 3") {
		t.Errorf("Read of a doubled id: %v", err)
	}
	ps, err := Read(strings.NewReader("# only a comment\n\n"))
	if err != nil || len(ps) != 0 {
		t.Errorf("Read of comments: %d puzzles, %v", len(ps), err)
	}
}

// FuzzParseLine: any line either fails with ErrBadLine or reads as a
// puzzle whose own line reads back as the same puzzle.
func FuzzParseLine(f *testing.F) {
	f.Add(goodLine)
	f.Add("a\tw:c3w,d4b\tc3:e5\t800")
	f.Add("x\tb:\t\t0")
	f.Add("id\tWhite: c1 – 0\tc1-d2\t1500")
	f.Fuzz(func(t *testing.T, line string) {
		pz, err := ParseLine(line)
		if err != nil {
			if !errors.Is(err, ErrBadLine) {
				t.Fatalf("error %v is not ErrBadLine", err)
			}
			return
		}
		again, err := ParseLine(pz.String())
		if err != nil {
			t.Fatalf("own line %q of %q does not read: %v", pz.String(), line, err)
		}
		if again.String() != pz.String() || again.Position != pz.Position {
			t.Fatalf("round trip of %q changed it: %q", line, again.String())
		}
	})
}

// TestSolveRebuildsAShippedPuzzle: the judge at the generator's budget
// finds the same line again from the position alone, the property that
// lets a regenerated set keep its puzzles.
func TestSolveRebuildsAShippedPuzzle(t *testing.T) {
	set, err := Shipped()
	if err != nil || len(set) == 0 {
		t.Fatalf("shipped set: %d puzzles, %v", len(set), err)
	}
	pz := set[0]
	got, ok, err := NewJudge(GeneratorNodes).Solve(context.Background(), pz.Position)
	if err != nil || !ok {
		t.Fatalf("Solve(%s) = ok %v, %v", pz.ID, ok, err)
	}
	if rules.JoinMoves(got.Solution, " ") != rules.JoinMoves(pz.Solution, " ") || got.ID != pz.ID {
		t.Errorf("Solve = %s %s, shipped %s %s", got.ID, rules.JoinMoves(got.Solution, " "), pz.ID, rules.JoinMoves(pz.Solution, " "))
	}
}

// TestSolveRefuses: a position without a decisive move, or with nothing to
// choose, is no puzzle.
func TestSolveRefuses(t *testing.T) {
	for _, text := range []string{
		rules.StartText,     // balanced: nothing wins
		"w:c3w,d4b,h8b",     // one legal move, the capture
		"w:a1W,c3w,f6b,h8b", // several moves win
	} {
		_, ok, err := NewJudge(2000).Solve(context.Background(), rules.MustParsePosition(text))
		if err != nil || ok {
			t.Errorf("Solve(%s) = ok %v, %v; want no puzzle", text, ok, err)
		}
	}
}

// TestFindInSelfPlay: a short self-play game gives puzzles that pass the
// deeper check and read back from their own lines.
func TestFindInSelfPlay(t *testing.T) {
	ctx := context.Background()
	const nodes = 1500
	f := NewFinder(nodes)
	f.MaxLevel = 4
	var found []Puzzle
	eng := NewJudge(nodes).eng
	for n := 0; n < 6 && len(found) == 0; n++ {
		g, err := PlayGame(ctx, eng, SelfPlay{Nodes: 500, RandomPlies: 4, Seed: 7, MaxPlies: 200}, n)
		if err != nil {
			t.Fatal(err)
		}
		ps, err := f.Find(ctx, g)
		if err != nil {
			t.Fatal(err)
		}
		found = append(found, ps...)
	}
	if len(found) == 0 {
		t.Fatal("no puzzle in 6 self-play games")
	}
	for _, pz := range found {
		if err := f.Judge.Check(ctx, pz, 2*nodes); err != nil {
			t.Error(err)
		}
		if _, err := ParseLine(pz.String()); err != nil {
			t.Errorf("found puzzle's line does not read: %v", err)
		}
	}
}

// SolverMoves is how many of the solution's moves are the solver's.
func (p *Puzzle) SolverMoves() int { return (len(p.Solution) + 1) / 2 }
