package rules

import (
	"slices"
	"testing"
)

// Each row pins a sentence of docs/rules.md, What a jump takes, under every
// variant: the legal moves of one position, exactly.
func TestVariantsCaptureDifferently(t *testing.T) {
	tests := []struct {
		rule string
		pos  string
		want map[Variant][]string
	}{
		{"the other school: a tower may be jumped again later in the same move",
			"w:c3w,d4bb,f4b,f2b,d2b", map[Variant][]string{
				Bashni:   {"c3:e1:g3:e5:c3", "c3:e5:g3:e1:c3"},
				BashniMP: {"c3:e1:g3:e5:c3", "c3:e5:g3:e1:c3:e5"},
				Russian:  {"c3:e1:g3:e5:c3", "c3:e5:g3:e1:c3"},
			}},
		{"the other school: never by the very next jump",
			"w:c3w,d4bb", map[Variant][]string{
				Bashni:   {"c3:e5"},
				BashniMP: {"c3:e5"},
				Russian:  {"c3:e5"},
			}},
		{"the other school: a square emptied by a jump may be crossed and landed on",
			"w:b2b,c3W,g7b", map[Variant][]string{
				Bashni:   {"c3:a1", "c3:h8"},
				BashniMP: {"c3:a1:h8", "c3:h8:a1"},
				Russian:  {"c3:a1", "c3:h8"},
			}},
		{"the other school: the rest of a tower jumped two legs before is jumpable again",
			"w:a1W,b2bb,d4b,f6b", map[Variant][]string{
				Bashni:   {"a1:c3:e5:g7", "a1:c3:e5:h8"},
				BashniMP: {"a1:c3:e5:a1:g7", "a1:c3:e5:a1:h8", "a1:c3:e5:g7:a1", "a1:c3:e5:h8:a1"},
				Russian:  {"a1:c3:e5:g7", "a1:c3:e5:h8"},
			}},
		{"the other school: a freed piece of the mover's blocks",
			"w:c3w,d4bw,f4b,f2b,d2b", map[Variant][]string{
				Bashni:   {"c3:e1:g3:e5:c3", "c3:e5:g3:e1:c3"},
				BashniMP: {"c3:e1:g3:e5:c3", "c3:e5:g3:e1:c3"},
				Russian:  {"c3:e1:g3:e5:c3", "c3:e5:g3:e1:c3"},
			}},
	}
	for _, tt := range tests {
		for _, v := range Variants {
			t.Run(tt.rule+"/"+v.String(), func(t *testing.T) {
				p := MustParsePosition(tt.pos).WithVariant(v)
				var got []string
				for _, m := range p.Legal() {
					got = append(got, m.String())
				}
				slices.Sort(got)
				if want := tt.want[v]; !slices.Equal(got, want) {
					t.Errorf("%v moves of %s:\n got  %v\n want %v", v, tt.pos, got, want)
				}
			})
		}
	}
}

// Each row plays one capture under a variant and checks the towers it leaves.
func TestVariantsBuildTowers(t *testing.T) {
	tests := []struct {
		rule    string
		variant Variant
		pos     string
		move    string
		want    string
	}{
		{"the other school: a tower jumped twice gives two pieces, in the order taken",
			BashniMP, "w:c3w,d4bB,f4b,f2b,d2b", "c3:e5:g3:e1:c3:e5", "b:e5wbbbbB"},
		{"the other school: a one-piece tower jumped leaves its square empty",
			BashniMP, "w:b2b,c3W,g7b", "c3:h8:a1", "b:a1Wbb"},
		{"Bashni: the same capture takes one piece of each tower",
			Bashni, "w:c3w,d4bB,f4b,f2b,d2b", "c3:e5:g3:e1:c3", "b:c3wbbbb,d4B"},
		{"Russian draughts: jumped pieces leave the board",
			Russian, "w:c3w,d4b,f4b,f2b,d2b", "c3:e5:g3:e1:c3", "b:c3w"},
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

func TestParseVariant(t *testing.T) {
	for _, v := range Variants {
		got, err := ParseVariant(v.String())
		if err != nil || got != v {
			t.Errorf("ParseVariant(%q) = %v, %v; want %v", v.String(), got, err, v)
		}
		text, err := v.MarshalText()
		if err != nil {
			t.Fatal(err)
		}
		var back Variant
		if err := back.UnmarshalText(text); err != nil || back != v {
			t.Errorf("text round trip of %v gave %v, %v", v, back, err)
		}
	}
	for name, want := range map[string]Variant{"": Bashni, "Russian": Russian, " MP ": BashniMP, "pakhomov": BashniMP} {
		if got, err := ParseVariant(name); err != nil || got != want {
			t.Errorf("ParseVariant(%q) = %v, %v; want %v", name, got, err, want)
		}
	}
	for _, bad := range []string{"chess", "bashni mp", "Variant(7)"} {
		if _, err := ParseVariant(bad); err == nil {
			t.Errorf("ParseVariant(%q) accepted", bad)
		}
	}
	if _, err := Variant(9).MarshalText(); err == nil {
		t.Error("an unknown variant marshals")
	}
}

// The capture generator is the same for every variant at the first jump,
// so HasCapture must agree with it in every variant.
func TestHasCaptureAgreesInEveryVariant(t *testing.T) {
	for _, pos := range []string{StartText, "w:c3w,d4bb,f4b,f2b,d2b", "w:b2b,c3W,g7b", "b:e5w,d6b", "w:c3w,d4b,e5b"} {
		for _, v := range Variants {
			p := MustParsePosition(pos).WithVariant(v)
			if got, want := p.HasCapture(), len(p.AppendCaptures(nil)) > 0; got != want {
				t.Errorf("%v %s: HasCapture %v, captures generated %v", v, pos, got, want)
			}
		}
	}
}

func BenchmarkLegalMovesMP(b *testing.B) {
	p := MustParsePosition("w:a1W,b2bb,d4b,f6b,c7bw,g3wbb").WithVariant(BashniMP)
	buf := make([]Move, 0, 64)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		buf = p.LegalMoves(buf[:0])
	}
}

// A position's hash names its variant (one transposition table serves every
// ruleset), and Bashni's hashes stay as they were before variants existed.
func TestHashCoversVariant(t *testing.T) {
	seen := map[uint64]Variant{}
	for _, v := range Variants {
		p := Start(v)
		if p.Hash() != p.computeHash() {
			t.Errorf("%v: incremental hash %x, from scratch %x", v, p.Hash(), p.computeHash())
		}
		if w, dup := seen[p.Hash()]; dup {
			t.Errorf("%v and %v start positions hash alike", v, w)
		}
		seen[p.Hash()] = v
		back, bashni := p.WithVariant(Bashni), Start(Bashni)
		if back.Hash() != bashni.Hash() {
			t.Errorf("%v made Bashni again hashes %x, want %x", v, back.Hash(), bashni.Hash())
		}
	}
	var zero Position
	if zero.Hash() != 0 {
		t.Errorf("the empty board, White to move, Bashni, hashes %x, want 0", zero.Hash())
	}
}
