package slow

import "github.com/bashni/bashni/play"

// The refusals of slow play, of the core's kinds, each naming the text the
// player reads (texts/catalog/slow.*.yaml).
var (
	ErrBadAway    = play.Refusal(play.Invalid, "err_bad_away", "slow: an absence is 1 to 30 days, e.g. /away 5d")
	ErrAllowance  = play.Refusal(play.TooMany, "err_away_allowance", "slow: the absence is longer than what is left of this year's allowance")
	ErrNotAway    = play.Refusal(play.Conflict, "err_not_away", "slow: you are not away")
	ErrBadConfirm = play.Refusal(play.Invalid, "", "slow: no such confirmation setting")
)
