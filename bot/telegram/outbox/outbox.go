package outbox

import (
	"context"
	"errors"
	"log/slog"
	"maps"
	"runtime/debug"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"
	"golang.org/x/time/rate"
)

// The outbox's front door: New, Enqueue and Commit prepare a reply and
// queue it (kept in the journal first, when there is one), and the count of
// pending replies that Flush and Run's drain wait on.

// Requester sends a request to the Bot API; *tgbotapi.BotAPI is one.
// Request, unlike Send, works for methods that return true rather than a
// Message.
type Requester interface {
	Request(c tgbotapi.Chattable) (*tgbotapi.APIResponse, error)
	MakeRequest(endpoint string, params tgbotapi.Params) (*tgbotapi.APIResponse, error)
}

var _ Requester = (*tgbotapi.BotAPI)(nil)

// Outbox paces and sends replies. Create it with New, feed it with Enqueue,
// and run it with Run.
type Outbox struct {
	api     Requester
	resolve atomic.Pointer[Resolve]
	record  atomic.Pointer[Recorder]
	refused atomic.Pointer[Refused]
	shown   atomic.Pointer[Shown]
	opts    Options
	log     *slog.Logger
	global  *rate.Limiter
	sem     chan struct{} // bounds paced requests in flight
	prio    chan *item    // query answers; sends to it happen under mu
	kick    chan struct{} // tells Run that lanes wait to be started
	acks    chan ackReq   // journal ids of replies done with, for the acker

	mu      sync.Mutex
	lanes   map[laneKey]*lane
	wake    []*lane // lanes with replies and no goroutine yet
	pending int     // replies enqueued and not yet done
	idle    chan struct{}
	started bool
	closed  bool
}

// New returns an Outbox that sends through api.
func New(api Requester, opts Options) *Outbox {
	opts = opts.withDefaults()
	idle := make(chan struct{})
	close(idle)
	return &Outbox{
		api:    api,
		opts:   opts,
		log:    opts.Logger,
		global: rate.NewLimiter(opts.Global, opts.GlobalBurst),
		sem:    make(chan struct{}, opts.Senders),
		prio:   make(chan *item, opts.MaxQueue),
		kick:   make(chan struct{}, 1),
		acks:   make(chan ackReq, 4096),
		lanes:  make(map[laneKey]*lane),
		idle:   idle,
	}
}

// Enqueue queues a reply and returns at once. A reply with a Key replaces
// a waiting one with the same Key (see Reply.Key). It returns ErrChatBusy
// for a reply without a Key when the chat already has Options.MaxQueue
// replies waiting, before keeping it (door.go), and ErrClosed after Run
// has returned; Done is not called then. Enqueue may be called before Run
// starts and while it drains.
func (o *Outbox) Enqueue(r Reply) error {
	it, err := o.prepare(r)
	if err != nil {
		return err
	}
	if err := o.room(it); err != nil {
		return err
	}
	if o.opts.Journal != nil {
		if data, ok := o.keep(it); ok {
			ctx, cancel := context.WithTimeout(context.Background(), journalTimeout)
			ids, err := o.opts.Journal.Append(ctx, [][]byte{data})
			cancel()
			if err == nil && len(ids) == 1 {
				it.jid = ids[0]
			} else {
				// Sent from memory all the same: a store that is down
				// must not silence the bot.
				o.log.Warn("outbox: reply not kept in the store", "method", it.req.method, "err", err)
			}
		}
	}
	return o.queue(it)
}

// prepare checks r and makes its queue item.
func (o *Outbox) prepare(r Reply) (*item, error) {
	if r.Req == nil && r.Call == nil && (r.Lazy == nil || r.ChatID == 0 && r.InlineMessageID == "") {
		return nil, errors.New("outbox: reply without a request")
	}
	var req request
	switch {
	case r.Req != nil:
		req = describe(r.Req)
	case r.Call != nil:
		req = describeCall(r.Call)
	default:
		req = request{method: lazyMethod, chatID: r.ChatID, inlineID: r.InlineMessageID}
	}
	if r.Silent && r.Req != nil {
		r.Req = silenced(r.Req)
	}
	if r.Silent && r.Call != nil {
		c := Call{Method: r.Call.Method, Params: maps.Clone(r.Call.Params)}
		c.Params["disable_notification"] = "true"
		r.Call = &c
	}
	if r.ChatID == 0 {
		r.ChatID = req.chatID
	}
	it := &item{r: r, req: req}
	if r.Delay > 0 && r.Key != "" {
		it.notBefore = time.Now().Add(r.Delay)
	}
	return it, nil
}

