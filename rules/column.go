package rules

import (
	"fmt"
	"strings"
	"unicode"
)

// ParseColumnNotation reads the traditional column notation of the Russian
// literature (docs/rules.md, Position format): per side, "square – tower" with 0
// a man and 1 a king, top first, and "/" between the owner's block and the
// captured block, e.g.
//
//	White: c1 – 1/0000, d6 – 000000; Black: a1 – 110101/1, b2 – 00
//
// White is to move unless a section says otherwise ("Black to move",
// "ход чёрных"). Cyrillic look-alike letters and any kind of dash are
// accepted; Russian side names (Белые, Чёрные) too.
func ParseColumnNotation(text string) (Position, error) {
	var p Position
	side := White
	seen := false
	sections := strings.FieldsFunc(text, func(r rune) bool { return r == ';' || r == '\n' || r == '.' })
	for _, sec := range sections {
		sec = strings.TrimSpace(sec)
		if sec == "" {
			continue
		}
		head, body, hasColon := strings.Cut(sec, ":")
		if !hasColon {
			c, ok := sideToMove(sec)
			if !ok {
				return p, &PositionError{Entry: sec, Reason: `want "White: …", "Black: …" or "Black to move"`}
			}
			side = c
			continue
		}
		owner, ok := sideName(head)
		if !ok {
			return p, &PositionError{Entry: sec, Reason: fmt.Sprintf("%q is not White or Black", strings.TrimSpace(head))}
		}
		for _, raw := range strings.Split(body, ",") {
			entry := strings.TrimSpace(raw)
			if entry == "" {
				continue
			}
			s, t, err := columnEntry(entry, owner)
			if err != nil {
				return p, &PositionError{Entry: entry, Reason: err.Error()}
			}
			if !p.towers[s].Empty() {
				return p, &PositionError{Entry: entry, Reason: fmt.Sprintf("square %s is given twice", s)}
			}
			if err := checkTower(s, t); err != nil {
				return p, &PositionError{Entry: entry, Reason: err.Error()}
			}
			p.setTower(s, t)
			seen = true
		}
	}
	if !seen {
		return p, &PositionError{Reason: `no towers found; want the position format "w:c3w,…" or column notation "White: c3 – 0; Black: f6 – 0"`}
	}
	if err := checkCounts(&p); err != nil {
		return p, err
	}
	return p.WithSideToMove(side), nil
}

// columnEntry reads "c1 – 1/0000" for a tower owned by owner.
func columnEntry(entry string, owner Color) (Square, Tower, error) {
	r := []rune(entry)
	if len(r) < 2 {
		return 0, 0, fmt.Errorf("want a square, a dash and the tower, e.g. c1 – 1/0000")
	}
	s, err := ParseSquare(string(r[:2]))
	if err != nil {
		return 0, 0, fmt.Errorf("%s", strings.TrimPrefix(err.Error(), "rules: "))
	}
	rest := strings.TrimLeftFunc(string(r[2:]), func(c rune) bool { return unicode.IsSpace(c) || isDash(c) })
	if rest == "" {
		return 0, 0, fmt.Errorf("empty tower")
	}
	var t Tower
	color := owner
	slashes := 0
	for _, c := range rest {
		switch {
		case c == '0' || c == '1':
			if t.Height() == MaxTowerHeight {
				return 0, 0, fmt.Errorf("a tower holds at most 24 pieces")
			}
			pc := Piece(color)
			if c == '1' {
				pc = pc.Crowned()
			}
			t = t.pushBottom(pc)
		case c == '/':
			slashes++
			if slashes > 1 || t.Empty() {
				return 0, 0, fmt.Errorf("want one / between the owner's pieces and the captured ones")
			}
			color = owner.Opponent()
		case unicode.IsSpace(c):
		default:
			return 0, 0, fmt.Errorf("unknown piece %q (want 0 for a man, 1 for a king)", c)
		}
	}
	if t.Empty() {
		return 0, 0, fmt.Errorf("empty tower")
	}
	return s, t, nil
}

func isDash(c rune) bool {
	switch c {
	case '-', '–', '—', '−', '‐':
		return true
	}
	return false
}

func sideName(s string) (Color, bool) {
	switch normalizeWord(s) {
	case "white", "белые":
		return White, true
	case "black", "черные", "чёрные":
		return Black, true
	}
	return 0, false
}

// sideToMove reads "Black to move", "White to move", "ход белых", "ход чёрных".
func sideToMove(s string) (Color, bool) {
	w := strings.Fields(normalizeWord(s))
	for _, x := range w {
		switch x {
		case "white", "белых", "белые":
			return White, true
		case "black", "черных", "чёрных", "черные", "чёрные":
			return Black, true
		}
	}
	return 0, false
}

func normalizeWord(s string) string {
	return strings.ToLower(strings.TrimSpace(s))
}
