package rules

import "testing"

// FuzzParsePosition: any text either fails with an error or parses to a
// position whose canonical text parses back to the same position.
func FuzzParsePosition(f *testing.F) {
	for _, s := range []string{StartText, "w:", "b:c3wb,e5Ww,d6Bbbw", "w:c3wbw", "w:d3w",
		"White: c1 – 1/0000, d6 – 000000; Black: a1 – 110101/1, b2 – 00", "Белые: с3 — 0; Ход чёрных"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		p, err := ParsePosition(text)
		if err != nil {
			return
		}
		canon := p.String()
		q, err := ParsePosition(canon)
		if err != nil {
			t.Fatalf("canonical text %q of %q does not parse: %v", canon, text, err)
		}
		if q != p || q.String() != canon {
			t.Fatalf("round trip of %q changed it: %s vs %s", text, q, canon)
		}
		if p.Hash() != p.computeHash() {
			t.Fatalf("hash of %q is off", text)
		}
		_ = p.Legal()
	})
}

// FuzzParseMove: any text either fails or names a legal move whose own
// notation names it again.
func FuzzParseMove(f *testing.F) {
	positions := []Position{Start(Bashni), MustParsePosition("w:c1w,d2bb,d4b,b4b,b2b"), MustParsePosition("w:a1W,c3b,f6b"),
		MustParsePosition("w:a1W,b2bb,d4b,f6b").WithVariant(BashniMP), MustParsePosition("w:c3w,d4bb,f4b,f2b,d2b").WithVariant(BashniMP)}
	for _, s := range []string{"c3-d4", "a1:c3:e5", "c1:c1", "a1xh8", "C3 D4", "", "с3–d4", "a1:d4:g7"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		for _, p := range positions {
			m, err := ParseMove(&p, text)
			if err != nil {
				continue
			}
			back, err := ParseMove(&p, m.String())
			if err != nil || back != m {
				t.Fatalf("%q parsed to %s, which parses to %v, %v", text, m, back, err)
			}
			_ = p.Play(m)
		}
	})
}

// FuzzParseVariant: any name either fails or names a variant whose own
// name reads back to it.
func FuzzParseVariant(f *testing.F) {
	for _, s := range []string{"bashni", "bashni-mp", "russian", "", "MP", "Variant(3)", "рус"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		v, err := ParseVariant(name)
		if err != nil {
			return
		}
		back, err := ParseVariant(v.String())
		if err != nil || back != v {
			t.Fatalf("%q read as %v, whose name reads as %v, %v", name, v, back, err)
		}
	})
}
