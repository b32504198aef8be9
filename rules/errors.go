package rules

import (
	"errors"
	"fmt"
	"strings"
)

// Sentinel errors callers branch on with errors.Is.
var (
	// ErrInvalidPosition wraps every error about position text.
	ErrInvalidPosition = errors.New("rules: invalid position")
	// ErrIllegalMove wraps every error about a move that cannot be played.
	ErrIllegalMove = errors.New("rules: illegal move")
	// ErrAmbiguousMove is returned when a short move text matches several
	// legal moves.
	ErrAmbiguousMove = errors.New("rules: ambiguous move")
	// ErrGameOver is returned when a move is made in a finished game.
	ErrGameOver = errors.New("rules: the game is over")
)

// PositionError names the offending entry of a position text and why it is
// wrong.
type PositionError struct {
	Entry  string // the entry as written, e.g. "c3wbw"; empty for the whole text
	Reason string
}

func (e *PositionError) Error() string {
	if e.Entry == "" {
		return "rules: invalid position: " + e.Reason
	}
	return fmt.Sprintf("rules: invalid position entry %q: %s", e.Entry, e.Reason)
}

// Unwrap lets errors.Is(err, ErrInvalidPosition) hold.
func (e *PositionError) Unwrap() error { return ErrInvalidPosition }

// MoveError says why a move text was refused and lists what would be legal.
type MoveError struct {
	Input  string
	Reason string // in English, for logs and the command line
	Cause  Cause  // the reason as a value, for callers that translate it
	Square Square // the square the cause is about, where it names one
	Name   string // the light square written, for CauseLightSquare
	Legal  []Move
	kind   error // ErrIllegalMove or ErrAmbiguousMove
}

// Cause classifies why a move was refused.
type Cause uint8

const (
	CauseSyntax       Cause = iota // the text is not a move
	CauseNoTower                   // no tower on the start square
	CauseNotYours                  // the tower belongs to the opponent
	CauseMustCapture               // capturing is compulsory
	CauseCannotGo                  // the tower cannot go there
	CauseNoMoves                   // that tower, or the side, has no legal move
	CauseAmbiguous                 // several captures match a short form
	CauseNotLegalHere              // a Move value that is not legal in the position
	CauseLightSquare               // the text names a light square (MoveError.Name)
	// CauseCaptureUnfinished: the text is the start of a legal capture
	// that must go on (docs/rules.md, Captures); the player did capture,
	// so "capturing is compulsory" would not say what they broke.
	CauseCaptureUnfinished
)

func (e *MoveError) Error() string {
	var b strings.Builder
	if e.kind == ErrAmbiguousMove {
		b.WriteString("rules: ambiguous move ")
	} else {
		b.WriteString("rules: illegal move ")
	}
	fmt.Fprintf(&b, "%q: %s", e.Input, e.Reason)
	if len(e.Legal) > 0 {
		if e.kind == ErrAmbiguousMove {
			b.WriteString("; it could be ")
		} else {
			b.WriteString("; legal: ")
		}
		b.WriteString(JoinMoves(SortedMoves(e.Legal), ", "))
	}
	return b.String()
}

// Unwrap lets errors.Is(err, ErrIllegalMove) or ErrAmbiguousMove hold.
func (e *MoveError) Unwrap() error {
	if e.kind == nil {
		return ErrIllegalMove
	}
	return e.kind
}
