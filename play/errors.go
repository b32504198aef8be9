package play

import (
	"errors"

	"github.com/bashni/bashni/rules"
	"github.com/bashni/bashni/storage"
)

// Every refusal play gives is here, each with its Kind. The doors answer by
// the kind alone: the bot logs what is not a Refusal and the Mini App's
// HTTP status is the kind's; only what the player reads is chosen by the
// error itself (the bot's text table). Errors without a kind are faults.

// Kind sorts errors by how a door answers them. The zero Kind is Internal:
// an error nobody gave a kind is a fault.
type Kind uint8

const (
	// Internal: not a refusal but a fault on our side (a bug, an engine or
	// a dependency that failed). Logged; the player reads an apology.
	Internal Kind = iota
	// Invalid: the request cannot be done as asked (an illegal move, a
	// level or a time control that does not exist).
	Invalid
	// Forbidden: not this user's to do (not their game, not their turn).
	Forbidden
	// Conflict: the game has moved on since the request was made (a stale
	// board, a game over, an offer already pending).
	Conflict
	// NotFound: what the request names is not there (any more).
	NotFound
	// TooMany: the user has used up an allowance (hints, takebacks,
	// analyses queued, one try a day).
	TooMany
	// Busy: not now, ask again in a moment (a game many change at once, a
	// full analysis queue). An everyday answer under load.
	Busy
	// Unsupported: this deployment cannot do it at all (no engine here
	// reviews games).
	Unsupported
	// Unavailable: the store did not answer. Unlike Busy a fault: the
	// operator should hear of it.
	Unavailable

	numKinds = iota
)

var kindNames = [numKinds]string{"internal", "invalid", "forbidden", "conflict", "not found", "too many", "busy", "unsupported", "unavailable"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "kind(?)"
}

// Refusal reports whether errors of kind k are everyday answers to what a
// user asked, rather than faults worth logging (Internal, Unavailable).
func (k Kind) Refusal() bool { return k != Internal && k != Unavailable }

// Kinds lists every kind, for tables that must cover them all.
func Kinds() []Kind {
	ks := make([]Kind, numKinds)
	for i := range ks {
		ks[i] = Kind(i)
	}
	return ks
}

// Error is a refusal: what it says in the log, its kind and, for a
// feature's own refusals, the key of the text a player reads.
type Error struct {
	Kind    Kind
	Message string
	// Text is the catalog key of what the player reads (package texts);
	// empty for the core's refusals, whose texts are the catalog's table.
	Text string
}

func (e *Error) Error() string { return e.Message }

func refusal(k Kind, msg string) *Error { return &Error{Kind: k, Message: msg} }

// Refusal makes a feature's own refusal (package play/tournament, ...):
// its kind decides how a door answers, text is the catalog key of what
// the player reads, msg is what the log says ("pkg: lower-case"). A
// feature so keeps its refusals and their texts to itself.
func Refusal(k Kind, text, msg string) *Error { return &Error{Kind: k, Message: msg, Text: text} }

// below gives the kinds of the errors of the packages under play that its
// callers receive as they are.
var below = []struct {
	err  error
	kind Kind
}{
	{rules.ErrIllegalMove, Invalid}, // every *rules.MoveError too
	{rules.ErrAmbiguousMove, Invalid},
	{rules.ErrInvalidPosition, Invalid},
	{rules.ErrGameOver, Conflict},
	{storage.ErrNotFound, NotFound}, // a forged button, a game removed or lost
	{storage.ErrUnavailable, Unavailable},
}

// KindOf is the kind of err (not nil): a refusal's own, the kind of an
// error of rules or storage it wraps, or else Internal.
func KindOf(err error) Kind {
	if e, ok := errors.AsType[*Error](err); ok {
		return e.Kind
	}
	for _, b := range below {
		if errors.Is(err, b.err) {
			return b.kind
		}
	}
	return Internal
}

// Refusals of games: moves, challenges, draws, rematches, the AI.
var (
	ErrNotYourTurn    = refusal(Forbidden, "play: it is not your turn")
	ErrNotAPlayer     = refusal(Forbidden, "play: you are not playing in this game")
	ErrStale          = refusal(Conflict, "play: the board has changed since")
	ErrGameOver       = refusal(Conflict, "play: the game is over")
	ErrGameNotOver    = refusal(Conflict, "play: the game is still going on") // no rematch, no analysis (it would be a hint for every move)
	ErrTimeUp         = refusal(Conflict, "play: your time is up")
	ErrNoChallenge    = refusal(NotFound, "play: the challenge is gone (accepted, cancelled or expired)")
	ErrNotForYou      = refusal(Forbidden, "play: the challenge is addressed to someone else")
	ErrOwnChallenge   = refusal(Forbidden, "play: you cannot accept your own challenge")
	ErrNoDrawOffer    = refusal(Conflict, "play: there is no draw offer to answer")
	ErrDrawOfferOwn   = refusal(Forbidden, "play: you cannot answer your own draw offer")
	ErrDrawPending    = refusal(Conflict, "play: a draw offer is already pending")
	ErrAIDeclinesDraw = refusal(Conflict, "play: the AI declines the draw")
	ErrRematchOffered = refusal(Conflict, "play: you have offered a rematch already")
	ErrRematchStarted = refusal(Conflict, "play: the rematch has started already")
	ErrNoRematch      = refusal(NotFound, "play: no rematch offer is waiting (declined, withdrawn or expired)")
	ErrAITurn         = refusal(Conflict, "play: it is not the AI's turn")
	ErrBadLevel       = refusal(Invalid, "play: no such AI level")
	ErrBadColour      = refusal(Invalid, "play: unknown colour")
	ErrBadVariant     = refusal(Invalid, "play: no such rules (bashni, bashni-mp or russian)")
	ErrTooManyGames   = refusal(TooMany, "play: you have as many games in progress as allowed")
	ErrBadTimeControl = refusal(Invalid, "play: a time control is minutes+seconds, e.g. 5+3")
	ErrBusy           = refusal(Busy, "play: the game is busy; try again")
)

// Refusals of the engine's help: hints and takebacks.
var (
	ErrNotAgainstAI    = refusal(Invalid, "play: hints and takebacks are for games against the AI")
	ErrNoHintsLeft     = refusal(TooMany, "play: no hints left in this game")
	ErrNoTakeback      = refusal(Conflict, "play: there is no move of yours to take back")
	ErrNoTakebacksLeft = refusal(TooMany, "play: no takebacks left in this game")
	ErrHintRunning     = refusal(Conflict, "play: a hint for this game is being worked out already")
)

// ErrNoAI is a fault, not a refusal (no kind): the service was built
// without an AI engine, yet asked for the AI's move or a hint. ErrBadAnswer
// (remote.go) is another fault play names, and ErrApplied (events.go) is
// no refusal either but a signal the bot answers by showing what a change
// owes.
var ErrNoAI = errors.New("play: no AI engine is configured")

// Refusals of a game's pace of days per move (pace.go).
var (
	ErrBadPace          = Refusal(Invalid, "err_bad_pace", "play: a pace is days per move, 1d to 14d, and not with a live clock")
	ErrNotYourChallenge = Refusal(Forbidden, "err_not_your_challenge", "play: only the challenger sets the challenge's terms")
)
