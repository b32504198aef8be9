package review

import "github.com/bashni/bashni/play"

// Refusals of an analysis, of play's kinds, so the doors answer them as
// they answer play's own. A game still going on is play.ErrGameNotOver (an
// analysis would be a hint for every move).
var (
	ErrNoAnalysis     = play.Refusal(play.Unsupported, "err_no_analysis", "review: game analysis is not available here") // no engine here reviews
	ErrReviewsFull    = play.Refusal(play.Busy, "err_reviews_full", "review: the analysis queue is full; try again later")
	ErrTooManyReviews = play.Refusal(play.TooMany, "err_too_many_reviews", "review: you have as many analyses queued as allowed")
)
