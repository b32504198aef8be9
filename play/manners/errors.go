package manners

import (
	"fmt"

	"github.com/bashni/bashni/play"
)

// The refusals of the package: each says what the player reads (its text
// key) and how a door answers it (its kind).
var (
	ErrNotBetweenPeople = play.Refusal(play.Invalid, "err_manners_people", "manners: only in a game between two people")
	ErrNotSlow          = play.Refusal(play.Invalid, "err_if_not_slow", "manners: conditional moves are for games without a live clock")
	ErrYourMove         = play.Refusal(play.Conflict, "err_if_your_move", "manners: it is your move: play it, then leave a line for the answer")
	ErrBadLine          = play.Refusal(play.Invalid, "err_if_syntax", "manners: a line is pairs of moves: their move, your answer")
	ErrLineTooLong      = play.Refusal(play.Invalid, "err_if_too_long", "manners: a line has at most 10 pairs")
	ErrNoLine           = play.Refusal(play.Conflict, "err_if_none", "manners: you have no game waiting for your opponent's move")
	ErrManyGames        = play.Refusal(play.Conflict, "err_if_many", "manners: the line fits several of your games: send it as a reply to the card")
	ErrTooLateToAbort   = play.Refusal(play.Conflict, "err_abort_late", "manners: both sides have moved: the game can no longer be aborted")
	ErrNoTakebackAsk    = play.Refusal(play.Conflict, "err_takeback_none", "manners: no takeback is asked for on this board")
	ErrTakebackAsked    = play.Refusal(play.Conflict, "err_takeback_asked", "manners: a takeback is asked for already")
	ErrNotYourAsk       = play.Refusal(play.Conflict, "err_takeback_theirs", "manners: the takeback is your opponent's to answer")
	ErrNothingToTake    = play.Refusal(play.Conflict, "err_takeback_nothing", "manners: you have no last move to take back: it is your move")
)

// LineError is a line of conditional moves refused at one of its moves:
// the move (Index from 0, in the order typed) and why (a *rules.MoveError
// or rules.ErrGameOver).
type LineError struct {
	Index int
	Move  string
	Err   error
}

func (e *LineError) Error() string {
	return fmt.Sprintf("manners: move %d of the line, %s: %v", e.Index+1, e.Move, e.Err)
}

func (e *LineError) Unwrap() error { return e.Err }
