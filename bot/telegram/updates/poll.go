package updates

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/bashni/bashni/bot/telegram"
	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"
)

// PollOptions configure Poll. Zero values take the defaults given.
type PollOptions struct {
	// Timeout is how long Telegram holds a getUpdates call open when it
	// has no updates (default 30 s; whole seconds, at least 1).
	Timeout time.Duration
	// Limit is the most updates one call returns (default 100).
	Limit int
	// AllowedUpdates lists the update types wanted (nil: Telegram's
	// default, everything but chat_member). Telegram remembers the list.
	AllowedUpdates []string
	// Offset is the first update_id wanted; 0 starts after the last
	// confirmed one.
	Offset int

	// Workers handle updates concurrently (default 8); MaxPending bounds
	// the updates fetched and not yet handled (default 256), beyond which
	// Poll stops fetching.
	Workers    int
	MaxPending int
	// DrainTimeout is how long handlers may go on after ctx ends (default
	// 10 s). Then their context is cancelled and updates not started are
	// dropped.
	DrainTimeout time.Duration

	// MinBackoff and MaxBackoff bound the wait after a failed getUpdates,
	// doubled after each failure in a row (defaults 500 ms and 30 s).
	MinBackoff time.Duration
	MaxBackoff time.Duration

	// Logger receives errors and warnings (default slog.Default()).
	Logger *slog.Logger
	// OnFetch, if set, hears the outcome of each getUpdates call (nil:
	// Telegram answered), for health checks.
	OnFetch func(err error)
}

func (o PollOptions) withDefaults() PollOptions {
	if o.Timeout == 0 {
		o.Timeout = 30 * time.Second
	}
	// Telegram counts whole seconds, and 0 would make the loop spin.
	o.Timeout = max(o.Timeout.Truncate(time.Second), time.Second)
	if o.Limit <= 0 || o.Limit > 100 {
		o.Limit = 100
	}
	if o.Workers <= 0 {
		o.Workers = 8
	}
	if o.MaxPending <= 0 {
		o.MaxPending = 256
	}
	if o.DrainTimeout <= 0 {
		o.DrainTimeout = 10 * time.Second
	}
	if o.MinBackoff <= 0 {
		o.MinBackoff = 500 * time.Millisecond
	}
	if o.MaxBackoff <= 0 {
		o.MaxBackoff = 30 * time.Second
	}
	o.MaxBackoff = max(o.MaxBackoff, o.MinBackoff)
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	return o
}

// ErrUnauthorized is returned by Poll when Telegram refuses the token (401)
// or knows no such bot (404): polling on cannot help.
var ErrUnauthorized = errors.New("updates: token refused")

// Poll fetches updates by long polling and hands them to handle until ctx
// ends, then lets the handlers finish (see PollOptions.DrainTimeout),
// confirms the handled updates to Telegram and returns nil. It returns
// early only with ErrUnauthorized. Failed calls are retried with backoff.
//
// getUpdates takes no context, so Poll runs each call on a copy of api
// whose HTTP client binds the request to ctx: ending ctx aborts the call
// in flight at once. Only one Poll may run per bot: Telegram ends the
// older of two concurrent getUpdates calls with 409.
func Poll(ctx context.Context, api *tgbotapi.BotAPI, opts PollOptions, handle HandleFunc) error {
	if api == nil || handle == nil {
		return errors.New("updates: Poll needs an api and a handler")
	}
	opts = opts.withDefaults()
	p := &poller{api: api, opts: opts, log: opts.Logger}
	p.warnClientTimeout()
	d := newDispatcher(ctx, opts.Workers, opts.MaxPending, handle, p.log)

	// An update is confirmed to Telegram (by a later getUpdates offset)
	// only once it has been handled, so one whose handling a crash cut
	// short comes again after a restart. Telegram's offset confirms
	// everything below it, so the offset is the oldest update still being
	// handled: the updates after it come again in each answer and are
	// skipped, while new ones are dispatched at once (a slow chat does not
	// hold up the others).
	tr := newTracker(opts.Offset)
	confirmed := opts.Offset
	var err error
	failures := 0
	for ctx.Err() == nil {
		offset := tr.offset()
		ups, ferr := p.fetch(ctx, offset)
		if ctx.Err() != nil {
			break
		}
		if opts.OnFetch != nil {
			opts.OnFetch(ferr)
		}
		if ferr != nil {
			var goOn bool
			if goOn, err = p.retry(ctx, ferr, failures); !goOn {
				break
			}
			failures++
			continue
		}
		failures = 0
		confirmed = offset
		if fresh := dispatchNew(ctx, d, tr, ups); fresh == 0 && tr.busy() {
			// Telegram answers at once while updates are unconfirmed:
			// rather than spin, wait for one to be handled (or a moment,
			// to see new ones).
			tr.waitProgress(ctx, time.Second)
		}
	}
	p.finish(ctx, d, tr, confirmed, err == nil)
	return err
}

