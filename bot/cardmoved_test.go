package bot_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/bashni/bashni/internal/telegramtest"
	"github.com/bashni/bashni/play"
)

// Issue 38: a card recorded after its game moved is redrawn. Bob accepts
// Alice's challenge on a process that dies before its outbox sends the
// card: the card, drawn before any move, waits in the journal. Alice
// moves on another process (a replica, or the next process before the
// dead one's lease runs out): the store names no card, so there is none
// to edit. Then the journal's card is sent and recorded; it showed the
// start, and nothing redrew it: the group saw "White to move" with a
// picker for a move already made, whose taps were refused as stale.
func TestACardRecordedAfterItsGameMovedShowsTheMove(t *testing.T) {
	cardRecordedAfter(t, -1005550041, "/move c3-d4", 1, "Black to move", "c3-d4")
}

// The same with a draw offer made while the card waited: the card,
// recorded, shows the offer and its buttons.
func TestACardRecordedAfterADrawOfferShowsIt(t *testing.T) {
	cardRecordedAfter(t, -1005550042, "/draw", 0, "offers a draw", "Accept draw")
}

// cardRecordedAfter: Alice's command is handled on a replica while the
// game's first card waits in a dead process's journal; the card, sent and
// recorded then, shows the game at ply with both wants in its caption or
// buttons.
func cardRecordedAfter(t *testing.T, group int64, command string, ply int, wants ...string) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	r := newBareRig(t, group, play.DefaultConfig)
	setup, out := r.live(t, ctx, "setup")
	u := r.srv.TextMessage(r.group, r.alice, "/challenge white")
	u.UpdateID = 1
	setup.Handle(ctx, u)
	settle(t, ctx, setup, out)
	challenge := r.botMessage(t, "text")

	dead := r.neverSends(t, ctx)
	bob := telegramtest.User(12, "Bob", "bob", "en")
	accept := r.srv.CallbackQuery(r.group, bob, challenge.ID, *challenge.ReplyMarkup.InlineKeyboard[0][0].CallbackData)
	accept.UpdateID = 2
	dead.Handle(ctx, accept)
	dead.Wait()
	games, err := r.svc.ActiveGames(ctx, 0, r.group.ID)
	if err != nil || len(games) != 1 || r.cards() != 0 {
		t.Fatalf("after the accept: games %v (%v), %d cards; want one game, its card unsent", games, err, r.cards())
	}
	r.gameID = games[0].ID()

	b, out := r.live(t, ctx, "replica")
	u = r.srv.TextMessage(r.group, r.alice, command)
	u.UpdateID = 100
	b.Handle(ctx, u)
	settle(t, ctx, b, out)
	g, err := r.svc.Game(ctx, r.gameID)
	if err != nil || g.Ply() != ply || g.MessageID() != 0 {
		t.Fatalf("after %s: %v, %v; want ply %d and no card recorded", command, g, err, ply)
	}

	r.clock.Advance(2 * time.Minute) // the dead process's journal lease runs out
	if _, err := out.Reclaim(ctx); err != nil {
		t.Fatal(err)
	}
	recorded := func() bool {
		g, err := r.svc.Game(ctx, r.gameID)
		return err == nil && g.MessageID() != 0
	}
	if !r.srv.WaitUntil(10*time.Second, recorded) {
		t.Fatalf("the journal's card was never recorded; calls %v", r.srv.Calls())
	}
	settle(t, ctx, b, out)
	g, err = r.svc.Game(ctx, r.gameID)
	if err != nil {
		t.Fatal(err)
	}
	m, ok := r.srv.Message(r.group.ID, g.MessageID())
	shown := m.Text
	for _, row := range m.ReplyMarkup.InlineKeyboard {
		for _, b := range row {
			shown += "\n" + b.Text
		}
	}
	for _, want := range wants {
		if !ok || !strings.Contains(shown, want) {
			t.Fatalf("the game's card %d shows %q, want %q; calls %v", g.MessageID(), shown, want, r.srv.Calls())
		}
	}
}
