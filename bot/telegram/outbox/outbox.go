package outbox

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"runtime/debug"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/bashni/bashni/bot/telegram"
	"github.com/cespare/xxhash/v2"
	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"
	"golang.org/x/time/rate"
)

// Reply is one request to send, with what the outbox needs to pace it and
// whom to tell about the result.
type Reply struct {
	// Req is the request: a send, an edit, a deletion, a callback answer.
	Req tgbotapi.Chattable
	// Call, when Req is nil, is a request for a method tgbotapi v5.5.1 has
	// no config for (setMessageReaction), sent by name with its params.
	Call *Call
	// Lazy, when Req and Call are nil, is a request made only when it is
	// sent: Resolve (SetResolver) turns it into the request then. It is
	// small JSON, and what the journal keeps: a game's card edit is kept
	// as "card of game G", not as the picture, and drawn as the game is
	// stored at the moment of sending, so a card never shows an older
	// board than one already shown, and the edits waiting for a chat's
	// pace (Key) cost one drawing. ChatID or InlineMessageID must be set.
	Lazy json.RawMessage
	// InlineMessageID is the inline message a Lazy reply edits, when it
	// has no chat: its queue and pace are the inline message's, as for
	// any edit of one.
	InlineMessageID string
	// ChatID keys pacing and ordering. When zero it is taken from the
	// request's ChatID field; edits of inline messages are keyed by their
	// inline message id instead.
	ChatID int64
	// Group selects the stricter group pacing. Negative chat ids (groups,
	// supergroups, channels) get it anyway.
	Group bool
	// UserID is the user of a private chat: a 403 then means the user
	// blocked the bot, and Options.OnBlocked is told.
	UserID int64
	// Silent sends the message without a notification sound (the request's
	// DisableNotification, where it has one).
	Silent bool
	// Key, if set, makes the reply replace a reply with the same Key that
	// still waits in its chat's queue: the older one is done with
	// ErrSuperseded, unsent, and the newer one queues at the back as any
	// reply does, never ahead of what was queued before it. Telegram
	// allows a group about 20 messages a minute, edits included, so in a
	// quick game the card's edits would queue up and show boards long
	// gone; keyed by the card, only the latest waits. A reply already
	// being sent is not replaced.
	Key string
	// Delay, with a Key, holds the reply in its queue for at least this
	// long, giving way meanwhile to a newer reply with the same Key: a
	// board that is about to be replaced (the player's move, while the AI
	// thinks for a moment) is better not sent, since each message spends
	// the chat's pace that the next one needs.
	Delay time.Duration
	// Version, with a Key and Options.Pacer, is the version of what the
	// reply shows (a game's card): a reply older than one any replica has
	// shown for the Key is dropped (ErrSuperseded) rather than sent.
	Version int64
	// Record, if set, is what the message is to be recorded as once sent
	// (small JSON, e.g. "the poll of game G's turn P"), kept with the reply
	// in the journal: whichever process sends it, this one or another that
	// took it over after a crash, hands it with Telegram's answer to the
	// Recorder (SetRecorder) before the reply is forgotten. What only Done
	// would record is lost with the process that enqueued it; a message
	// whose id must be stored (a poll: its answers name nothing but the
	// poll's id) is recorded this way.
	Record json.RawMessage
	// Done, if set, is called once with the outcome after the last attempt.
	// msg is set when the method returned a Message. Done runs on the
	// sending goroutine of the chat: it must not block, but may Enqueue.
	Done func(msg *tgbotapi.Message, err error)
}

// Requester sends a request to the Bot API; *tgbotapi.BotAPI is one.
// Request, unlike Send, works for methods that return true rather than a
// Message.
type Requester interface {
	Request(c tgbotapi.Chattable) (*tgbotapi.APIResponse, error)
	MakeRequest(endpoint string, params tgbotapi.Params) (*tgbotapi.APIResponse, error)
}

// Call is a Bot API request by method name. tgbotapi's Chattable keeps its
// methods unexported, so a method the library predates goes out through
// its MakeRequest, which takes any method and parameters.
type Call struct {
	Method string
	Params tgbotapi.Params
}

var _ Requester = (*tgbotapi.BotAPI)(nil)

