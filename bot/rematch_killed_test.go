package bot_test

import (
	"context"
	"testing"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/bashni/bashni/bot"
	"github.com/bashni/bashni/internal/telegramtest"
	"github.com/bashni/bashni/play"
	"github.com/bashni/bashni/render"
)

// killedRematch is a group game Alice resigned, whose rematch she offered
// (update 201), and Bob's tap accepting it (update 202) on a process
// killed right after its writes: the finished game records the rematch,
// the rematch game is stored, its card never posted, the update never
// marked.
func killedRematch(t *testing.T, ctx context.Context) (r *eventsRig, accept tgbotapi.Update) {
	t.Helper()
	r = newEventsRig(t, ctx)
	bob := telegramtest.User(12, "Bob", "bob", "en")
	if _, err := r.svc.Resign(ctx, r.gameID, r.alice.ID); err != nil {
		t.Fatal(err)
	}
	b, out := r.live(t, ctx, "live")
	tap := bot.Callback{Kind: bot.KindRematch, ID: r.gameID}.Encode()
	offer := r.srv.CallbackQuery(r.group, r.alice, r.card, tap)
	offer.UpdateID = 201
	b.Handle(ctx, offer)
	settle(t, ctx, b, out)
	if g, err := r.svc.Game(ctx, r.gameID); err != nil || g.RematchBy() != r.alice.ID {
		t.Fatalf("after Alice's Rematch: %v, %v; want her offer", g, err)
	}
	cards := r.cards()

	accept = r.srv.CallbackQuery(r.group, bob, r.card, tap)
	accept.UpdateID = 202
	dead := bot.New(ctx, r.svc, r.store, diesAfterTheGameWrite{}, render.New(), bot.Config{Username: "bashni_test_bot"})
	dead.Handle(ctx, accept)
	dead.Wait()
	old, err := r.svc.Game(ctx, r.gameID)
	if err != nil || old.RematchID() == "" {
		t.Fatalf("the finished game after the killed tap: %v, %v; want the rematch recorded", old, err)
	}
	if _, err := r.svc.Game(ctx, old.RematchID()); err != nil {
		t.Fatalf("the rematch game after the killed tap: %v; want it stored", err)
	}
	if n := r.cards(); n != cards {
		t.Fatalf("%d cards posted by the killed process", n-cards)
	}
	return r, accept
}

// rematchCard counts the cards posted of the rematch of the rig's game.
func (r *eventsRig) rematchCards(t *testing.T, ctx context.Context) (n int, recorded bool) {
	t.Helper()
	old, err := r.svc.Game(ctx, r.gameID)
	if err != nil {
		t.Fatal(err)
	}
	g, err := r.svc.Game(ctx, old.RematchID())
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range r.srv.CallsTo("sendPhoto") {
		if c.ChatID() == r.group.ID && c.Status == 200 && c.ReplyMarkup() != nil && hasButtonOf(c.ReplyMarkup(), g.ID()) {
			n++
		}
	}
	return n, g.MessageID() != 0
}

// hasButtonOf reports whether a keyboard has a button of game id.
func hasButtonOf(kb *tgbotapi.InlineKeyboardMarkup, id string) bool {
	for _, row := range kb.InlineKeyboard {
		for _, b := range row {
			if b.CallbackData == nil {
				continue
			}
			if cb, err := bot.ParseCallback(*b.CallbackData); err == nil && cb.ID == id {
				return true
			}
		}
	}
	return false
}

// The process dies between Bob's rematch tap's writes and the rematch's
// card. Telegram delivers the tap again: it is recognised as the tap that
// started the rematch (not told the rematch started already), and the
// card is posted, once, and recorded.
func TestKilledAfterTheRematchRedeliveryPostsTheCard(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	r, accept := killedRematch(t, ctx)

	b, out := r.live(t, ctx, "restarted")
	b.Handle(ctx, accept)
	settle(t, ctx, b, out)
	if n, recorded := r.rematchCards(t, ctx); n != 1 || !recorded {
		t.Fatalf("%d cards of the rematch after the redelivered tap (recorded %v), want 1; %v", n, recorded, r.srv.Calls())
	}
	for _, c := range r.srv.CallsTo("answerCallbackQuery") {
		if c.Text() == b.Texts().Error("en", play.ErrRematchStarted, false) {
			t.Errorf("the redelivered tap was told the rematch started already")
		}
	}
	if seen, err := r.store.UpdateSeen(ctx, 202); err != nil || !seen {
		t.Errorf("the tap not marked after its card was shown: %v, %v", seen, err)
	}
	// The next ticks past ShowAt find it shown and post nothing more.
	r.clock.Advance(10 * time.Second)
	b.ClockTick(ctx)
	settle(t, ctx, b, out)
	if n, _ := r.rematchCards(t, ctx); n != 1 {
		t.Errorf("%d cards of the rematch after a later tick, want 1", n)
	}
}

// The same crash and no redelivery: once ShowAt has passed, the clock's
// tick on any process posts the rematch's card; the tap's late
// redelivery is a repeat.
func TestKilledAfterTheRematchTickPostsTheCard(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	r, accept := killedRematch(t, ctx)

	b, out := r.live(t, ctx, "other")
	b.ClockTick(ctx)
	settle(t, ctx, b, out)
	if n, _ := r.rematchCards(t, ctx); n != 0 {
		t.Fatalf("%d cards of the rematch before the writer's lease on showing it ended", n)
	}
	r.clock.Advance(10 * time.Second)
	b.ClockTick(ctx)
	settle(t, ctx, b, out)
	if n, recorded := r.rematchCards(t, ctx); n != 1 || !recorded {
		t.Fatalf("%d cards of the rematch after the tick (recorded %v), want 1; %v", n, recorded, r.srv.Calls())
	}
	b.Handle(ctx, accept)
	r.clock.Advance(10 * time.Second)
	b.ClockTick(ctx)
	settle(t, ctx, b, out)
	if n, _ := r.rematchCards(t, ctx); n != 1 {
		t.Errorf("%d cards of the rematch after the late redelivery and a tick, want 1", n)
	}
}
