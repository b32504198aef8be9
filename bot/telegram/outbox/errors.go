package outbox

import (
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"
)

var (
	// ErrQueueFull is returned by Enqueue when the chat's queue (or the
	// queue of query answers) holds Options.MaxQueue replies already.
	ErrQueueFull = errors.New("outbox: queue full")
	// ErrNoJournal is returned by Commit when the outbox keeps nothing
	// in a store: the caller marks the update itself.
	ErrNoJournal = errors.New("outbox: no journal")
	// ErrClosed is returned by Enqueue after Run has returned.
	ErrClosed = errors.New("outbox: closed")
	// ErrShutdown is passed to Done for a reply still unsent when the drain
	// deadline passed, and wrapped in Run's error.
	ErrShutdown = errors.New("outbox: not sent before shutdown")
	// ErrSuperseded is passed to Done for a reply that a newer one with
	// the same Key replaced before it was sent.
	ErrSuperseded = errors.New("outbox: replaced by a newer reply before it was sent")
)

// outcome is what to do after an attempt.
type outcome int

const (
	sent        outcome = iota // done, successfully
	notModified                // an edit that changed nothing: done, successfully
	tooMany                    // 429: hold the chat, then send again
	forbidden                  // 403: the chat is closed to the bot
	transient                  // network or server trouble: back off, send again
	final                      // any other error: give up
)

// classify decides what an attempt's error means. resp is consulted because
// tgbotapi leaves Error.Code unset for multipart uploads.
func classify(resp *tgbotapi.APIResponse, err error) (outcome, time.Duration) {
	if err == nil {
		return sent, 0
	}
	var tgErr *tgbotapi.Error
	if e, ok := errors.AsType[*tgbotapi.Error](err); ok {
		tgErr = e
	} else if e, ok := errors.AsType[tgbotapi.Error](err); ok {
		tgErr = &e
	}
	if tgErr == nil {
		var syn *json.SyntaxError
		var ne net.Error
		switch {
		case errors.As(err, &ne), errors.As(err, new(*url.Error)),
			errors.As(err, &syn), errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
			// No answer, or not one from the Bot API (a proxy's HTML
			// error page): the request may not have arrived.
			return transient, 0
		}
		return final, 0 // the request could not be built
	}
	code := tgErr.Code
	if code == 0 && resp != nil {
		code = resp.ErrorCode
	}
	if code == 0 {
		code = codeFromDescription(tgErr.Message)
	}
	switch {
	case code == http.StatusTooManyRequests:
		return tooMany, time.Duration(tgErr.RetryAfter) * time.Second
	case code == http.StatusForbidden:
		return forbidden, 0
	case code == http.StatusBadRequest && strings.Contains(tgErr.Message, "message is not modified"):
		return notModified, 0
	case code >= 500:
		return transient, 0
	}
	return final, 0
}

func codeFromDescription(desc string) int {
	for prefix, code := range map[string]int{
		"Too Many Requests": http.StatusTooManyRequests,
		"Forbidden":         http.StatusForbidden,
		"Bad Request":       http.StatusBadRequest,
	} {
		if strings.HasPrefix(desc, prefix) {
			return code
		}
	}
	return 0
}

// closesChat reports whether a 403 means no request to the chat can
// succeed now, as opposed to a missing right for one kind of message.
func closesChat(err error) bool {
	msg := err.Error()
	for _, s := range []string{"blocked", "deactivated", "can't initiate", "kicked", "not a member", "bots can't send messages to bots"} {
		if strings.Contains(msg, s) {
			return true
		}
	}
	return false
}