// Options configure an Outbox. Zero values take the defaults given.
type Options struct {
	// PerChat paces the requests to one chat (default 1 a second) with a
	// burst of PerChatBurst (default 3).
	PerChat      rate.Limit
	PerChatBurst int
	// PerGroup additionally paces requests to groups (default 20 a minute)
	// with a burst of PerGroupBurst (default 5).
	PerGroup      rate.Limit
	PerGroupBurst int
	// Global paces all requests but query answers (default 30 a second)
	// with a burst of GlobalBurst (default 10).
	Global      rate.Limit
	GlobalBurst int

	// Senders bounds the paced requests in flight at once (default 8);
	// PriorityWorkers the query answers in flight (default 4).
	Senders         int
	PriorityWorkers int
	// MaxQueue bounds the replies waiting per chat and the query answers
	// waiting in all (default 100). A chat's bound is kept at the door
	// (Admit, door.go): what is owed is queued past it, never dropped.
	MaxQueue int

	// MaxRetries bounds how often a request the journal does not keep (a
	// tap's answer) is sent again after a 429 or a transient error
	// (default 3; negative for never). A kept request is owed and is sent
	// again until Telegram takes or refuses it (floodControl).
	MaxRetries int
	// MaxRetryAfter is the longest retry_after worth waiting for to send a
	// reply not kept again (default 30 s); with a longer one that reply
	// fails, though the chat is still held for the whole time. It also
	// caps the back-off between a kept reply's attempts.
	MaxRetryAfter time.Duration
	// Backoff is the first wait after a transient error, doubled for each
	// further attempt (default 500 ms).
	Backoff time.Duration
	// DrainTimeout bounds how long Run keeps sending after its context
	// ends (default 5 s).
	DrainTimeout time.Duration

	// Journal, if set, keeps every reply that is a message (sent, edited
	// or deleted) in the store from before it is queued until it has been
	// sent, so that a crash loses none: the next process, or another
	// replica once this one's lease has ended, sends it (Reclaim). Query
	// answers and chat actions are not kept: a second later they mean
	// nothing.
	Journal Journal
	// ClaimEvery is how often Run renews this process's lease on what it
	// keeps and takes over what dead processes kept (default 3 s; keep it
	// well under the journal's lease).
	ClaimEvery time.Duration

	// Pacer, if set, keeps the Telegram budgets (PerChat, PerGroup,
	// Global) and 429 holds where every replica spends them, and drops a
	// card edit older than one another replica has shown (Reply.Version).
	// When it fails (Redis down), the outbox paces in memory.
	Pacer Pacer

	// OnBlocked is called when a Reply with a UserID got 403: the user
	// blocked the bot, deleted their account, or never started it.
	OnBlocked func(userID int64)
	// OnCall, if set, is called after every attempt, for metrics.
	OnCall func(method string, err error, d time.Duration)
	// OnRefused, if set, hears each refusal for want of room, by reason
	// (RefusedLane, RefusedAnswers), for metrics.
	OnRefused func(reason string)
	// Logger receives warnings and errors (default slog.Default()).
	Logger *slog.Logger
}

func (o Options) withDefaults() Options {
	def := func(v *int, d int) {
		if *v <= 0 {
			*v = d
		}
	}
	defLimit := func(v *rate.Limit, d rate.Limit) {
		if *v <= 0 {
			*v = d
		}
	}
	defDur := func(v *time.Duration, d time.Duration) {
		if *v <= 0 {
			*v = d
		}
	}
	defLimit(&o.PerChat, 1)
	def(&o.PerChatBurst, 3)
	defLimit(&o.PerGroup, rate.Limit(20.0/60))
	def(&o.PerGroupBurst, 5)
	defLimit(&o.Global, 30)
	def(&o.GlobalBurst, 10)
	def(&o.Senders, 8)
	def(&o.PriorityWorkers, 4)
	def(&o.MaxQueue, 100)
	switch {
	case o.MaxRetries == 0:
		o.MaxRetries = 3
	case o.MaxRetries < 0:
		o.MaxRetries = 0
	}
	defDur(&o.MaxRetryAfter, 30*time.Second)
	defDur(&o.Backoff, 500*time.Millisecond)
	defDur(&o.DrainTimeout, 5*time.Second)
	defDur(&o.ClaimEvery, 3*time.Second)
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	return o
}

// laneKey names a sequence of requests that must stay in order.
type laneKey struct {
	chat   int64
	inline string
}

