package miniapp

import (
	"errors"
	"fmt"
	"net/http"
	"testing"

	"github.com/bashni/bashni/play"
	"github.com/bashni/bashni/play/review"
	"github.com/bashni/bashni/play/training"
	"github.com/bashni/bashni/rules"
	"github.com/bashni/bashni/storage"
)

// Every kind has a status of its own class: faults are 5xx, and so are
// the refusals that say "not now" (Busy) or "not here" (Unsupported);
// every other refusal is the request's fault, 4xx.
func TestStatusByKind(t *testing.T) {
	for _, k := range play.Kinds() {
		want, ok := kindStatus[k]
		if !ok {
			t.Errorf("kind %v has no status", k)
			continue
		}
		if got := statusOf(fmt.Errorf("wrapped: %w", &play.Error{Kind: k, Message: "play: " + k.String()})); got != want {
			t.Errorf("kind %v: status %d, want %d", k, got, want)
		}
		server := k == play.Busy || k == play.Unsupported || !k.Refusal()
		if server != (want >= 500) {
			t.Errorf("kind %v: status %d, yet a refusal of the request is %v", k, want, !server)
		}
	}
}

// The statuses the Mini App answered before there were kinds, each error
// as it was mapped one by one: the kinds keep them all.
func TestStatusAsBeforeKinds(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want int
	}{
		{ErrUnauthorized, http.StatusUnauthorized},
		{errBadRequest, http.StatusBadRequest},
		{errTooManyStreams, http.StatusTooManyRequests},
		{errStreamsFull, http.StatusServiceUnavailable},
		{storage.ErrNotFound, http.StatusNotFound},
		{play.ErrNotAPlayer, http.StatusForbidden},
		{play.ErrNotYourTurn, http.StatusForbidden},
		{play.ErrDrawOfferOwn, http.StatusForbidden},
		{play.ErrTimeUp, http.StatusConflict},
		{&play.TimeUpError{}, http.StatusConflict},
		{play.ErrGameNotOver, http.StatusConflict},
		{review.ErrNoAnalysis, http.StatusNotImplemented},
		{review.ErrTooManyReviews, http.StatusTooManyRequests},
		{review.ErrReviewsFull, http.StatusServiceUnavailable},
		{play.ErrAIDeclinesDraw, http.StatusConflict},
		{play.ErrStale, http.StatusConflict},
		{play.ErrGameOver, http.StatusConflict},
		{play.ErrDrawPending, http.StatusConflict},
		{play.ErrNoDrawOffer, http.StatusConflict},
		{play.ErrBusy, http.StatusServiceUnavailable},
		{fmt.Errorf("storage: redis: get: %w: %w", storage.ErrUnavailable, errors.New("i/o timeout")), http.StatusServiceUnavailable},
		{&rules.MoveError{Input: "h6-h5", Cause: rules.CauseNotLegalHere}, http.StatusUnprocessableEntity},
		// The puzzle trainer's own mapping.
		{training.ErrNoPuzzle, http.StatusNotFound},
		{training.ErrNoPuzzlesSet, http.StatusNotFound},
		{training.ErrStalePuzzle, http.StatusConflict},
		{errors.New("disk on fire"), http.StatusInternalServerError},
	} {
		if got := statusOf(tc.err); got != tc.want {
			t.Errorf("%v: status %d, want %d", tc.err, got, tc.want)
		}
	}
}
