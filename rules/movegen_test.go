package rules

import (
	"slices"
	"testing"
)

// Each row pins one paragraph of docs/rules.md: the legal moves of a position,
// exactly.
func TestLegalMovesFollowRules(t *testing.T) {
	tests := []struct {
		rule string
		pos  string
		want []string
	}{
		{"Moves without capture: a man steps one square diagonally forward (White)",
			"w:c3w", []string{"c3-b4", "c3-d4"}},
		{"Moves without capture: a man steps one square diagonally forward (Black)",
			"b:f6b", []string{"f6-e5", "f6-g5"}},
		{"Moves without capture: a man steps only to an empty square",
			"w:c3w,d4w", []string{"c3-b4", "d4-c5", "d4-e5"}},
		{"Moves without capture: a king flies along a diagonal over empty squares",
			"w:c1W,e3w", []string{"c1-a3", "c1-b2", "c1-d2", "e3-d4", "e3-f4"}},
		{"Towers: a tower moves as its top piece (man over prisoners)",
			"w:c3wbb", []string{"c3-b4", "c3-d4"}},
		{"Towers: kings underneath never change what the tower may do",
			"b:d4bWW", []string{"d4-c3", "d4-e3"}},
		{"Towers: a king-topped tower flies",
			"w:a1Wbbb", []string{"a1-b2", "a1-c3", "a1-d4", "a1-e5", "a1-f6", "a1-g7", "a1-h8"}},
		{"Towers: the tower belongs to the owner of its top piece",
			"w:c3bww,e1w", []string{"e1-d2", "e1-f2"}},
		{"Captures: capturing is compulsory",
			"w:a1w,c3w,d4b", []string{"c3:e5"}},
		{"Captures: several captures, free choice, no rule to take the most",
			"w:c3w,d4b,b4b,b6b", []string{"c3:a5:c7", "c3:e5"}},
		{"Captures: a man captures backward",
			"w:e5w,d4b", []string{"e5:c3"}},
		{"Captures: a man needs the square directly beyond empty",
			"w:c3w,d4b,e5b", []string{"c3-b4"}},
		{"Captures: a king captures at a distance and lands on any empty square beyond",
			"w:a1W,d4b", []string{"a1:e5", "a1:f6", "a1:g7", "a1:h8"}},
		{"Captures: a king's landing squares end at the next occupied square",
			"w:a1W,d4b,g7w", []string{"a1:e5", "a1:f6"}},
		{"Captures: a capture continues while it can",
			"w:a1w,b2b,d4b", []string{"a1:c3:e5"}},
		{"Choice of landing square for a king: it must land where the capture continues",
			"w:a1W,d4b,g5b", []string{"a1:f6:h4"}},
		{"Choice of landing square for a king: every landing square that continues is allowed",
			"w:a1W,c3b,f6b", []string{"a1:d4:g7", "a1:d4:h8", "a1:e5:g7", "a1:e5:h8"}},
		{"Captures: a man crowned during a capture continues as a king",
			"w:b6w,c7b,f6b", []string{"b6:d8:g5", "b6:d8:h4"}},
		{"Captures: a man crowned that cannot continue ends the move there",
			"w:b6w,c7b", []string{"b6:d8"}},
		{"What a jump takes: a jumped tower is never jumped twice; the start square may be landed on",
			"w:c1w,d2bb,d4b,b4b,b2b", []string{"c1:a3:c5:e3:c1", "c1:e3:c5:a3:c1"}},
		{"End of game: a side with no legal move has none listed",
			"w:a1w,b2b,c3b", nil},
	}
	for _, tt := range tests {
		t.Run(tt.rule, func(t *testing.T) {
			got := movesOf(t, tt.pos)
			want := slices.Clone(tt.want)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Errorf("moves of %s:\n got  %v\n want %v", tt.pos, got, want)
			}
		})
	}
}

// Each row plays one move and checks the towers it leaves.
func TestPlayBuildsTowers(t *testing.T) {
	tests := []struct {
		rule    string
		pos     string
		move    string
		variant Variant
		want    string
	}{
		{"What a jump takes: only the top piece; the rest stays and may be freed",
			"w:c3w,d4bww", "c3:e5", Bashni, "b:d4ww,e5wb"},
		{"What a jump takes: the rest of a jumped tower stays its owner's if its top block is taller",
			"w:c3w,d4bbw", "c3:e5", Bashni, "b:d4bw,e5wb"},
		{"What a jump takes: prisoners go under in the order jumped (first directly under the capturer)",
			"w:a1w,b2B,d4b", "a1:c3:e5", Bashni, "b:e5wBb"},
		{"What a jump takes: prisoners go under the capturer's own pieces and below earlier prisoners",
			"w:a1wwb,b2B", "a1:c3", Bashni, "b:c3wwbB"},
		{"What a jump takes: a cycle back to the start square",
			"w:c1w,d2bb,d4b,b4b,b2b", "c1:e3:c5:a3:c1", Bashni, "b:c1wbbbb,d2b"},
		{"A piece keeps its rank forever: a captured king stays a king underneath",
			"w:c3w,d4Bbw", "c3:e5", Bashni, "b:d4bw,e5wB"},
		{"A man that reaches the far rank by a quiet move is crowned; only the top piece",
			"w:c7wbb", "c7-d8", Bashni, "b:d8Wbb"},
		{"A man crowned during a capture stays crowned",
			"w:b6w,c7b", "b6:d8", Bashni, "b:d8Wb"},
		{"A man crowned during a capture continues as a king and may fly backward",
			"w:b6w,c7b,f6b", "b6:d8:h4", Bashni, "b:h4Wbb"},
		{"Black men are crowned on rank 1",
			"b:d2b", "d2-c1", Bashni, "w:c1B"},
		{"Russian draughts: jumped pieces leave the board",
			"w:a1w,b2b,d4b", "a1:c3:e5", Russian, "b:e5w"},
	}
	for _, tt := range tests {
		t.Run(tt.rule, func(t *testing.T) {
			p := MustParsePosition(tt.pos).WithVariant(tt.variant)
			m, err := ParseMove(&p, tt.move)
			if err != nil {
				t.Fatalf("ParseMove(%q): %v", tt.move, err)
			}
			got := p.Play(m)
			if got.String() != tt.want {
				t.Errorf("%s after %s:\n got  %s\n want %s", tt.pos, tt.move, got, tt.want)
			}
			if got.Hash() != got.computeHash() {
				t.Errorf("incremental hash %x, from scratch %x", got.Hash(), got.computeHash())
			}
		})
	}
}

func TestHasCaptureAgreesWithGenerator(t *testing.T) {
	for _, pos := range []string{StartText, "w:c3w,d4b", "w:a1W,d4b", "w:a1W,d4b,e5b", "b:e5w,d6b", "w:e5w,d4b"} {
		p := MustParsePosition(pos)
		got := p.HasCapture()
		want := len(p.AppendCaptures(nil)) > 0
		if got != want {
			t.Errorf("%s: HasCapture %v, captures generated %v", pos, got, want)
		}
	}
}

// The bit-parallel shortcuts must agree with the square-by-square tables.
func TestStepMatchesRays(t *testing.T) {
	for s := Square(0); s < NumSquares; s++ {
		for d := 0; d < 4; d++ {
			var want uint32
			if rayLen[s][d] > 0 {
				want = 1 << ray[s][d][0]
			}
			if got := step(1<<s, d); got != want {
				t.Errorf("step(%v, %d) = %032b, want %032b", s, d, got, want)
			}
		}
	}
}
