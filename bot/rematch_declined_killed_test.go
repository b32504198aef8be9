package bot_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/bashni/bashni/bot"
	"github.com/bashni/bashni/internal/telegramtest"
	"github.com/bashni/bashni/render"
)

// killedDecline is a group game Alice resigned, whose rematch she offered
// (update 201, shown), and the offer's Decline tapped by who (update 202:
// Bob declining, or Alice withdrawing it) on a process killed right after
// its write: the offer is cleared, the chat never told, the card's buttons
// never redrawn, the update never marked.
func killedDecline(t *testing.T, ctx context.Context, who tgbotapi.User) (r *eventsRig, tap tgbotapi.Update) {
	t.Helper()
	r = newEventsRig(t, ctx)
	if _, err := r.svc.Resign(ctx, r.gameID, r.alice.ID); err != nil {
		t.Fatal(err)
	}
	b, out := r.live(t, ctx, "live")
	offer := r.srv.CallbackQuery(r.group, r.alice, r.card, bot.Callback{Kind: bot.KindRematch, ID: r.gameID}.Encode())
	offer.UpdateID = 201
	b.Handle(ctx, offer)
	settle(t, ctx, b, out)
	if !r.cardOffersRematch() {
		t.Fatal("the card does not show Alice's offer")
	}

	tap = r.srv.CallbackQuery(r.group, who, r.card, bot.Callback{Kind: bot.KindRematchNo, ID: r.gameID, Ply: -1}.Encode())
	tap.UpdateID = 202
	dead := bot.New(ctx, r.svc, r.store, diesAfterTheGameWrite{}, render.New(), bot.Config{Username: "bashni_test_bot"})
	dead.Handle(ctx, tap)
	dead.Wait()
	if g, err := r.svc.Game(ctx, r.gameID); err != nil || g.RematchBy() != 0 {
		t.Fatalf("after the killed tap: %v, %v; want the offer cleared", g, err)
	}
	if got, want := r.seenDeclines(), "0 declines told, the card offering true"; got != want {
		t.Fatalf("after the killed tap: %s, want %s", got, want)
	}
	return r, tap
}

// cardOffersRematch reports whether the card's buttons show a waiting
// rematch offer (its Accept).
func (r *eventsRig) cardOffersRematch() bool {
	m, _ := r.srv.Message(r.group.ID, r.card)
	if m.ReplyMarkup == nil {
		return false
	}
	for _, row := range m.ReplyMarkup.InlineKeyboard {
		for _, btn := range row {
			if btn.CallbackData != nil && strings.HasPrefix(*btn.CallbackData, bot.KindRematchOK+"|") {
				return true
			}
		}
	}
	return false
}

// seenDeclines says what the chat sees of the offer's end: the words, and
// whether the card still offers the rematch.
func (r *eventsRig) seenDeclines() string {
	return fmt.Sprintf("%d declines told, the card offering %v", r.sent("sendMessage", "Bob declined the rematch"), r.cardOffersRematch())
}

// The process dies between Bob's Decline's write and its message. Telegram
// delivers the tap again: it is recognised as applied (not refused for
// want of an offer), and the chat is told, once.
func TestKilledAfterTheRematchDeclineRedeliveryTellsIt(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	r, tap := killedDecline(t, ctx, telegramtest.User(12, "Bob", "bob", "en"))
	r.redeliveryShows(t, ctx, tap, r.seenDeclines, "1 declines told, the card offering false")
}

// The same crash, by Bob declining or by Alice withdrawing her offer, and
// no redelivery: once ShowAt has passed, the clock's tick on any process
// redraws the card's buttons and says a decline, once (a withdrawal is
// said by the buttons alone, as when nothing crashes); the tap's late
// redelivery is a repeat.
func TestKilledAfterTheRematchDeclineTickTellsIt(t *testing.T) {
	for _, tc := range []struct {
		name string
		who  tgbotapi.User
		want string
	}{
		{"declined", telegramtest.User(12, "Bob", "bob", "en"), "1 declines told, the card offering false"},
		{"withdrawn", telegramtest.User(11, "Alice", "alice", "en"), "0 declines told, the card offering false"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			r, tap := killedDecline(t, ctx, tc.who)
			r.tickShows(t, ctx, tap, r.seenDeclines, "0 declines told, the card offering true", tc.want)
		})
	}
}
