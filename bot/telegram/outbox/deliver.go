package outbox

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"time"

	"github.com/bashni/bashni/bot/telegram"
	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"
)

// Delivery: one reply's attempts, from its pace to Telegram's answer, and
// what each answer means (errors.go classifies it): sent, held and tried
// again (429), backed off and tried again (network, 5xx), the chat closed
// (403) or refused for good.

// deliver sends one reply, retrying as its errors allow, and finishes it.
func (o *Outbox) deliver(ctx context.Context, it *item, lost *countLost) {
	// Drawn when it reaches the head of its chat's queue, before the
	// pace: the chat's budget is measured at the wait, and a drawing
	// after it would bring two messages closer than the pace allows.
	if !o.resolveLazy(ctx, it) {
		o.finish(it, nil, nil)
		return
	}
	for attempt := 0; o.try(ctx, it, attempt, lost); attempt++ {
	}
}

// try makes one attempt at sending it, paced, and settles its outcome; it
// reports whether to try again.
func (o *Outbox) try(ctx context.Context, it *item, attempt int, lost *countLost) (again bool) {
	if err := o.pace(ctx, it.lane, it.req.unpaced); err != nil {
		o.finish(it, nil, ErrShutdown)
		lost.add()
		return false
	}
	// A board drawn at send time counts as shown from its first
	// attempt: a retry (after a 429) is the same showing.
	if it.lane != nil && (attempt == 0 || it.r.Lazy == nil) && o.stale(ctx, it) {
		<-o.sem
		o.finish(it, nil, ErrSuperseded)
		return false
	}
	resp, err := o.call(it)
	what, retryAfter := classify(resp, err)
	// Made only when something is logged: a JSON handler formats the
	// attributes of With at once, on every delivery otherwise.
	log := func() *slog.Logger {
		return o.log.With("method", it.req.method, "chat", it.r.ChatID, "attempt", attempt+1)
	}
	switch what {
	case sent:
		var msg *tgbotapi.Message
		if it.r.Done != nil || it.r.Record != nil { // only callbacks read the message
			msg = decodeMessage(resp, log())
		}
		o.recordSent(ctx, it, msg, log)
		o.tellShown(ctx, it)
		o.finish(it, msg, nil)
	case notModified:
		o.tellShown(ctx, it)
		o.finish(it, nil, nil)
	case tooMany:
		return o.floodControl(ctx, it, attempt, retryAfter, err, log, lost)
	case transient:
		return o.retryLater(ctx, it, attempt, err, log, lost)
	case forbidden:
		log().Info("outbox: forbidden", "user", it.r.UserID, "err", err)
		o.closeChat(it, err)
		// Before finish, so that a Flush returning means OnBlocked was told.
		if it.r.UserID != 0 && o.opts.OnBlocked != nil {
			o.safely("OnBlocked", func() { o.opts.OnBlocked(it.r.UserID) })
		}
		o.finish(it, nil, err)
	default:
		log().Warn("outbox: request refused", "err", err)
		o.tellRefused(ctx, it, err)
		o.finish(it, nil, err)
	}
	return false
}

// floodControl answers a 429: the chat is held for retry_after (shared
// with the other replicas through the pacer), and it is tried again. A
// reply the journal keeps is owed to a player (a card's board, the AI's
// answer, a result), and a 429 is Telegram saying when it will take it,
// so it is tried again however often and however long it is told to
// wait: giving it up would delete what is owed unsent, and a card would
// stay on an old board (issue 38). The lane is held meanwhile and new
// work to the chat is refused at the door (Admit), so nothing grows.
// A reply not kept (a tap's answer, which expires within seconds) is
// given up past the options' bounds.
func (o *Outbox) floodControl(ctx context.Context, it *item, attempt int, retryAfter time.Duration, err error, log func() *slog.Logger, lost *countLost) (again bool) {
	retryAfter = max(retryAfter, time.Second)
	if it.lane != nil {
		o.mu.Lock()
		it.lane.hold = time.Now().Add(retryAfter)
		o.mu.Unlock()
		if o.opts.Pacer != nil && it.lane.key != (laneKey{}) {
			if err := o.opts.Pacer.Hold(ctx, it.lane.key.name(), retryAfter); err != nil {
				log().Warn("outbox: hold not shared", "err", err)
			}
		}
	}
	if it.jid == "" && (attempt >= o.opts.MaxRetries || retryAfter > o.opts.MaxRetryAfter) {
		log().Warn("outbox: flood control, giving up", "retry_after", retryAfter, "err", err)
		o.finish(it, nil, err)
		return false
	}
	log().Info("outbox: flood control, holding the chat", "retry_after", retryAfter)
	if it.lane == nil && !telegram.Sleep(ctx, retryAfter) {
		o.finish(it, nil, ErrShutdown)
		lost.add()
		return false
	}
	return true
}

// retryLater answers a failure that may pass (a network error, a 5xx):
// tried again after a back-off doubling with each attempt, up to the
// options' retries for a reply not kept; a kept one is owed, and is tried
// until Telegram answers, the back-off capped at MaxRetryAfter (a
// Telegram outage delays a card's board, it does not lose it).
func (o *Outbox) retryLater(ctx context.Context, it *item, attempt int, err error, log func() *slog.Logger, lost *countLost) (again bool) {
	if it.jid == "" && attempt >= o.opts.MaxRetries {
		log().Warn("outbox: request failed, giving up", "err", err)
		o.finish(it, nil, err)
		return false
	}
	wait := min(o.opts.Backoff<<min(attempt, 20), o.opts.MaxRetryAfter)
	log().Info("outbox: request failed, retrying", "err", err, "backoff", wait)
	if !telegram.Sleep(ctx, wait) {
		o.finish(it, nil, ErrShutdown)
		lost.add()
		return false
	}
	return true
}

// call makes one attempt. It returns the error with the token redacted.
func (o *Outbox) call(it *item) (*tgbotapi.APIResponse, error) {
	if it.lane != nil {
		defer func() { <-o.sem }()
	}
	start := time.Now()
	var resp *tgbotapi.APIResponse
	var err error
	if it.r.Req != nil {
		resp, err = o.api.Request(it.r.Req)
	} else {
		resp, err = o.api.MakeRequest(it.r.Call.Method, it.r.Call.Params)
	}
	err = telegram.Redact(err, "")
	if o.opts.OnCall != nil {
		o.safely("OnCall", func() { o.opts.OnCall(it.req.method, err, time.Since(start)) })
	}
	return resp, err
}

// closeChat fails the replies queued behind it after a 403 that closes
// the chat: they would get the same answer.
func (o *Outbox) closeChat(it *item, err error) {
	if it.lane == nil || !closesChat(err) {
		return
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	for _, q := range it.lane.queue {
		q.closedBy = err
	}
}

// decodeMessage returns the Message a method answered with, or nil for
// methods that answer true.
func decodeMessage(resp *tgbotapi.APIResponse, log *slog.Logger) *tgbotapi.Message {
	if resp == nil {
		return nil
	}
	raw := bytes.TrimSpace(resp.Result)
	if len(raw) == 0 || raw[0] != '{' {
		return nil
	}
	var m tgbotapi.Message
	if err := json.Unmarshal(raw, &m); err != nil {
		log.Warn("outbox: undecodable result", "err", err)
		return nil
	}
	return &m
}
