package play

import (
	"cmp"
	"context"
	"errors"
	mathrand "math/rand/v2"
	"slices"
	"sync"
	"time"

	"github.com/bashni/bashni/storage"
)

// A change to a game and what it owes the players are one write (the
// transactional outbox). A caller that will store the replies of a change
// with a mark of its own (the bot: the update id, marked by
// storage.Outbox.MarkUpdateOwing with the replies) passes that id as the
// receipt in ctx (WithReceipt). Every write update makes under it then
// also stores, in the same compare-and-set, a small event (moved, ended,
// draw offered, ...; storage.GameEvent), the receipt, and ShowAt: the
// moment the game falls due if the writer has not shown it by then.
//
// If the writer dies between its game write and the write of its replies,
// the game is due at ShowAt: the clock's Tick (any replica) finds the
// events whose receipt is not marked and hands them over to be shown, drawn
// from the game as stored then (ClockEvent.Owed); showing them marks the
// receipt, so that exactly one of the writer's replies and the Tick's goes
// out. A receipt already applied to the game (Telegram delivers the update
// again after the crash) is not applied again: update returns an
// *AppliedError and the caller shows what the game owes instead.

// showLease is how long the writer of a change has to store its replies
// before the game is due and another process shows what it owes.
const showLease = 5 * time.Second

// keptReceipts bounds GameRecord.Receipts and GameRecord.Owed: the last
// changes' receipts are enough to recognise a redelivered update (Telegram
// redelivers only those not acknowledged, the last few).
const keptReceipts = 8

// ErrApplied is an update applied to the game already: a redelivery of
// one whose replies a crash cut off.
var ErrApplied = errors.New("play: this update has been applied already")

// AppliedError is ErrApplied with the game as stored, whose owed events
// the caller shows in place of the update's replies.
type AppliedError struct {
	Game *Game
}

func (e *AppliedError) Error() string { return ErrApplied.Error() }

// Is makes errors.Is(err, ErrApplied) true.
func (e *AppliedError) Is(target error) bool { return target == ErrApplied }

// receipt is the receipt in a context, and the games this process has
// written under it (a handler may write one game more than once: only its
// first write meets a redelivery's earlier one).
type receipt struct {
	id int64
	// detached: the caller commits nothing; the service hands the
	// events to its OwedFunc (Detached).
	detached bool
	mu       sync.Mutex
	wrote    map[string]bool
}

type receiptKey struct{}

// WithReceipt returns ctx with receipt id (non-zero): the writes made
// under it store their events with it (see the comment above).
func WithReceipt(ctx context.Context, id int64) context.Context {
	if id == 0 {
		return ctx
	}
	return context.WithValue(ctx, receiptKey{}, &receipt{id: id})
}

// ReceiptOf returns the receipt in ctx, 0 if none: the mark to commit the
// replies of the changes made under ctx with.
func ReceiptOf(ctx context.Context) int64 {
	if r := receiptOf(ctx); r != nil {
		return r.id
	}
	return 0
}

// withNewReceipt returns ctx with a receipt of its own for a change no
// update asked for (the AI's move, the clock's): negative, so that it never
// meets a Telegram update id.
func withNewReceipt(ctx context.Context) context.Context {
	return WithReceipt(ctx, -1-mathrand.Int64N(1<<62))
}

// NewReceipt returns a receipt of its own for a change a feature makes
// that no update asked for (the clock moved it on): negative, as
// withNewReceipt's, so that it never meets a Telegram update id.
func NewReceipt() int64 { return -1 - mathrand.Int64N(1<<62) }

// Detached returns ctx with a receipt of its own for changes whose caller
// shows nothing itself (the Mini App, the AI's moves in `bashni worker`):
// each change's event is handed, right after its write, to the function
// given to OnOwed (the bot, in the same process), which shows it and
// commits its replies with the receipt; if this process dies first, the
// clock's tick on any process shows it after ShowAt. A process with no
// OwedFunc (a worker) stores the change due at once and wakes the bot
// replicas (WithWake): the one whose claim of the event wins (Wake) shows
// it, and if the wake-up is lost, the first clock tick does.
func Detached(ctx context.Context) context.Context {
	r := receiptOf(withNewReceipt(ctx))
	r.detached = true
	return context.WithValue(ctx, receiptKey{}, r)
}