// lane is the queue of one chat (or inline message). At most one goroutine
// sends from it at a time, which keeps its order and lets a 429 hold it.
type lane struct {
	key   laneKey
	group bool
	chat  *rate.Limiter // nil for the lane of requests without a chat
	grp   *rate.Limiter // nil unless a group

	// changed is signalled when a waiting reply is replaced, so a lane
	// holding a delayed reply looks again.
	changed chan struct{}

	// Guarded by Outbox.mu.
	queue    []*item
	versions map[string]int64   // the newest Reply.Version queued per Key
	sentSeq  map[string]uint64  // per Key, when its last reply was taken to send (order.go)
	seq      uint64             // counts the keyed replies taken to send
	drawn    map[string]drawing // per Key, the board last drawn at send time (Reply.Lazy)
	running  bool               // a goroutine is sending, or one is about to be started
	hold     time.Time          // no request before this (429)
	lastUsed time.Time
}

type item struct {
	r         Reply
	req       request
	notBefore time.Time       // Reply.Delay after it was enqueued
	lane      *lane           // nil for query answers
	closedBy  error           // set under Outbox.mu when a 403 closed the chat: fail without sending
	jid       string          // the journal's id, once kept there
	again     bool            // taken over from a process whose lease ended (Reclaim)
	fp        string          // a Lazy reply's drawing's fingerprint, once drawn
	forgotten <-chan struct{} // closed once the journal has forgotten it (ack)
}

// ackReq is a journal id for the acker, and what it closes once the
// batch holding it is written.
type ackReq struct {
	id   string
	done chan struct{}
}

// Resolve makes a Lazy reply's request when it is sent, with the version
// of what it shows (Reply.Version). A nil request, or an error, drops the
// reply unsent.
type Resolve func(ctx context.Context, lazy json.RawMessage) (req tgbotapi.Chattable, version int64, err error)

// Recorder records a message sent for a Reply with a Record (see
// Reply.Record), before the reply is forgotten. again is true when this
// process took the reply over from one whose lease ended: that one may
// have sent it already (Telegram took it and the answer was lost with the
// process), so the message may now be in the chat twice.
type Recorder func(ctx context.Context, record json.RawMessage, msg *tgbotapi.Message, again bool) error

// Refused is told of a Lazy reply that Telegram refused for good (a Bad
// Request), with its Lazy description and the refusal, before the reply
// is forgotten: in whichever process sent it, this one or one that took
// it over after a crash (SetRefused). What the refusal means, and what to
// send in its place, is then decided from what the journal kept, not by a
// Done that died with the process that enqueued the reply.
type Refused func(ctx context.Context, lazy json.RawMessage, err error)

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

// SetResolver sets what makes Lazy replies' requests (the bot's).
func (o *Outbox) SetResolver(fn Resolve) { o.resolve.Store(&fn) }

// SetRecorder sets what records the messages of replies with a Record
// (the bot's).
func (o *Outbox) SetRecorder(fn Recorder) { o.record.Store(&fn) }

// SetRefused sets what is told of refused Lazy replies (the bot's).
func (o *Outbox) SetRefused(fn Refused) { o.refused.Store(&fn) }

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

// journalTimeout bounds one journal write made outside a caller's context.
const journalTimeout = 5 * time.Second

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

