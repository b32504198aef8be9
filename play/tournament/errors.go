package tournament

import "github.com/bashni/bashni/play"

// Refusals of a group's arena tournament, of play's kinds (the doors
// answer them as they answer the game's), each with the text the player
// reads (texts/catalog/tournament.*.yaml).
var (
	ErrNotSetUp      = play.Refusal(play.Unsupported, "err_no_tournaments", "tournament: tournaments are not set up")
	ErrBadDuration   = play.Refusal(play.Invalid, "err_bad_duration", "tournament: a tournament lasts from 5 minutes to 3 hours, e.g. 30m or 1h")
	ErrNotInGroup    = play.Refusal(play.Invalid, "err_tournament_in_chat", "tournament: a tournament is played in a group")
	ErrRuns          = play.Refusal(play.Conflict, "err_tournament_runs", "tournament: a tournament already runs in this chat")
	ErrNone          = play.Refusal(play.NotFound, "err_no_tournament", "tournament: no tournament runs in this chat")
	ErrOver          = play.Refusal(play.Conflict, "err_tournament_over", "tournament: this tournament has ended")
	ErrAlreadyJoined = play.Refusal(play.Conflict, "err_already_joined", "tournament: you are in this tournament already")
	ErrNotJoined     = play.Refusal(play.Forbidden, "err_not_in_tournament", "tournament: you are not in this tournament")
)
