package outbox

import (
	"fmt"
	"slices"
)

// The bound on a chat's lane (Options.MaxQueue) is kept at the door, not
// at the back of the queue. A reply kept in the journal is owed: the
// change that owes it is stored already, so dropping it would lose what
// the players were promised (a move's board, a draw's answer). Work that
// would add to a full lane is therefore refused before anything is
// changed: the bot asks Admit before it handles an update or a Mini App
// request for that chat, and answers the player that the chat is busy.
// What passes the door is queued whatever the lane's length:
//
//   - a reply kept in the journal (Commit, Reclaim, Enqueue once kept);
//   - a reply with a Key: it replaces the one waiting with its Key, or
//     waits alone for it, so a lane holds at most one a Key (a card's
//     newest board is never refused).
//
// Enqueue refuses an unkeyed reply to a full lane before keeping it (a
// message nobody's change owes: a "typing", a reply a handler sends
// outside an update), so nothing is stored that is not then sent.

// Refusal reasons, for Options.OnRefused.
const (
	// RefusedLane: work for a chat whose lane is full (Admit, Enqueue).
	RefusedLane = "lane_full"
	// RefusedAnswers: a query answer when the answers' queue is full.
	RefusedAnswers = "answers_full"
)

// ErrChatBusy is Admit's refusal: the chat's lane holds Options.MaxQueue
// replies already. It is an ErrQueueFull.
var ErrChatBusy = fmt.Errorf("%w: the chat has too many replies waiting", ErrQueueFull)

// Admit reports whether work for chatID may be taken on: ErrChatBusy when
// the chat's lane is full. Ask it before storing a change whose replies
// go to that chat; the replies of an admitted change are queued however
// many there are (they are owed). It counts each refusal (OnRefused).
func (o *Outbox) Admit(chatID int64) error {
	o.mu.Lock()
	full := o.fullLocked(laneKey{chat: chatID})
	o.mu.Unlock()
	if full {
		o.refuse(RefusedLane)
		return ErrChatBusy
	}
	return nil
}

// fullLocked reports whether the lane of key is at its bound. Callers
// hold o.mu.
func (o *Outbox) fullLocked(key laneKey) bool {
	l := o.lanes[key]
	return l != nil && len(l.queue) >= o.opts.MaxQueue
}

// mayQueue reports whether it may join its lane without asking the door:
// it is owed (kept) or keyed (at most one waits a Key).
func (it *item) mayQueue() bool { return it.jid != "" || it.r.Key != "" }

// refuse tells OnRefused of a refusal.
func (o *Outbox) refuse(reason string) {
	if o.opts.OnRefused != nil {
		o.safely("OnRefused", func() { o.opts.OnRefused(reason) })
	}
}

// Depths returns how many replies wait in each lane that has any, deepest
// first: for a gauge of the lanes' depths (the chats stay out of it).
func (o *Outbox) Depths() []int {
	o.mu.Lock()
	defer o.mu.Unlock()
	var out []int
	for _, l := range o.lanes {
		if n := len(l.queue); n > 0 {
			out = append(out, n)
		}
	}
	slices.Sort(out)
	slices.Reverse(out)
	return out
}

// MaxQueue is the bound Admit keeps a chat's lane to.
func (o *Outbox) MaxQueue() int { return o.opts.MaxQueue }

// room refuses it, unkeyed and not yet kept, when its lane is full: before
// Enqueue keeps it, so that the journal never holds a reply the lane then
// refuses. Query answers and chat actions are checked where they queue.
func (o *Outbox) room(it *item) error {
	if it.mayQueue() || priorityMethods[it.req.method] {
		return nil
	}
	key := laneKey{chat: it.r.ChatID}
	if key.chat == 0 {
		key.inline = it.req.inlineID
	}
	o.mu.Lock()
	full := o.fullLocked(key)
	o.mu.Unlock()
	if full {
		o.refuse(RefusedLane)
		return ErrChatBusy
	}
	return nil
}

// notQueued is the log line of a reply queue refused: a kept one stays in
// the journal for the next process (Run has returned); another is lost.
func notQueued(it *item) string {
	if it.jid != "" {
		return "outbox: reply not queued, left kept for the next process"
	}
	return "outbox: reply dropped"
}
