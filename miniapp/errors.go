package miniapp

import (
	"errors"
	"net/http"

	"github.com/bashni/bashni/play"
)

// kindStatus is the HTTP status of each kind of error (play.KindOf): what
// play refused is answered by the kind alone.
var kindStatus = map[play.Kind]int{
	play.Internal:    http.StatusInternalServerError,
	play.Invalid:     http.StatusUnprocessableEntity, // the message says why
	play.Forbidden:   http.StatusForbidden,
	play.Conflict:    http.StatusConflict, // with the board as it is now, to catch up
	play.NotFound:    http.StatusNotFound,
	play.TooMany:     http.StatusTooManyRequests,
	play.Busy:        http.StatusServiceUnavailable,
	play.Unsupported: http.StatusNotImplemented,
	play.Unavailable: http.StatusServiceUnavailable,
}

// ownStatus gives the statuses of the app's own refusals, met before play
// is asked: they are about the request, not the game.
var ownStatus = []struct {
	err    error
	status int
}{
	{ErrUnauthorized, http.StatusUnauthorized},
	{errBadRequest, http.StatusBadRequest},
	{errTooManyStreams, http.StatusTooManyRequests},
	{errChatBusy, http.StatusTooManyRequests},
	{errStreamsFull, http.StatusServiceUnavailable},
}

// statusOf maps an error to its HTTP status.
func statusOf(err error) int {
	for _, o := range ownStatus {
		if errors.Is(err, o.err) {
			return o.status
		}
	}
	return kindStatus[play.KindOf(err)]
}
