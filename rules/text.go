package rules

import (
	"fmt"
	"strings"
)

// MaxPiecesPerColor is the number of pieces each side starts with; no
// position may hold more of one colour.
const MaxPiecesPerColor = 12

// String returns the position in canonical position format, e.g.
// "b:c3wb,e5Ww,d6Bbbw": side, then towers top first in square order
// (by rank, then file).
func (p Position) String() string {
	var b strings.Builder
	b.Grow(8 + 5*24)
	if p.side == White {
		b.WriteString("w:")
	} else {
		b.WriteString("b:")
	}
	first := true
	for s := Square(0); s < NumSquares; s++ {
		t := p.towers[s]
		if t.Empty() {
			continue
		}
		if !first {
			b.WriteByte(',')
		}
		first = false
		b.WriteString(s.String())
		b.WriteString(t.String())
	}
	return b.String()
}

// MarshalText implements encoding.TextMarshaler with the canonical form.
func (p Position) MarshalText() ([]byte, error) { return []byte(p.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler. It reads the position
// format and keeps the receiver's variant.
func (p *Position) UnmarshalText(text []byte) error {
	q, err := parsePositionFormat(string(text))
	if err != nil {
		return err
	}
	q.setVariant(p.variant)
	*p = q
	return nil
}

// ParsePosition reads a position in the project's position format
// ("w:a1w,c3wb,…") or in the traditional column notation
// ("White: c1 – 1/0000; Black: a1 – 00"). The variant is Bashni; use
// WithVariant for another. Errors name the offending entry.
func ParsePosition(text string) (Position, error) {
	t := strings.TrimSpace(text)
	// A one-letter side before the colon is the position format ("w:…");
	// a side's name ("White: …") is the column notation.
	if side, _, ok := strings.Cut(t, ":"); ok && len([]rune(strings.TrimSpace(side))) <= 1 {
		return parsePositionFormat(t)
	}
	return ParseColumnNotation(t)
}

// MustParsePosition is ParsePosition for texts known to be valid, such as
// constants in tests and examples. It panics on an error.
func MustParsePosition(text string) Position {
	p, err := ParsePosition(text)
	if err != nil {
		panic(err)
	}
	return p
}

func parsePositionFormat(text string) (Position, error) {
	var p Position
	text = strings.TrimSpace(text)
	side, entries, ok := strings.Cut(text, ":")
	if !ok {
		return p, &PositionError{Reason: `missing "<side>:" prefix (want w: or b:)`}
	}
	switch strings.TrimSpace(side) {
	case "w", "W":
		p.side = White
	case "b", "B":
		p.side = Black
	default:
		return p, &PositionError{Reason: fmt.Sprintf("side to move %q is not w or b", side)}
	}
	if p.side == Black {
		p.hash ^= zobristBlack
	}
	entries = strings.TrimSpace(entries)
	if entries == "" {
		return p, nil
	}
	for _, raw := range strings.Split(entries, ",") {
		entry := strings.TrimSpace(raw)
		if entry == "" {
			return p, &PositionError{Entry: raw, Reason: "empty entry (two commas in a row?)"}
		}
		r := []rune(entry)
		if len(r) < 2 {
			return p, &PositionError{Entry: entry, Reason: "too short: want a square then the tower, e.g. c3wb"}
		}
		s, err := ParseSquare(string(r[:2]))
		if err != nil {
			return p, &PositionError{Entry: entry, Reason: strings.TrimPrefix(err.Error(), "rules: ")}
		}
		letters := string(r[2:])
		if letters == "" {
			return p, &PositionError{Entry: entry, Reason: "empty tower: give its pieces top first in w, b, W, B"}
		}
		if len([]rune(letters)) > MaxTowerHeight {
			return p, &PositionError{Entry: entry, Reason: "a tower holds at most 24 pieces"}
		}
		var t Tower
		for _, ch := range letters {
			pc, ok := pieceFromLetter(byte(ch))
			if !ok || ch > 127 {
				return p, &PositionError{Entry: entry, Reason: fmt.Sprintf("unknown piece letter %q (want w, b, W or B)", ch)}
			}
			t = t.pushBottom(pc)
		}
		if !p.towers[s].Empty() {
			return p, &PositionError{Entry: entry, Reason: fmt.Sprintf("square %s is given twice", s)}
		}
		if err := checkTower(s, t); err != nil {
			return p, &PositionError{Entry: entry, Reason: err.Error()}
		}
		p.setTower(s, t)
	}
	if err := checkCounts(&p); err != nil {
		return p, err
	}
	return p, nil
}

// checkTower applies the per-tower validity rules of docs/rules.md.
func checkTower(s Square, t Tower) error {
	if t.Bands() > 2 {
		return fmt.Errorf("tower %s has three colour bands; every tower is two-layered (owner's pieces over prisoners)", t)
	}
	top := t.Top()
	if !top.IsKing() && s.Rank() == promotionRank[top.Color()] {
		return fmt.Errorf("a %s man on top at %s stands on its far rank and would have been crowned", top.Color(), s)
	}
	return nil
}

// checkCounts rejects more than twelve pieces of a colour.
func checkCounts(p *Position) error {
	for _, c := range []Color{White, Black} {
		if n, _ := p.Count(c); n > MaxPiecesPerColor {
			return &PositionError{Reason: fmt.Sprintf("%d %s pieces; a side has at most %d", n, c, MaxPiecesPerColor)}
		}
	}
	return nil
}