// keep encodes it for the journal, if it is a request worth keeping.
func (o *Outbox) keep(it *item) ([]byte, bool) {
	if priorityMethods[it.req.method] || it.req.method == "sendChatAction" {
		return nil, false
	}
	data, err := encodeReply(it.r)
	if err != nil {
		o.log.Warn("outbox: reply cannot be kept", "method", it.req.method, "err", err)
		return nil, false
	}
	return data, true
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

// Reclaim renews this process's lease on what the journal keeps for it,
// takes over what processes whose lease ended kept, and queues it, oldest
// first. Run calls it at start and every Options.ClaimEvery; it returns
// how many replies it took over.
func (o *Outbox) Reclaim(ctx context.Context) (int, error) {
	if o.opts.Journal == nil {
		return 0, nil
	}
	owed, err := o.opts.Journal.Claim(ctx)
	if err != nil {
		return 0, err
	}
	for _, ow := range owed {
		r, err := decodeReply(ow.Data)
		if err != nil {
			o.log.Error("outbox: kept reply unreadable, dropped", "id", ow.ID, "err", err)
			o.ack(ow.ID)
			continue
		}
		it, err := o.prepare(r)
		if err != nil {
			o.ack(ow.ID)
			continue
		}
		it.jid, it.again = ow.ID, true
		if err := o.queue(it); err != nil {
			o.log.Warn(notQueued(it), "chat", it.r.ChatID, "err", err)
		}
	}
	if len(owed) > 0 {
		o.log.Info("outbox: took over replies of a process that ended", "count", len(owed))
	}
	return len(owed), nil
}

// ack tells the acker that the journal may forget id, and returns what is
// closed once it has (or has failed to). It counts as pending until then,
// so Flush waits for it.
func (o *Outbox) ack(id string) <-chan struct{} {
	o.mu.Lock()
	o.addPending()
	o.mu.Unlock()
	done := make(chan struct{})
	o.acks <- ackReq{id: id, done: done}
	return done
}

// runAcker acks journal ids in batches (one store write for whatever
// piled up while the last one was written) until stop is closed and
// nothing is left.
func (o *Outbox) runAcker(stop <-chan struct{}) {
	for {
		var req ackReq
		select {
		case req = <-o.acks:
		case <-stop:
			select {
			case req = <-o.acks:
			default:
				return
			}
		}
		batch := []ackReq{req}
	more:
		for len(batch) < 256 {
			select {
			case req := <-o.acks:
				batch = append(batch, req)
			default:
				break more
			}
		}
		ids := make([]string, len(batch))
		for i, req := range batch {
			ids[i] = req.id
		}
		ctx, cancel := context.WithTimeout(context.Background(), journalTimeout)
		if err := o.opts.Journal.Ack(ctx, ids); err != nil {
			// Sent again by whoever claims them: a duplicate, not a loss.
			o.log.Warn("outbox: sent replies not forgotten by the store", "count", len(batch), "err", err)
		}
		cancel()
		o.mu.Lock()
		for _, req := range batch {
			o.donePending()
			close(req.done)
		}
		o.mu.Unlock()
	}
}

// enqueue queues it, in place of the waiting reply with its Key if there
// is one (returned for the caller to finish); either way at the back.
func (o *Outbox) enqueue(it *item) (superseded *item, err error) {
	r, req := it.r, it.req
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.closed {
		return nil, ErrClosed
	}
	if priorityMethods[req.method] {
		select {
		case o.prio <- it:
			o.addPending()
			return nil, nil
		default:
			// Not kept, and a moment later meaningless: Telegram shows
			// the tap as unanswered.
			o.log.Warn("outbox: query answers queue full, reply dropped", "method", req.method)
			o.refuse(RefusedAnswers)
			return nil, ErrQueueFull
		}
	}
	key := laneKey{chat: r.ChatID}
	if key.chat == 0 {
		key.inline = req.inlineID
	}
	l := o.lanes[key]
	if l == nil {
		l = o.newLane(key, r.Group || key.chat < 0)
		o.lanes[key] = l
	}
	it.lane = l
	if r.Key != "" && r.Version > 0 {
		// Older than what this chat was last given for the Key (the AI's
		// answer queued before the board it answers): never shown.
		if r.Version < l.versions[r.Key] {
			o.addPending()
			return it, nil
		}
		if l.versions == nil {
			l.versions = make(map[string]int64)
		}
		l.versions[r.Key] = r.Version
	}
	if r.Key != "" {
		for i, q := range l.queue {
			if q.r.Key == r.Key {
				// At the back, not in the older reply's place: what was
				// queued after that one was decided before this one, and a
				// turn notice taking an older notice's place would be sent
				// ahead of the card edit showing the move it announces (the
				// player taps the old board and is told it has changed).
				l.queue = append(slices.Delete(l.queue, i, i+1), it)
				o.addPending()
				select {
				case l.changed <- struct{}{}:
				default:
				}
				return q, nil
			}
		}
	}
	if len(l.queue) >= o.opts.MaxQueue && !it.mayQueue() {
		// Neither owed nor a newer showing of something waiting: refused
		// before it was kept anywhere (door.go).
		o.refuse(RefusedLane)
		return nil, ErrChatBusy
	}
	l.queue = append(l.queue, it)
	o.addPending()
	if !l.running {
		l.running = true
		o.wake = append(o.wake, l)
		select {
		case o.kick <- struct{}{}:
		default:
		}
	}
	return nil, nil
}

func (o *Outbox) newLane(key laneKey, group bool) *lane {
	l := &lane{key: key, group: group, changed: make(chan struct{}, 1)}
	if key != (laneKey{}) {
		l.chat = rate.NewLimiter(o.opts.PerChat, o.opts.PerChatBurst)
	}
	if group {
		l.grp = rate.NewLimiter(o.opts.PerGroup, o.opts.PerGroupBurst)
	}
	return l
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

// Run sends queued replies until ctx ends, then drains: it keeps sending
// for up to Options.DrainTimeout, until nothing is queued. It returns nil
// when every reply was sent, or an error wrapping ErrShutdown that counts
// the replies given up. Run may be called once.
//
// Run stops accepting replies once nothing is left to send, so end the
// producers first: cancel Run's context after the update loop has returned
// and its handlers have finished, or a reply they enqueue late may be
// refused with ErrClosed.
func (o *Outbox) Run(ctx context.Context) error {
	o.mu.Lock()
	if o.started {
		o.mu.Unlock()
		return errors.New("outbox: Run called twice")
	}
	o.started = true
	o.mu.Unlock()

	// Sending outlives ctx by the drain; sendCtx ends it.
	sendCtx, stop := context.WithCancel(context.WithoutCancel(ctx))
	defer stop()
	var wg sync.WaitGroup
	var lost countLost
	for range o.opts.PriorityWorkers {
		wg.Go(func() { o.priorityWorker(sendCtx, &lost) })
	}

	stopAcks := make(chan struct{})
	var side sync.WaitGroup
	if o.opts.Journal != nil {
		side.Go(func() { o.runAcker(stopAcks) })
		side.Go(func() { o.runClaims(ctx) })
	}

	sweep := time.NewTicker(time.Minute)
	defer sweep.Stop()
	for running := true; running; {
		select {
		case <-ctx.Done():
			running = false
		case <-o.kick:
			o.startLanes(sendCtx, &wg, &lost)
		case now := <-sweep.C:
			o.sweep(now)
		}
	}

	// Drain. Closing happens under the lock that counts pending replies,
	// so a reply enqueued before it is sent and one after it is refused.
	deadline := time.NewTimer(o.opts.DrainTimeout)
	defer deadline.Stop()
	for draining := true; draining; {
		o.startLanes(sendCtx, &wg, &lost)
		o.mu.Lock()
		idle := o.idle
		if o.pending == 0 {
			o.closed, draining = true, false
		}
		o.mu.Unlock()
		if !draining {
			break
		}
		select {
		case <-o.kick:
		case <-idle:
		case <-deadline.C:
			o.mu.Lock()
			o.closed, draining = true, false
			o.mu.Unlock()
		}
	}

	// Whatever is left fails fast.
	stop()
	o.startLanes(sendCtx, &wg, &lost)
	wg.Wait()
	for {
		select {
		case it := <-o.prio:
			o.finish(it, nil, ErrShutdown)
			lost.add()
			continue
		default:
		}
		break
	}
	close(stopAcks)
	side.Wait()
	if o.opts.Journal != nil {
		// What is left is kept: let the next process have it now.
		rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), journalTimeout)
		if err := o.opts.Journal.Release(rctx); err != nil {
			o.log.Warn("outbox: lease not released", "err", err)
		}
		cancel()
	}
	if n := lost.get(); n > 0 {
		o.log.Error("outbox: replies not sent before shutdown", "count", n)
		return fmt.Errorf("%w: %d replies", ErrShutdown, n)
	}
	return nil
}

