package rules

import (
	"errors"
	"fmt"
	"strings"
	"unicode"
)

// ParseMove reads a move in notation and returns the legal move of p it
// names. It forgives what is unambiguous (docs/rules.md, Notation): upper-case
// letters, x for ':', spaces or dashes as separators, Cyrillic look-alike
// letters, and a capture written by its first and last square only when
// exactly one legal capture matches. An illegal or ambiguous move returns a
// *MoveError that says why and lists the legal (or matching) moves.
func ParseMove(p *Position, text string) (Move, error) {
	squares, err := moveSquares(text)
	if err != nil {
		me := &MoveError{Input: text, Reason: err.Error(), Cause: CauseSyntax, Legal: p.Legal()}
		if light, ok := errors.AsType[*LightSquareError](err); ok {
			me.Cause, me.Name = CauseLightSquare, light.Name
		}
		return Move{}, me
	}
	legal := p.Legal()
	if len(legal) == 0 {
		return Move{}, &MoveError{Input: text, Reason: fmt.Sprintf("%s has no legal move", p.side), Cause: CauseNoMoves}
	}
	for _, m := range legal {
		if m.matchesAll(squares) {
			return m, nil
		}
	}
	if len(squares) == 2 {
		var matches []Move
		for _, m := range legal {
			if m.from == squares[0] && m.To() == squares[1] {
				matches = append(matches, m)
			}
		}
		switch len(matches) {
		case 1:
			return matches[0], nil
		case 0:
		default:
			return Move{}, &MoveError{Input: text, kind: ErrAmbiguousMove, Legal: matches, Cause: CauseAmbiguous, Square: squares[0],
				Reason: fmt.Sprintf("%d captures go from %s to %s; give the landing squares", len(matches), squares[0], squares[1])}
		}
	}
	cause, reason := whyIllegal(p, squares, legal)
	return Move{}, &MoveError{Input: text, Reason: reason, Cause: cause, Square: squares[0], Legal: legal}
}

// matchesAll reports whether squares are exactly the move's start and
// landing squares.
func (m Move) matchesAll(squares []Square) bool {
	if len(squares) != int(m.n)+1 || squares[0] != m.from {
		return false
	}
	for i := 0; i < int(m.n); i++ {
		if squares[i+1] != m.path[i] {
			return false
		}
	}
	return true
}

// stopsShort reports whether squares are the start and the first
// landing squares of the capture m, but not all of them: a capture that
// stops while it can still jump (docs/rules.md, Captures: it goes on while
// it can).
func (m Move) stopsShort(squares []Square) bool {
	if len(squares) < 2 || len(squares) > int(m.n) || squares[0] != m.from {
		return false
	}
	for i, s := range squares[1:] {
		if m.path[i] != s {
			return false
		}
	}
	return true
}

// landsShort reports whether squares follow the capture m and then land,
// after its last jump given, on another empty square beyond the same piece
// than m does: a king that stopped where it could not go on, when a
// landing that goes on was there (docs/rules.md, Choice of landing
// square).
func (m Move) landsShort(p *Position, squares []Square) bool {
	n := len(squares)
	if n < 2 || n-1 > int(m.n) || squares[0] != m.from {
		return false
	}
	if n > 2 && !m.stopsShort(squares[:n-1]) {
		return false // an earlier landing is not m's
	}
	prev, j, last := squares[n-2], m.jumped[n-2], squares[n-1]
	if last == m.path[n-2] {
		return false
	}
	df, dr := unit(j.File()-prev.File()), unit(j.Rank()-prev.Rank())
	for f, r := j.File()+df, j.Rank()+dr; ; f, r = f+df, r+dr {
		s, ok := SquareAt(f, r)
		if !ok || (s != m.from && !p.towers[s].Empty()) {
			return false
		}
		if s == last {
			return true
		}
	}
}

// unit is x's direction: -1, 0 or 1.
func unit(x int) int {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}

// whyIllegal explains the most likely reason the squares name no legal move.
func whyIllegal(p *Position, squares []Square, legal []Move) (Cause, string) {
	from := squares[0]
	t := p.towers[from]
	switch {
	case t.Empty():
		return CauseNoTower, fmt.Sprintf("there is no tower on %s", from)
	case t.Owner() != p.side:
		return CauseNotYours, fmt.Sprintf("the tower on %s is %s's, and it is %s to move", from, t.Owner(), p.side)
	case legal[0].capture:
		for _, m := range legal {
			if m.from == from && (m.stopsShort(squares) || m.landsShort(p, squares)) {
				return CauseCaptureUnfinished, fmt.Sprintf("the capture from %s must go on: it is %s", from, m)
			}
		}
		for _, m := range legal {
			if m.from == from {
				return CauseMustCapture, fmt.Sprintf("capturing is compulsory and the tower on %s captures differently", from)
			}
		}
		return CauseMustCapture, "capturing is compulsory"
	}
	for _, m := range legal {
		if m.from == from {
			return CauseCannotGo, fmt.Sprintf("the tower on %s cannot go there", from)
		}
	}
	return CauseNoMoves, fmt.Sprintf("the tower on %s has no legal move", from)
}

// moveSquares splits move text into squares, accepting -, :, x, ×, spaces
// and any kind of dash between them (or nothing: "c3d4").
func moveSquares(text string) ([]Square, error) {
	var squares []Square
	r := []rune(strings.TrimSpace(text))
	if len(r) == 0 {
		return nil, fmt.Errorf("empty move")
	}
	for i := 0; i < len(r); {
		c := r[i]
		if isMoveSeparator(c) {
			i++
			continue
		}
		if i+1 >= len(r) {
			return nil, fmt.Errorf("%q is not a square", string(r[i:]))
		}
		s, err := ParseSquare(string(r[i : i+2]))
		if err != nil {
			return nil, unprefixed{err}
		}
		squares = append(squares, s)
		i += 2
		if len(squares) > MaxJumps+1 {
			return nil, fmt.Errorf("too many squares for one move")
		}
	}
	if len(squares) < 2 {
		return nil, fmt.Errorf("a move needs at least two squares, e.g. c3-d4")
	}
	return squares, nil
}

// unprefixed is a ParseSquare error inside a move's reason, which has the
// package prefix already; the error itself stays reachable (errors.As).
type unprefixed struct{ err error }

func (u unprefixed) Error() string { return strings.TrimPrefix(u.err.Error(), "rules: ") }
func (u unprefixed) Unwrap() error { return u.err }

func isMoveSeparator(c rune) bool {
	switch c {
	case ':', 'x', 'X', '×', '-', '–', '—', '−', '‐':
		return true
	}
	return unicode.IsSpace(c)
}
