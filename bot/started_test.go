package bot_test

import (
	"context"
	"testing"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/bashni/bashni/bot"
	"github.com/bashni/bashni/internal/telegramtest"
	"github.com/bashni/bashni/render"
)

// killedAccept is a group challenge by Alice that Bob accepts (update 2)
// on a process killed right after the game's write: the game is stored,
// its card never posted, the update never marked.
func killedAccept(t *testing.T, ctx context.Context) (r *eventsRig, accept tgbotapi.Update) {
	t.Helper()
	r, b, out, challenge := newChallengeRig(t, ctx, -1005550002)
	bob := telegramtest.User(12, "Bob", "bob", "en")
	settle(t, ctx, b, out)
	accept = r.srv.CallbackQuery(r.group, bob, challenge.ID, *challenge.ReplyMarkup.InlineKeyboard[0][0].CallbackData)
	accept.UpdateID = 2

	dead := bot.New(ctx, r.svc, r.store, diesAfterTheGameWrite{}, render.New(), bot.Config{Username: "bashni_test_bot"})
	dead.Handle(ctx, accept)
	dead.Wait()
	ids, err := r.svc.ActiveGames(ctx, 0, r.group.ID)
	if err != nil || len(ids) != 1 {
		t.Fatalf("active games after the killed accept: %v, %v; want the game stored", ids, err)
	}
	r.gameID = ids[0].ID()
	if n := r.cards(); n != 0 {
		t.Fatalf("%d cards posted by the killed process", n)
	}
	return r, accept
}

// cards counts the game cards (photos) the bot posted in the group.
func (r *eventsRig) cards() int {
	n := 0
	for _, c := range r.srv.CallsTo("sendPhoto") {
		if c.ChatID() == r.group.ID && c.Status == 200 {
			n++
		}
	}
	return n
}

// The process dies between an accept's game write and the card. Telegram
// delivers the accept again: it is recognised as the one that made the
// game (not answered "the challenge is gone"), and the card is posted,
// once.
func TestKilledAfterTheAcceptRedeliveryPostsTheCard(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	r, accept := killedAccept(t, ctx)

	b, out := r.live(t, ctx, "restarted")
	b.Handle(ctx, accept)
	settle(t, ctx, b, out)
	if n := r.cards(); n != 1 {
		t.Fatalf("%d cards after the redelivered accept, want 1; %v", n, r.srv.Calls())
	}
	for _, c := range r.srv.CallsTo("editMessageText") {
		if c.ChatID() == r.group.ID && c.Text() == b.Texts().T("en", "challenge_gone") {
			t.Errorf("the redelivered accept was told the challenge is gone")
		}
	}
	if seen, err := r.store.UpdateSeen(ctx, 2); err != nil || !seen {
		t.Errorf("the accept not marked after its card was shown: %v, %v", seen, err)
	}
	// The next tick past ShowAt finds it shown and posts nothing more.
	r.clock.Advance(10 * time.Second)
	b.ClockTick(ctx)
	settle(t, ctx, b, out)
	if n := r.cards(); n != 1 {
		t.Errorf("%d cards after a later tick, want 1", n)
	}
}

// The same crash and no redelivery: once the game's ShowAt has passed, the
// clock's tick on any process posts the card.
func TestKilledAfterTheAcceptTickPostsTheCard(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	r, accept := killedAccept(t, ctx)

	b, out := r.live(t, ctx, "other")
	b.ClockTick(ctx)
	settle(t, ctx, b, out)
	if n := r.cards(); n != 0 {
		t.Fatalf("%d cards before the writer's lease on showing the game ended", n)
	}
	r.clock.Advance(10 * time.Second)
	b.ClockTick(ctx)
	settle(t, ctx, b, out)
	if n := r.cards(); n != 1 {
		t.Fatalf("%d cards after the tick, want 1", n)
	}
	// Telegram's late redelivery of the accept is a repeat now.
	b.Handle(ctx, accept)
	b.ClockTick(ctx)
	settle(t, ctx, b, out)
	if n := r.cards(); n != 1 {
		t.Errorf("%d cards after the late redelivery, want 1", n)
	}
	if g, err := r.svc.Game(ctx, r.gameID); err != nil || g.MessageID() == 0 {
		t.Errorf("the posted card was not recorded: %v, %v", g, err)
	}
}