// warnClientTimeout warns when the api's HTTP client would end a long poll
// before Telegram answers it.
func (p *poller) warnClientTimeout() {
	if c, ok := p.api.Client.(*http.Client); ok && c.Timeout > 0 && c.Timeout <= p.opts.Timeout {
		p.log.Warn("updates: the HTTP client's timeout ends long polls early; make it longer than the poll timeout",
			"client_timeout", c.Timeout, "poll_timeout", p.opts.Timeout)
	}
}

// retry answers a failed getUpdates, the failures-th in a row: it waits
// the backoff and says to go on, or says to stop, with ErrUnauthorized
// when the token is refused (polling on cannot help) or nil when ctx ended
// during the wait.
func (p *poller) retry(ctx context.Context, ferr error, failures int) (goOn bool, err error) {
	if isUnauthorized(ferr) {
		return false, fmt.Errorf("%w: %w", ErrUnauthorized, ferr)
	}
	wait := telegram.Backoff(p.opts.MinBackoff, p.opts.MaxBackoff, failures)
	if strings.Contains(ferr.Error(), "webhook is active") {
		p.log.Error("updates: a webhook is set, so Telegram refuses to be polled; delete it or run in webhook mode", "retry_in", wait)
	} else {
		p.log.Warn("updates: getUpdates failed", "err", ferr, "retry_in", wait, "failures", failures+1)
	}
	return telegram.Sleep(ctx, wait), nil
}

// dispatchNew dispatches the updates of ups not dispatched before and
// returns how many. One that cannot be dispatched (ctx ended) stays
// unconfirmed and comes again.
func dispatchNew(ctx context.Context, d *dispatcher, tr *tracker, ups []tgbotapi.Update) int {
	fresh := 0
	for _, u := range ups {
		if !tr.isNew(u.UpdateID) {
			continue // confirmed, or dispatched already
		}
		if derr := d.dispatchThen(ctx, u, tr.add(u.UpdateID)); derr != nil {
			tr.undo(u.UpdateID)
			break
		}
		fresh++
	}
	return fresh
}

// finish lets the handlers finish (up to DrainTimeout), waits for the
// getUpdates in flight and, if confirm, confirms to Telegram what was
// handled since the last offset it was sent.
func (p *poller) finish(ctx context.Context, d *dispatcher, tr *tracker, confirmed int, confirm bool) {
	drainCtx, cancelDrain := context.WithTimeout(context.WithoutCancel(ctx), p.opts.DrainTimeout)
	defer cancelDrain()
	if n := d.drain(drainCtx); n > 0 {
		p.log.Warn("updates: updates dropped at shutdown; Telegram will deliver them again", "count", n)
	}
	// Its own deadline: the drain may have used all of its own.
	finishCtx, cancelFinish := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancelFinish()
	p.wait(finishCtx)
	if offset := tr.offset(); offset != confirmed && confirm {
		p.confirm(finishCtx, offset)
	}
}

// tracker knows which fetched updates are being handled, for Poll.
type tracker struct {
	mu       sync.Mutex
	next     int          // past the highest update dispatched (or the start offset)
	pending  map[int]bool // dispatched and not handled; true once dropped
	progress chan struct{}
}

func newTracker(offset int) *tracker {
	return &tracker{next: offset, pending: map[int]bool{}, progress: make(chan struct{}, 1)}
}

// offset is what the next getUpdates asks from: the oldest update not
// handled, or past every one dispatched.
func (t *tracker) offset() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	off := t.next
	for id := range t.pending {
		off = min(off, id)
	}
	return off
}

