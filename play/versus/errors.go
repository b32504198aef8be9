package versus

import "github.com/bashni/bashni/play"

// The refusals of the matches between groups, of the core's kinds, each
// naming the text the reader sees (texts/catalog/versus.*.yaml).
var (
	ErrNoChallenge = play.Refusal(play.NotFound, "err_versus_no_challenge", "versus: no such challenge, or it has expired")
	ErrTaken       = play.Refusal(play.Conflict, "err_versus_taken", "versus: another group has accepted this challenge")
	ErrSameChat    = play.Refusal(play.Invalid, "err_versus_same_chat", "versus: a group cannot play itself")
	ErrBadPace     = play.Refusal(play.Invalid, "err_versus_bad_pace", "versus: not a pace on offer")
	ErrOff         = play.Refusal(play.Forbidden, "err_versus_off", "versus: an administrator has turned matches between groups off here")
	ErrBadQuorum   = play.Refusal(play.Invalid, "err_versus_bad_quorum", "versus: a quorum is from 1 to 50 members")
	ErrNotGroup    = play.Refusal(play.Invalid, "err_versus_not_group", "versus: matches are between group chats")
	ErrNoMatch     = play.Refusal(play.NotFound, "err_versus_no_match", "versus: this group has no match under way")
)
