package review

import (
	"context"
	"fmt"
	"testing"

	"github.com/bashni/bashni/play"
)

// The refusals of an analysis are of play's kinds, found through wrapping,
// and a review still waiting is no refusal.
func TestRefusalsHaveKinds(t *testing.T) {
	for _, tc := range []struct {
		name string
		err  error
		want play.Kind
	}{
		{"ErrNoAnalysis", ErrNoAnalysis, play.Unsupported},
		{"ErrReviewsFull", ErrReviewsFull, play.Busy},
		{"ErrTooManyReviews", ErrTooManyReviews, play.TooMany},
		{"a waiting review", &QueuedError{Place: 2, err: context.DeadlineExceeded}, play.Internal},
	} {
		if got := play.KindOf(tc.err); got != tc.want {
			t.Errorf("KindOf(%s) = %v, want %v", tc.name, got, tc.want)
		}
		if got := play.KindOf(fmt.Errorf("review: game g1: %w", tc.err)); got != tc.want {
			t.Errorf("KindOf(wrapped %s) = %v, want %v", tc.name, got, tc.want)
		}
	}
}
