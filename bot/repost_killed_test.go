package bot_test

import (
	"context"
	"strings"
	"testing"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/bashni/bashni/bot"
	"github.com/bashni/bashni/bot/telegram/outbox"
)

// A /board re-posts the card. The process that handled it stored the
// sendPhoto with the update's mark and died before sending it; another
// process takes the request over once the dead one's lease has run out and
// sends it: the new card is recorded as the game's (the old one loses its
// buttons), so that later edits go to it, not to the card it replaced.
func TestKilledBeforeTheRepostIsSentTheSenderRecordsIt(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	r := newEventsRig(t, ctx)

	// The dead process: its outbox keeps what it is given in the store
	// and never runs.
	api, err := tgbotapi.NewBotAPIWithAPIEndpoint(r.srv.Token(), r.srv.Endpoint())
	if err != nil {
		t.Fatal(err)
	}
	deadOut := outbox.New(api, outbox.Options{Journal: outbox.StoreJournal(r.store, "dead", time.Minute, 24*time.Hour)})
	dead := wiredBot(ctx, r.svc, r.store, deadOut, bot.Config{Username: "bashni_test_bot"})
	board := r.srv.TextMessage(r.group, r.alice, "/board")
	board.UpdateID = 300
	dead.Handle(ctx, board)
	dead.Wait()
	if seen, err := r.store.UpdateSeen(ctx, 300); err != nil || !seen {
		t.Fatalf("/board not stored with its reply: %v, %v", seen, err)
	}
	before := r.cards()

	r.clock.Advance(2 * time.Minute) // past the dead process's lease
	b, out := r.live(t, ctx, "other")
	// Run takes over what the dead process kept as it starts.
	if !r.srv.WaitUntil(10*time.Second, func() bool { return r.cards() > before }) {
		t.Fatalf("the card kept by the dead process was never sent; %v", r.srv.Calls())
	}
	settle(t, ctx, b, out)
	if n := r.cards(); n != before+1 {
		t.Fatalf("%d cards posted by the process that took /board over, want 1", n-before)
	}
	var newCard int
	for _, m := range r.srv.Messages(r.group.ID) {
		if m.FromBot && m.Kind == "photo" && m.ID > newCard {
			newCard = m.ID
		}
	}
	g, err := r.svc.Game(ctx, r.gameID)
	if err != nil || g.MessageID() != newCard || newCard == r.card {
		t.Fatalf("the game's card after the taken-over /board: %v, %v; want the new card %d (the old was %d)", g, err, newCard, r.card)
	}
	if m, ok := r.srv.Message(r.group.ID, r.card); !ok || m.ReplyMarkup != nil && len(m.ReplyMarkup.InlineKeyboard) > 0 {
		t.Errorf("the old card kept its buttons")
	}
	// A move's edit goes to the new card.
	b.Handle(ctx, r.move())
	settle(t, ctx, b, out)
	edited := false
	for _, c := range r.srv.CallsTo("editMessageMedia") {
		if c.ChatID() == r.group.ID && strings.Contains(c.Text(), "Black to move") {
			if c.MessageID() != newCard {
				t.Errorf("the move's card edit went to message %d, want the new card %d", c.MessageID(), newCard)
			}
			edited = true
		}
	}
	if !edited {
		t.Errorf("the move edited no card; %v", r.srv.Calls())
	}
}
