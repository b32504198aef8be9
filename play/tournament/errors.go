package tournament

import "github.com/bashni/bashni/play"

// Refusals of a group's arena tournament, of play's kinds: the doors
// answer them as they answer the game's.
var (
	ErrNotSetUp      = &play.Error{Kind: play.Unsupported, Message: "tournament: tournaments are not set up"}
	ErrBadDuration   = &play.Error{Kind: play.Invalid, Message: "tournament: a tournament lasts from 5 minutes to 3 hours, e.g. 30m or 1h"}
	ErrNotInGroup    = &play.Error{Kind: play.Invalid, Message: "tournament: a tournament is played in a group"}
	ErrRuns          = &play.Error{Kind: play.Conflict, Message: "tournament: a tournament already runs in this chat"}
	ErrNone          = &play.Error{Kind: play.NotFound, Message: "tournament: no tournament runs in this chat"}
	ErrOver          = &play.Error{Kind: play.Conflict, Message: "tournament: this tournament has ended"}
	ErrAlreadyJoined = &play.Error{Kind: play.Conflict, Message: "tournament: you are in this tournament already"}
	ErrNotJoined     = &play.Error{Kind: play.Forbidden, Message: "tournament: you are not in this tournament"}
)
