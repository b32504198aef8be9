package outbox

import (
	"slices"
	"strings"
	"time"
)

// A lane sends its replies in the order they were queued, with one
// exception: an edit with a Key (a card's newest board, a message's
// buttons) goes ahead of the messages waiting before it. It shows
// the newest state of a message already in the chat, so sending it early
// shows nothing out of turn; and behind a flood of messages about one game
// (a draw offered and declined a hundred times) another game's card in the
// same group would otherwise show a board minutes old. A keyed message
// that is sent, not edited, keeps its place. Among the keyed edits ready
// to go, the one whose Key was sent longest ago goes first,
// so that two cards in one busy group take turns rather than one card's
// ever-renewed edit always going first: another game's card waits at most
// for the reply being sent and then its turn of the chat's pace.

// next is the index in l.queue of the reply to send next, or how long to
// wait before the head may go (a delayed reply, Reply.Delay). Callers
// hold Outbox.mu, with l.queue not empty.
func (l *lane) next(now time.Time) (int, time.Duration) {
	best := -1
	for i, it := range l.queue {
		if !it.keyedEdit() || it.notBefore.After(now) {
			continue
		}
		if best < 0 || l.sentSeq[it.r.Key] < l.sentSeq[l.queue[best].r.Key] {
			best = i
		}
	}
	if best >= 0 {
		return best, 0
	}
	return 0, l.queue[0].notBefore.Sub(now)
}

// take removes the reply at index i from l.queue and returns it. Callers
// hold Outbox.mu.
func (l *lane) take(i int) *item {
	it := l.queue[i]
	if i == 0 {
		l.queue[0] = nil
		l.queue = l.queue[1:]
	} else {
		l.queue = slices.Delete(l.queue, i, i+1)
	}
	if it.r.Key != "" {
		if l.sentSeq == nil {
			l.sentSeq = make(map[string]uint64)
		}
		l.seq++
		l.sentSeq[it.r.Key] = l.seq
	}
	return it
}

// keyedEdit reports whether it shows the newest state of a message already
// sent: an edit (or a Lazy one, drawn when sent) with a Key.
func (it *item) keyedEdit() bool {
	return it.r.Key != "" && (it.req.method == lazyMethod || strings.HasPrefix(it.req.method, "edit"))
}
