package review

import "github.com/bashni/bashni/play"

// Refusals of an analysis, of play's kinds, so the doors answer them as
// they answer play's own. A game still going on is play.ErrGameNotOver (an
// analysis would be a hint for every move).
var (
	ErrNoAnalysis     = play.Refusal(play.Unsupported, "review: game analysis is not available here") // no engine here reviews
	ErrReviewsFull    = play.Refusal(play.Busy, "review: the analysis queue is full; try again later")
	ErrTooManyReviews = play.Refusal(play.TooMany, "review: you have as many analyses queued as allowed")
)