// queue queues a prepared item. A kept item is never refused for room;
// refused because Run has returned (ErrClosed), it stays kept, and the
// next process sends it: never forgotten unsent.
func (o *Outbox) queue(it *item) error {
	superseded, err := o.enqueue(it)
	if superseded != nil {
		// Outside the lock: Done may enqueue.
		o.finish(superseded, nil, ErrSuperseded)
	}
	return err
}

// Commit keeps the replies a handled update owes in the journal with the
// update's mark, in one write, and then queues them: what a handler
// decided to say is either stored with the fact that the update was
// handled or, if the write failed, neither is (and the update comes
// again). It reports whether the update was new; replies of an update
// another handler marked first are not sent (that handler's are). When the
// write fails the replies are sent from memory all the same, and the error
// says the update is not marked. Without a journal Commit queues the
// replies and returns ErrNoJournal: the caller marks the update itself.
func (o *Outbox) Commit(ctx context.Context, updateID int64, rs []Reply) (bool, error) {
	items := make([]*item, 0, len(rs))
	for _, r := range rs {
		it, err := o.prepare(r)
		if err != nil {
			o.log.Warn("outbox: reply dropped", "err", err)
			continue
		}
		items = append(items, it)
	}
	if o.opts.Journal == nil {
		o.queueAll(items)
		return true, ErrNoJournal
	}
	var kept []*item
	var data [][]byte
	for _, it := range items {
		if d, ok := o.keep(it); ok {
			kept = append(kept, it)
			data = append(data, d)
		}
	}
	first, ids, err := o.opts.Journal.Commit(ctx, updateID, data)
	switch {
	case err != nil:
		o.queueAll(items)
		return false, err
	case !first:
		for _, it := range items {
			if !slices.Contains(kept, it) {
				_ = o.queue(it)
			}
		}
		return false, nil
	}
	for i, it := range kept {
		if i < len(ids) {
			it.jid = ids[i]
		}
	}
	o.queueAll(items)
	return true, nil
}

func (o *Outbox) queueAll(items []*item) {
	for _, it := range items {
		if err := o.queue(it); err != nil {
			o.log.Warn(notQueued(it), "chat", it.r.ChatID, "method", it.req.method, "err", err)
		}
	}
}

// addPending counts a queued reply. Callers hold o.mu.
func (o *Outbox) addPending() {
	if o.pending == 0 {
		o.idle = make(chan struct{})
	}
	o.pending++
}

// Flush waits until every reply enqueued so far, and every reply those
// replies' Done callbacks enqueued, has been sent or has failed.
func (o *Outbox) Flush(ctx context.Context) error {
	o.mu.Lock()
	idle := o.idle
	o.mu.Unlock()
	select {
	case <-idle:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// finish reports a reply's outcome and counts it done.
func (o *Outbox) finish(it *item, msg *tgbotapi.Message, err error) {
	if it.r.Done != nil {
		o.safely("Done", func() { it.r.Done(msg, err) })
	}
	if it.jid != "" && !errors.Is(err, ErrShutdown) {
		// Sent, or given up for good. A reply not sent because the
		// process stops stays kept: the next process sends it.
		it.forgotten = o.ack(it.jid)
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	o.donePending()
}

// donePending counts a pending reply or ack done. Callers hold o.mu.
func (o *Outbox) donePending() {
	o.pending--
	if o.pending == 0 {
		close(o.idle)
	}
}

// safely runs a callback, so a panicking callback costs a log line rather
// than the sender.
func (o *Outbox) safely(name string, f func()) {
	defer func() {
		if p := recover(); p != nil {
			o.log.Error("outbox: callback panicked", "callback", name, "panic", p, "stack", string(debug.Stack()))
		}
	}()
	f()
}
