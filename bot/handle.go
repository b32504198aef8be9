package bot

import (
	"context"
	"errors"
	"sync"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/bashni/bashni/bot/telegram/outbox"
	"github.com/bashni/bashni/play"
)

// An update goes through a pipeline: the middleware every update gets
// whatever its kind, outermost first, then the routing to its handler
// (routes.go). Each step is one function with one concern.

// updateHandler handles one update and names its kind, for logs and
// metrics.
type updateHandler func(b *Bot, ctx context.Context, u tgbotapi.Update) (kind string, err error)

// middleware wraps an updateHandler with one concern.
type middleware func(next updateHandler) updateHandler

// pipeline is the routing wrapped by the middleware, outermost first.
var pipeline = chain(route, measured, logged, once, admitted, settlesTimeUp)

func chain(h updateHandler, mw ...middleware) updateHandler {
	for i := len(mw) - 1; i >= 0; i-- {
		h = mw[i](h)
	}
	return h
}

// Handle handles one update. Repeated updates (same update_id) are
// recognised and handled once: the update is marked handled in the store
// only after its handler has written its effects, so an update whose
// handling a crash cut short is handled again when Telegram redelivers it
// (at least once), while one handled in full is not. Handle returns when
// the update's effects are in the store; the caller may then acknowledge
// it to Telegram.
func (b *Bot) Handle(ctx context.Context, u tgbotapi.Update) {
	_, _ = pipeline(b, ctx, u)
}

// measured tells Config.OnHandled (the metrics) how each update went.
func measured(next updateHandler) updateHandler {
	return func(b *Bot, ctx context.Context, u tgbotapi.Update) (string, error) {
		start := time.Now()
		kind, err := next(b, ctx, u)
		if b.cfg.OnHandled != nil {
			b.cfg.OnHandled(kind, time.Since(start), err)
		}
		return kind, err
	}
}

// logged logs a fault; a refusal the player was told of (expected) is
// not one.
func logged(next updateHandler) updateHandler {
	return func(b *Bot, ctx context.Context, u tgbotapi.Update) (string, error) {
		kind, err := next(b, ctx, u)
		if err != nil && !expected(err) {
			b.log.Error("update failed", "update", u.UpdateID, "kind", kind, "err", err)
		}
		return kind, err
	}
}

// once handles an update at most once in full: a marked update is
// skipped, and what the handlers say is collected and stored with the
// update's mark in one write (the outbox's Commit), after the game
// changes the update made, which carry the update's id as their receipt.
func once(next updateHandler) updateHandler {
	return func(b *Bot, ctx context.Context, u tgbotapi.Update) (string, error) {
		if u.UpdateID == 0 {
			return next(b, ctx, u)
		}
		seen, err := b.marks.UpdateSeen(ctx, int64(u.UpdateID))
		if err == nil && seen {
			return "repeat", nil
		}
		// If the store is down we still try: the operations themselves will
		// say "try again shortly", and compare-and-set keeps them safe.
		var kind string
		var herr error
		if c, ok := b.out.(Committer); ok {
			// The update's id is the receipt of the game changes it makes:
			// they are stored with their events, shown by the replies
			// committed below or, if this process dies first, by whoever
			// finds them owed (events.go).
			ctx := play.WithReceipt(ctx, int64(u.UpdateID))
			col := &collector{next: b.out}
			ub := &Bot{core: b.core, out: col}
			kind, herr = next(ub, ctx, u)
			if ub.showApplied(ctx, u, col, herr) {
				kind, herr = "applied", nil
			}
			_, err = col.commit(ctx, c, int64(u.UpdateID))
			if errors.Is(err, outbox.ErrNoJournal) {
				_, err = b.marks.MarkUpdate(ctx, int64(u.UpdateID), UpdateMarkTTL)
			}
		} else {
			kind, herr = next(b, ctx, u)
			_, err = b.marks.MarkUpdate(ctx, int64(u.UpdateID), UpdateMarkTTL)
		}
		if err != nil && herr == nil {
			// Not marked: a redelivery is handled again, which the
			// compare-and-set of moves makes harmless.
			b.log.Warn("update handled but not marked", "update", u.UpdateID, "err", err)
		}
		return kind, herr
	}
}

// settlesTimeUp: an action refused because the game had just been lost on
// time (play.TimeUpError) settled that loss; the chat hears of it here,
// once, as from the clock's tick.
func settlesTimeUp(next updateHandler) updateHandler {
	return func(b *Bot, ctx context.Context, u tgbotapi.Update) (string, error) {
		kind, err := next(b, ctx, u)
		b.settledOnTime(ctx, err)
		return kind, err
	}
}

// route sends an update to the handler of its kind.
func route(b *Bot, ctx context.Context, u tgbotapi.Update) (string, error) {
	switch {
	case u.CallbackQuery != nil:
		return "callback", b.onCallback(ctx, u.CallbackQuery)
	case u.Message != nil:
		return "message", b.onMessage(ctx, u.Message)
	case u.InlineQuery != nil:
		return "inline", b.onInlineQuery(ctx, u.InlineQuery)
	case u.PollAnswer != nil:
		for _, m := range b.mods.list {
			if m.PollAnswer == nil {
				continue
			}
			if handled, err := m.PollAnswer(ctx, b.kit(), u.PollAnswer); handled || err != nil {
				return "poll_answer", err
			}
		}
		return "poll_answer", nil // a poll no module sent, or one long over
	case u.ChatMember != nil:
		b.onChatMember(u.ChatMember)
		return "chat_member", nil
	}
	return "other", nil
}

// collector is the Sender of one update's handlers: it keeps their
// replies until commit stores them with the update's mark, and passes on
// whatever comes after (background work the handlers started).
type collector struct {
	next    Sender
	mu      sync.Mutex
	replies []outbox.Reply
	done    bool
}

func (c *collector) Enqueue(r outbox.Reply) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.done {
		return c.next.Enqueue(r)
	}
	c.replies = append(c.replies, r)
	return nil
}

// reset drops the replies kept so far.
func (c *collector) reset() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.replies = nil
}

// commit hands the replies to to. Replies enqueued meanwhile wait for it,
// so they stay behind the committed ones.
func (c *collector) commit(ctx context.Context, to Committer, updateID int64) (bool, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.done = true
	rs := c.replies
	c.replies = nil
	return to.Commit(ctx, updateID, rs)
}
