package bot_test

import (
	"context"
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

	b, out := r.live(t, ctx, "restarted")
	b.Handle(ctx, offer)
	settle(t, ctx, b, out)
	if n := r.offers(); n != 1 {
		t.Fatalf("%d offers told after the redelivered tap, want 1; %v", n, r.srv.Calls())
	}
	if seen, err := r.store.UpdateSeen(ctx, 201); err != nil || !seen {
		t.Errorf("the tap not marked after its offer was told: %v, %v", seen, err)
	}
	r.clock.Advance(10 * time.Second)
	b.ClockTick(ctx)
	settle(t, ctx, b, out)
	if n := r.offers(); n != 1 {
		t.Errorf("%d offers told after a later tick, want 1", n)
	}
}

// The same crash and no redelivery: once ShowAt has passed, the clock's
// tick on any process tells Bob; the tap's late redelivery is a repeat.
func TestKilledAfterTheRematchOfferTickTellsIt(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	r, offer := killedOffer(t, ctx)

	b, out := r.live(t, ctx, "other")
	b.ClockTick(ctx)
	settle(t, ctx, b, out)
	if n := r.offers(); n != 0 {
		t.Fatalf("%d offers told before the writer's lease on showing it ended", n)
	}
	r.clock.Advance(10 * time.Second)
	b.ClockTick(ctx)
	settle(t, ctx, b, out)
	if n := r.offers(); n != 1 {
		t.Fatalf("%d offers told after the tick, want 1; %v", n, r.srv.Calls())
	}
	b.Handle(ctx, offer)
	r.clock.Advance(10 * time.Second)
	b.ClockTick(ctx)
	settle(t, ctx, b, out)
	if n := r.offers(); n != 1 {
		t.Errorf("%d offers told after the late redelivery and a tick, want 1", n)
	}
}
