package rules

import (
	"errors"
	"strings"
	"testing"
)

func TestStartPosition(t *testing.T) {
	p := Start(Bashni)
	if got := p.String(); got != StartText {
		t.Errorf("Start().String()\n got  %s\n want %s (docs/rules.md, Board and start)", got, StartText)
	}
	q := MustParsePosition(StartText)
	if q != p {
		t.Errorf("parsed start position differs from Start()")
	}
	for _, c := range []Color{White, Black} {
		if n, k := p.Count(c); n != 12 || k != 0 {
			t.Errorf("%s has %d pieces, %d kings; want 12, 0", c, n, k)
		}
	}
}

func TestPositionTextRoundTrip(t *testing.T) {
	tests := []struct{ in, canonical string }{
		{"w:", "w:"},
		{"b:c3wb,e5Ww,d6Bbbw", "b:c3wb,e5Ww,d6Bbbw"},
		{"b: d6Bbbw , c3wb,e5Ww", "b:c3wb,e5Ww,d6Bbbw"},
		{"W:h8W,a1B", "w:a1B,h8W"},
		{"w:C3w", "w:c3w"},
		{"w:с3w", "w:c3w"}, // Cyrillic es
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			p, err := ParsePosition(tt.in)
			if err != nil {
				t.Fatalf("ParsePosition(%q): %v", tt.in, err)
			}
			if got := p.String(); got != tt.canonical {
				t.Errorf("canonical form: got %s, want %s", got, tt.canonical)
			}
			var q Position
			if err := q.UnmarshalText([]byte(p.String())); err != nil {
				t.Fatalf("UnmarshalText(%q): %v", p.String(), err)
			}
			if q != p {
				t.Errorf("round trip changed the position: %s vs %s", q, p)
			}
		})
	}
}

// Invalid text gets an error naming the offending entry (docs/rules.md,
// Position format).
func TestPositionTextErrors(t *testing.T) {
	tests := []struct {
		name, in, entry, reason string
	}{
		{"light square", "w:c3w,d3b", "d3b", "light square"},
		{"square twice", "w:c3w,c3b", "c3b", "given twice"},
		{"unknown letter", "w:c3wx", "c3wx", "unknown piece letter"},
		{"empty tower", "w:c3", "c3", "empty tower"},
		{"white man on rank 8", "w:b8w", "b8w", "would have been crowned"},
		{"black man on rank 1", "w:a1bw", "a1bw", "would have been crowned"},
		{"three bands", "w:c3wbw", "c3wbw", "three colour bands"},
		{"more than 12 of a colour", "w:a1wwwwwww,c1wwwwww", "", "13 white pieces"},
		{"not a square", "w:z9w", "z9w", "not a square"},
		{"missing side", "c3w", "", "want"},
		{"bad side", "x:c3w", "", "not w or b"},
		{"empty entry", "w:c3w,,e3w", "", "empty entry"},
		{"too tall", "w:c3" + strings.Repeat("W", 25), "", "at most 24"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParsePosition(tt.in)
			if err == nil {
				t.Fatalf("ParsePosition(%q) succeeded; want an error about %q", tt.in, tt.reason)
			}
			if !errors.Is(err, ErrInvalidPosition) {
				t.Errorf("error %v does not wrap ErrInvalidPosition", err)
			}
			var pe *PositionError
			if !errors.As(err, &pe) {
				t.Fatalf("error %v is not a *PositionError", err)
			}
			if tt.entry != "" && pe.Entry != tt.entry {
				t.Errorf("entry named %q, want %q", pe.Entry, tt.entry)
			}
			if !strings.Contains(err.Error(), tt.reason) {
				t.Errorf("error %q does not say %q", err, tt.reason)
			}
		})
	}
}

func TestColumnNotation(t *testing.T) {
	tests := []struct{ in, want string }{
		{"White: c1 – 1/0000, d6 – 000000; Black: a1 – 110101/1, b2 – 00",
			"w:a1BBbBbBW,c1Wbbbb,b2bb,d6wwwwww"},
		{"White: c3 - 0; Black: f6 - 0; Black to move", "b:c3w,f6b"},
		{"Белые: с3 — 0/1; Чёрные: е5 — 00. Ход чёрных", "b:c3wB,e5bb"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			p, err := ParsePosition(tt.in)
			if err != nil {
				t.Fatalf("ParsePosition(%q): %v", tt.in, err)
			}
			if got := p.String(); got != tt.want {
				t.Errorf("got %s, want %s", got, tt.want)
			}
		})
	}
	for _, bad := range []string{"White: c3 – 2", "Purple: c3 – 0", "White: c3 – 0//0", "White: d3 – 0", "nothing here", "White: c3 – "} {
		if _, err := ParsePosition(bad); err == nil || !errors.Is(err, ErrInvalidPosition) {
			t.Errorf("ParsePosition(%q) = %v; want an ErrInvalidPosition", bad, err)
		}
	}
}

func TestSquares(t *testing.T) {
	for s := Square(0); s < NumSquares; s++ {
		got, err := ParseSquare(s.String())
		if err != nil || got != s {
			t.Errorf("ParseSquare(%q) = %v, %v; want %v", s.String(), got, err, s)
		}
		if (s.File()+s.Rank())%2 != 0 {
			t.Errorf("%v is a light square (docs/rules.md, Board and start: a1 is dark)", s)
		}
	}
	if _, err := ParseSquare("d3"); err == nil || !strings.Contains(err.Error(), "light") {
		t.Errorf("ParseSquare(d3) = %v; want a light-square error", err)
	}
}
