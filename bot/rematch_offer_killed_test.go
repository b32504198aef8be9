package bot_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/bashni/bashni/bot"
	"github.com/bashni/bashni/render"
)

// killedOffer is a group game Alice resigned, and her Rematch tap (update
// 201) on a process killed right after its write: the offer is stored,
// the chat never told, the update never marked.
func killedOffer(t *testing.T, ctx context.Context) (r *eventsRig, offer tgbotapi.Update) {
	t.Helper()
	r = newEventsRig(t, ctx)
	if _, err := r.svc.Resign(ctx, r.gameID, r.alice.ID); err != nil {
		t.Fatal(err)
	}
	offer = r.srv.CallbackQuery(r.group, r.alice, r.card, bot.Callback{Kind: bot.KindRematch, ID: r.gameID}.Encode())
	offer.UpdateID = 201
	dead := bot.New(ctx, r.svc, r.store, diesAfterTheGameWrite{}, render.New(), bot.Config{Username: "bashni_test_bot"})
	dead.Handle(ctx, offer)
	dead.Wait()
	if g, err := r.svc.Game(ctx, r.gameID); err != nil || g.RematchBy() != r.alice.ID {
		t.Fatalf("after the killed tap: %v, %v; want Alice's offer stored", g, err)
	}
	if n := r.offers(); n != 0 {
		t.Fatalf("%d offers told by the killed process", n)
	}
	return r, offer
}

// offers counts the messages telling Bob of Alice's rematch offer.
func (r *eventsRig) offers() int {
	n := 0
	for _, c := range r.srv.CallsTo("sendMessage") {
		if c.ChatID() == r.group.ID && c.Status == 200 && strings.Contains(c.Text(), "offers") && strings.Contains(c.Text(), "rematch") {
			n++
		}
	}
	return n
}

// The process dies between Alice's offer's write and its message. Telegram
// delivers the tap again: it is recognised as applied (not refused as a
// second offer), and Bob is told, once.
func TestKilledAfterTheRematchOfferRedeliveryTellsIt(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	r, offer := killedOffer(t, ctx)
	r.redeliveryShows(t, ctx, offer, r.toldOffers, "1 offers told")
}

// The same crash and no redelivery: once ShowAt has passed, the clock's
// tick on any process tells Bob; the tap's late redelivery is a repeat.
func TestKilledAfterTheRematchOfferTickTellsIt(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	r, offer := killedOffer(t, ctx)
	r.tickShows(t, ctx, offer, r.toldOffers, "0 offers told", "1 offers told")
}

func (r *eventsRig) toldOffers() string { return fmt.Sprintf("%d offers told", r.offers()) }

// redeliveryShows has a restarted process handle u, an update Telegram
// delivers again after a crash cut its replies off, and checks that what
// u owed is shown then (seen says what the chat sees, want what it
// should), u is marked, and a later tick shows nothing more.
func (r *eventsRig) redeliveryShows(t *testing.T, ctx context.Context, u tgbotapi.Update, seen func() string, want string) {
	t.Helper()
	b, out := r.live(t, ctx, "restarted")
	b.Handle(ctx, u)
	settle(t, ctx, b, out)
	if got := seen(); got != want {
		t.Fatalf("after the redelivered update: %s, want %s; %v", got, want, r.srv.Calls())
	}
	if marked, err := r.store.UpdateSeen(ctx, int64(u.UpdateID)); err != nil || !marked {
		t.Errorf("the update not marked after what it owed was shown: %v, %v", marked, err)
	}
	r.clock.Advance(10 * time.Second)
	b.ClockTick(ctx)
	settle(t, ctx, b, out)
	if got := seen(); got != want {
		t.Errorf("after a later tick: %s, want %s", got, want)
	}
}

// tickShows is the same crash and no redelivery of u: another process's
// clock tick shows nothing while the dead writer's lease on showing runs
// (the chat sees before), and what u owed once ShowAt has passed (want);
// u's late redelivery is a repeat.
func (r *eventsRig) tickShows(t *testing.T, ctx context.Context, u tgbotapi.Update, seen func() string, before, want string) {
	t.Helper()
	b, out := r.live(t, ctx, "other")
	b.ClockTick(ctx)
	settle(t, ctx, b, out)
	if got := seen(); got != before {
		t.Fatalf("before the writer's lease on showing it ended: %s, want %s", got, before)
	}
	r.clock.Advance(10 * time.Second)
	b.ClockTick(ctx)
	settle(t, ctx, b, out)
	if got := seen(); got != want {
		t.Fatalf("after the tick: %s, want %s; %v", got, want, r.srv.Calls())
	}
	b.Handle(ctx, u)
	r.clock.Advance(10 * time.Second)
	b.ClockTick(ctx)
	settle(t, ctx, b, out)
	if got := seen(); got != want {
		t.Errorf("after the late redelivery and a tick: %s, want %s", got, want)
	}
}