type countLost struct {
	mu sync.Mutex
	n  int
}

func (c *countLost) add() {
	c.mu.Lock()
	c.n++
	c.mu.Unlock()
}

func (c *countLost) get() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n
}

// runClaims calls Reclaim now and every Options.ClaimEvery until ctx ends.
func (o *Outbox) runClaims(ctx context.Context) {
	t := time.NewTicker(o.opts.ClaimEvery)
	defer t.Stop()
	for {
		if _, err := o.Reclaim(ctx); err != nil && ctx.Err() == nil {
			o.log.Warn("outbox: claim failed", "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// startLanes starts a goroutine for every lane that has replies and none.
func (o *Outbox) startLanes(ctx context.Context, wg *sync.WaitGroup, lost *countLost) {
	o.mu.Lock()
	wake := o.wake
	o.wake = nil
	o.mu.Unlock()
	for _, l := range wake {
		wg.Go(func() { o.runLane(ctx, l, lost) })
	}
}

// sweep forgets idle lanes whose limiters have refilled, so the map does
// not grow with every chat ever seen.
func (o *Outbox) sweep(now time.Time) {
	o.mu.Lock()
	defer o.mu.Unlock()
	for k, l := range o.lanes {
		if !l.running && len(l.queue) == 0 && now.Sub(l.lastUsed) > time.Minute && now.After(l.hold) {
			delete(o.lanes, k)
		}
	}
}

func (o *Outbox) runLane(ctx context.Context, l *lane, lost *countLost) {
	for {
		o.mu.Lock()
		if len(l.queue) == 0 {
			l.running = false
			l.lastUsed = time.Now()
			o.mu.Unlock()
			return
		}
		i, wait := l.next(time.Now())
		if wait > 0 && ctx.Err() == nil {
			// A delayed reply at the head: wait, unless it is replaced.
			o.mu.Unlock()
			t := time.NewTimer(wait)
			select {
			case <-t.C:
			case <-l.changed:
			case <-ctx.Done():
			}
			t.Stop()
			continue
		}
		it := l.take(i)
		o.mu.Unlock()

		if it.closedBy != nil {
			o.finish(it, nil, it.closedBy)
			continue
		}
		if ctx.Err() != nil {
			o.finish(it, nil, ErrShutdown)
			lost.add()
			continue
		}
		o.deliver(ctx, it, lost)
		if it.forgotten != nil {
			// The chat's next message waits until the journal has
			// forgotten this one: a crash once Telegram has taken the
			// next can then never send this one a second time. Only a
			// crash before the journal forgets the chat's last message
			// sent can: the one duplicate, a message whose answer, or
			// its forgetting, the crash cut off.
			<-it.forgotten
		}
	}
}

func (o *Outbox) priorityWorker(ctx context.Context, lost *countLost) {
	for {
		select {
		case <-ctx.Done():
			return
		case it := <-o.prio:
			if ctx.Err() != nil {
				o.finish(it, nil, ErrShutdown)
				lost.add()
				continue
			}
			o.deliver(ctx, it, lost)
		}
	}
}

// lazyMethod names a Lazy reply until it is resolved: a message (paced).
const lazyMethod = "lazy"

// resolveLazy makes a Lazy reply's request, once, when its turn to be
// sent has come. It reports false when there is nothing to send.
func (o *Outbox) resolveLazy(ctx context.Context, it *item) bool {
	if it.r.Lazy == nil || it.r.Req != nil {
		return true
	}
	fn := o.resolve.Load()
	if fn == nil {
		o.log.Warn("outbox: a lazy reply and no resolver, dropped", "chat", it.r.ChatID)
		return false
	}
	req, version, err := (*fn)(ctx, it.r.Lazy)
	if err != nil || req == nil {
		if err != nil {
			o.log.Warn("outbox: lazy reply not made, dropped", "chat", it.r.ChatID, "err", err)
		}
		return false
	}
	it.r.Req, it.r.Version = req, version
	it.req = describe(req)
	it.fp = fingerprint(req)
	return true
}

// drawing is a board drawn at send time: its version and fingerprint.
type drawing struct {
	version int64
	fp      string
}

// fingerprint names what a card edit shows (picture, caption, buttons),
// so that a drawing equal to the last one shown is not sent again: a
// game's version also moves for what nobody sees (a notice's message id
// stored). "" when it cannot tell.
func fingerprint(req tgbotapi.Chattable) string {
	e, ok := req.(tgbotapi.EditMessageMediaConfig)
	if !ok {
		return ""
	}
	photo, ok := e.Media.(tgbotapi.InputMediaPhoto)
	if !ok {
		return ""
	}
	file, ok := photo.Media.(tgbotapi.FileBytes)
	if !ok {
		return ""
	}
	// xxhash: tens of kilobytes of PNG a card, hashed by every replica
	// the same way (the fingerprint is compared in Redis), at memory speed.
	h := xxhash.New()
	h.Write(file.Bytes)
	h.Write([]byte{0})
	h.Write([]byte(photo.Caption))
	if e.ReplyMarkup != nil {
		kb, err := json.Marshal(e.ReplyMarkup)
		if err != nil {
			return ""
		}
		h.Write([]byte{0})
		h.Write(kb)
	}
	return strconv.FormatUint(h.Sum64(), 36)
}

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

// pace waits until the reply may be sent: past its chat's hold and its
// chat's, group's and the global limiter, with a sender slot taken (call
// gives it back). Query answers only need the slot-free path; requests
// that are not messages (unpaced) skip the chat's and group's limiters.
func (o *Outbox) pace(ctx context.Context, l *lane, unpaced bool) error {
	if l == nil {
		return ctx.Err()
	}
	o.mu.Lock()
	hold := l.hold
	o.mu.Unlock()
	if d := time.Until(hold); d > 0 && !telegram.Sleep(ctx, d) {
		return ctx.Err()
	}
	if o.opts.Pacer != nil && l.key != (laneKey{}) {
		err := o.opts.Pacer.Wait(ctx, l.key.name(), l.group, unpaced)
		if err == nil {
			return o.slot(ctx)
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		o.log.Warn("outbox: shared pacing failed, pacing in memory", "err", fmt.Errorf("%w: %w", errPacer, err))
	}
	lims := []*rate.Limiter{l.chat, l.grp, o.global}
	if unpaced {
		lims = lims[2:]
	}
	for _, lim := range lims {
		if lim == nil {
			continue
		}
		if err := lim.Wait(ctx); err != nil {
			return err
		}
	}
	return o.slot(ctx)
}

// slot takes a sender slot (call gives it back).
func (o *Outbox) slot(ctx context.Context) error {
	select {
	case o.sem <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// stale reports whether another replica has shown a newer version of
// what it shows (Reply.Version).
//
// A board drawn at send time (Reply.Lazy) is stale too when the same
// version was drawn so already: two edits of one card, queued for older
// boards, both drawn as the game stands now.
func (o *Outbox) stale(ctx context.Context, it *item) bool {
	if it.r.Key == "" || it.r.Version <= 0 {
		return false
	}
	lazy := it.r.Lazy != nil
	o.mu.Lock()
	l := it.lane
	if lazy {
		prev, seen := l.drawn[it.r.Key]
		if l.drawn == nil {
			l.drawn = make(map[string]drawing)
		}
		l.drawn[it.r.Key] = drawing{max(prev.version, it.r.Version), it.fp}
		if seen && (prev.version == it.r.Version || it.fp != "" && prev.fp == it.fp) {
			o.mu.Unlock()
			return true
		}
	} else {
		delete(l.drawn, it.r.Key)
	}
	o.mu.Unlock()
	if o.opts.Pacer == nil {
		return false
	}
	var fresh bool
	var err error
	if lazy {
		fresh, err = o.opts.Pacer.Drawn(ctx, it.r.Key, it.r.Version, it.fp)
	} else {
		fresh, err = o.opts.Pacer.Fresh(ctx, it.r.Key, it.r.Version)
	}
	if err != nil {
		return false // sent: an old board now and then beats none
	}
	return !fresh
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

// recordSent hands a sent reply's Record and message to the Recorder,
// before finish lets the journal forget the reply: a crash before this
// point has the reply sent again (and recorded then), never sent and
// unrecorded. It runs on the chat's sending goroutine, which waits for
// the store's write as it waits for Telegram.
func (o *Outbox) recordSent(ctx context.Context, it *item, msg *tgbotapi.Message, log func() *slog.Logger) {
	if it.r.Record == nil {
		return
	}
	fn := o.record.Load()
	if fn == nil || msg == nil {
		log().Warn("outbox: a sent message not recorded", "recorder", fn != nil)
		return
	}
	// Also while draining: the message is out, its record must follow.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), journalTimeout)
	defer cancel()
	o.safely("Recorder", func() {
		if err := (*fn)(ctx, it.r.Record, msg, it.again); err != nil {
			log().Warn("outbox: a sent message not recorded", "err", err)
		}
	})
}

// tellRefused hands a refused Lazy reply's description to Refused, as
// recordSent hands a Record, before finish lets the journal forget it: a
// crash before this point has the reply sent again, and refused and told
// then, by the next process.
func (o *Outbox) tellRefused(ctx context.Context, it *item, err error) {
	fn := o.refused.Load()
	if it.r.Lazy == nil || fn == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), journalTimeout)
	defer cancel()
	o.safely("Refused", func() { (*fn)(ctx, it.r.Lazy, err) })
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