// isNew reports whether update id has not been dispatched yet.
func (t *tracker) isNew(id int) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return id >= t.next
}

// add counts update id in and returns the dispatcher's done callback.
func (t *tracker) add(id int) func(handled bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.pending[id] = false
	t.next = id + 1
	return func(handled bool) {
		t.mu.Lock()
		if handled {
			delete(t.pending, id)
		} else {
			t.pending[id] = true // dropped at shutdown: stays unconfirmed
		}
		t.mu.Unlock()
		select {
		case t.progress <- struct{}{}:
		default:
		}
	}
}

// undo forgets an update that could not be dispatched.
func (t *tracker) undo(id int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	delete(t.pending, id)
	t.next = id
}

// busy reports whether updates are being handled.
func (t *tracker) busy() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.pending) > 0
}

// waitProgress waits until an update is handled, d passes or ctx ends.
func (t *tracker) waitProgress(ctx context.Context, d time.Duration) {
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-t.progress:
	case <-timer.C:
	case <-ctx.Done():
	}
}

// poller makes the getUpdates calls for Poll.
type poller struct {
	api  *tgbotapi.BotAPI
	opts PollOptions
	log  *slog.Logger
	// inflight is closed when the last getUpdates goroutine has returned.
	inflight chan struct{}
}

type fetched struct {
	ups []tgbotapi.Update
	err error
}

// fetch calls getUpdates. It returns when the call does or ctx ends,
// whichever is first; the call, bound to ctx, then ends by itself soon.
func (p *poller) fetch(ctx context.Context, offset int) ([]tgbotapi.Update, error) {
	cfg := tgbotapi.UpdateConfig{
		Offset:         offset,
		Limit:          p.opts.Limit,
		Timeout:        int(p.opts.Timeout / time.Second),
		AllowedUpdates: p.opts.AllowedUpdates,
	}
	// A call that Telegram (or a proxy) never answers must still end.
	callCtx, cancel := context.WithTimeout(ctx, p.opts.Timeout+15*time.Second)
	res := make(chan fetched, 1)
	done := make(chan struct{})
	p.inflight = done
	go func() {
		defer close(done)
		defer cancel()
		ups, err := p.bound(callCtx).GetUpdates(cfg)
		res <- fetched{ups, p.redact(err)}
	}()
	select {
	case r := <-res:
		return r.ups, r.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// confirm tells Telegram the updates before offset are handled, with a
// getUpdates call that does not wait.
func (p *poller) confirm(ctx context.Context, offset int) {
	cfg := tgbotapi.UpdateConfig{Offset: offset, Limit: 1, AllowedUpdates: p.opts.AllowedUpdates}
	if _, err := p.bound(ctx).GetUpdates(cfg); err != nil {
		p.log.Warn("updates: confirming handled updates failed; they may come again", "offset", offset, "err", p.redact(err))
	}
}

// wait waits for the last getUpdates goroutine to end, or for ctx.
func (p *poller) wait(ctx context.Context) {
	if p.inflight == nil {
		return
	}
	select {
	case <-p.inflight:
	case <-ctx.Done():
		p.log.Warn("updates: a getUpdates call is still in flight; it ends with its timeout")
	}
}

// bound returns a copy of the api whose requests end with ctx. The copy
// shares nothing mutable with the original: BotAPI holds only settings.
func (p *poller) bound(ctx context.Context) *tgbotapi.BotAPI {
	c := *p.api
	base := p.api.Client
	if base == nil {
		base = http.DefaultClient
	}
	c.Client = ctxClient{ctx: ctx, base: base}
	return &c
}

type ctxClient struct {
	ctx  context.Context
	base tgbotapi.HTTPClient
}

func (c ctxClient) Do(req *http.Request) (*http.Response, error) {
	return c.base.Do(req.WithContext(c.ctx))
}

// redact removes the token from an error: the api's own, and anything
// that looks like one.
func (p *poller) redact(err error) error {
	return telegram.Redact(err, p.api.Token)
}

func isUnauthorized(err error) bool {
	e, ok := errors.AsType[*tgbotapi.Error](err)
	if !ok {
		return false
	}
	return e.Code == http.StatusUnauthorized || e.Code == http.StatusNotFound
}
