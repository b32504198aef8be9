package outbox

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/bashni/bashni/bot/telegram"
	"golang.org/x/time/rate"
)

// Each chat (or inline message) has a lane: its replies in order, sent by
// at most one goroutine at a time, so that the order holds and a 429 can
// hold the chat. A lane is made with its chat's first reply and swept once
// idle (sweep); before each send it is paced (pace): its hold, then the
// chat's, the group's and the global budgets, in Redis with a Pacer.

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