// OwedFunc shows the event of a detached change to g (g as written by it).
type OwedFunc func(ctx context.Context, g *Game, ev storage.GameEvent)

// OnOwed sets the function detached changes are shown by (the bot's).
func (s *Service) OnOwed(fn OwedFunc) { s.owed.Store(&fn) }

// handOver gives the event g's write under the detached receipt r made to
// the OwedFunc, outside the receipt and whatever cancels ctx; without one,
// it wakes the bot replicas (WithWake) to show it.
func (s *Service) handOver(ctx context.Context, g *Game, r *receipt) {
	fn := s.owed.Load()
	for _, ev := range g.rec.Owed {
		if ev.Receipt != r.id || ev.Version != g.rec.Version {
			continue
		}
		ctx := context.WithValue(context.WithoutCancel(ctx), receiptKey{}, (*receipt)(nil))
		switch {
		case fn != nil && *fn != nil:
			(*fn)(ctx, g, ev)
		case s.wake != nil:
			s.wake(ctx, g.rec.ID)
		}
	}
}

func receiptOf(ctx context.Context) *receipt {
	r, _ := ctx.Value(receiptKey{}).(*receipt)
	return r
}

// applied reports whether rec has had r applied by an earlier process:
// a redelivered update.
func (r *receipt) applied(rec *storage.GameRecord) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return !r.wrote[rec.ID] && slices.Contains(rec.Receipts, r.id)
}

func (r *receipt) wrote1(id string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.wrote == nil {
		r.wrote = make(map[string]bool)
	}
	r.wrote[id] = true
}

// owe adds to rec, about to be written over before, the event the change
// makes (named, if the decide function named one), under receipt r.
func (s *Service) owe(r *receipt, before, rec *storage.GameRecord, named storage.GameEvent) {
	ev := named
	if ev.Kind == "" {
		ev = eventOf(before, rec)
	}
	if ev.Kind == "" {
		return
	}
	ev.Version, ev.Receipt = rec.Version+1, r.id
	rec.Owed = append(lastN(rec.Owed, keptReceipts-1), ev)
	if !slices.Contains(rec.Receipts, r.id) {
		rec.Receipts = append(lastN(rec.Receipts, keptReceipts-1), r.id)
	}
	rec.ShowAt = s.now().Add(showLease)
	if r.detached && !s.showsOwed() {
		// Nobody here shows it: due at once, for the replica that hears
		// the wake-up (handOver) or ticks first.
		rec.ShowAt = rec.UpdatedAt
	}
}

// showsOwed reports whether this process shows its detached changes
// itself (a bot set its OwedFunc).
func (s *Service) showsOwed() bool {
	fn := s.owed.Load()
	return fn != nil && *fn != nil
}

// oweCard stores with a new game, under receipt r, that its first card is
// owed (EventStarted): shown by the writer, or by the clock's tick after
// ShowAt if the writer dies first.
func (s *Service) oweCard(r *receipt, rec *storage.GameRecord) {
	rec.Owed = []storage.GameEvent{{Kind: storage.EventStarted, Version: 1, Receipt: r.id}}
	rec.Receipts = []int64{r.id}
	rec.ShowAt = s.now().Add(showLease)
	r.wrote1(rec.ID)
}

func lastN[T any](s []T, n int) []T {
	if len(s) > n {
		return slices.Clone(s[len(s)-n:])
	}
	return s
}

