package aicli

import (
	"fmt"
	"strings"

	"github.com/bashni/bashni/rules"
)

// parseMove reads a move typed by a player against the legal moves of p,
// forgiving where it is unambiguous (RULES.md, Notation): upper case, "x"
// for ":", spaces or dashes between squares, the Cyrillic look-alikes of
// a, c and e, and a capture given by its first and last squares only.
func parseMove(p *rules.Position, text string) (rules.Move, error) {
	legal := p.Legal()
	squares, err := moveSquares(text)
	if err != nil {
		return rules.Move{}, err
	}
	var short []rules.Move
	for _, m := range legal {
		sq := m.Squares()
		if equalSquares(sq, squares) {
			return m, nil
		}
		if len(squares) == 2 && m.From() == squares[0] && m.To() == squares[1] {
			short = append(short, m)
		}
	}
	switch {
	case len(short) == 1:
		return short[0], nil
	case len(short) > 1:
		return rules.Move{}, fmt.Errorf("%q is ambiguous: it could be %s; give every landing square", text, rules.JoinMoves(short, ", "))
	}
	why := "not a legal move here"
	if len(legal) > 0 && legal[0].IsCapture() {
		why = "not a legal move here (capturing is compulsory)"
	}
	return rules.Move{}, fmt.Errorf("%q is %s; legal: %s", text, why, rules.JoinMoves(legal, ", "))
}

func equalSquares(a, b []rules.Square) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// moveSquares splits a typed move into its squares.
func moveSquares(text string) ([]rules.Square, error) {
	r := []rune(strings.TrimSpace(text))
	var out []rules.Square
	for i := 0; i < len(r); {
		switch c := r[i]; {
		case c == '-' || c == ':' || c == 'x' || c == 'X' || c == '×' || c == ' ' || c == '–' || c == '—':
			i++
		case i+1 < len(r):
			s, err := rules.ParseSquare(string(r[i : i+2]))
			if err != nil {
				return nil, fmt.Errorf("cannot read %q as a move (want e.g. c3-d4 or c3:e5:c7): %v", text, strings.TrimPrefix(err.Error(), "rules: "))
			}
			out = append(out, s)
			i += 2
		default:
			return nil, fmt.Errorf("cannot read %q as a move (want e.g. c3-d4 or c3:e5:c7)", text)
		}
	}
	if len(out) < 2 {
		return nil, fmt.Errorf("cannot read %q as a move: give at least two squares, e.g. c3-d4", text)
	}
	return out, nil
}