// eventOf says what a write changed that the players see (Kind "" for
// nothing), and who made the change where the record tells.
func eventOf(before, after *storage.GameRecord) storage.GameEvent {
	switch {
	case before.Active() && !after.Active():
		return storage.GameEvent{Kind: storage.EventEnded}
	case before.RematchID == "" && after.RematchID != "":
		return storage.GameEvent{Kind: storage.EventRematch}
	case newRematchOffer(before, after):
		return storage.GameEvent{Kind: storage.EventRematchOffered, By: after.RematchBy}
	case len(before.Moves) != len(after.Moves):
		ev := storage.GameEvent{Kind: storage.EventMoved}
		// The mover's turn notice, taken off by the move, is to go.
		for uid, ref := range before.Notices {
			if _, ok := after.Notices[uid]; !ok {
				ev.By, ev.Notice = uid, ref
			}
		}
		return ev
	case before.DrawOfferBy == 0 && after.DrawOfferBy != 0:
		return storage.GameEvent{Kind: storage.EventDrawOffered, By: after.DrawOfferBy}
	case before.DrawOfferBy != 0 && after.DrawOfferBy == 0:
		by := after.White.UserID
		if by == before.DrawOfferBy {
			by = after.Black.UserID
		}
		return storage.GameEvent{Kind: storage.EventDrawDeclined, By: by}
	case after.Reminders > before.Reminders:
		return storage.GameEvent{Kind: storage.EventReminder}
	case !before.NoticeAt.IsZero() && after.NoticeAt.IsZero():
		return storage.GameEvent{Kind: storage.EventNotice}
	}
	return storage.GameEvent{}
}

// newRematchOffer reports whether the write made a rematch offer (a new
// one, or one in place of an offer that had expired).
func newRematchOffer(before, after *storage.GameRecord) bool {
	return after.RematchID == "" && after.RematchBy != 0 &&
		(before.RematchBy != after.RematchBy || !before.RematchUntil.Equal(after.RematchUntil))
}

// dueShow handles g's ShowAt in Tick's write, if it has passed at now:
// the events whose receipt is marked were shown by their writer and are
// forgotten; the others are claimed (ShowAt moves on by a lease) and
// returned to be shown. It reports whether it changed the record.
func (s *Service) dueShow(ctx context.Context, g *Game, now time.Time) ([]storage.GameEvent, bool, error) {
	rec := g.rec
	if rec.ShowAt.IsZero() || now.Before(rec.ShowAt) {
		return nil, false, nil
	}
	var unseen []storage.GameEvent
	for _, ev := range rec.Owed {
		seen, err := s.store.UpdateSeen(ctx, ev.Receipt)
		if err != nil {
			return nil, false, err
		}
		if !seen {
			unseen = append(unseen, ev)
		}
	}
	if len(unseen) == 0 {
		rec.Owed, rec.ShowAt = nil, timeZero
		return nil, true, nil
	}
	rec.Owed, rec.ShowAt = unseen, now.Add(showLease)
	return unseen, true, nil
}

// wakeSkew is how far the clock of a process that wakes the replicas
// (WithWake) may run ahead of theirs: what it stored due at once is due
// for them too.
const wakeSkew = time.Second

// Wake shows what game id owes now, as the clock's tick would: for a bot
// replica told that a change stored by a process that shows nothing
// (WithWake) owes the players something. Of the replicas woken, the one
// whose compare-and-set claims the owed events gets them (ClockEvent.Owed,
// each to be shown committed with its receipt); the others, and a game
// with nothing due, get the zero event. Other deadlines are the tick's.
func (s *Service) Wake(ctx context.Context, id string) (ClockEvent, error) {
	now := s.now()
	var owed []storage.GameEvent
	g, err := s.update(ctx, id, func(g *Game) error {
		at := now
		if d := g.rec.ShowAt.Sub(now); d > 0 && d <= wakeSkew {
			at = g.rec.ShowAt
		}
		var err error
		if owed, _, err = s.dueShow(ctx, g, at); err != nil || len(owed) == 0 {
			return cmp.Or(err, errUnchanged)
		}
		return nil
	})
	switch {
	case errors.Is(err, ErrBusy) || isNotFound(err):
		return ClockEvent{}, nil
	case err != nil || len(owed) == 0:
		return ClockEvent{}, err
	}
	return ClockEvent{Game: g, Owed: owed}, nil
}
