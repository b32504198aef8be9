package tournament_test

import (
	"context"
	"strconv"
	"testing"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/bashni/bashni/bot/telegram/outbox"
	"github.com/bashni/bashni/internal/telegramtest"
	"github.com/bashni/bashni/play/tournament"
	"github.com/bashni/bashni/storage"
)

// A tournament pairs Alice and Bob as Bob joins by the group card's link.
// The process that handled his /start kept the new game's two cards (the
// game's own in White's chat, the second in Black's) in the journal and
// died before sending them. Another process takes them over once the
// dead one's lease has run out and sends them: it records both, so that
// the clock, once a new game has gone without its cards recorded for long
// enough, finds none to post again, and each player has one board.
func TestKilledBeforeTheTournamentCardsTheSenderRecordsThem(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	r := newRig(t)
	r.group = telegramtest.GroupChat(-1005550030, "Arena club")
	r.alice = telegramtest.User(11, "Alice", "alice", "en")
	bob := telegramtest.User(12, "Bob", "bob", "en")

	tour, err := r.tours.Start(ctx, tournament.Request{ChatID: r.group.ID, By: storage.Player{UserID: r.alice.ID, Name: "Alice"},
		TimeControl: "5+3", Duration: 30 * time.Minute, Lang: "en"})
	if err != nil {
		t.Fatal(err)
	}
	if ev, err := r.tours.Join(ctx, r.group.ID, tour.ID, storage.Player{UserID: r.alice.ID, Name: "Alice"}, "en"); err != nil || ev != nil && len(ev.Games) > 0 {
		t.Fatalf("Alice joins alone: %+v, %v; want no game", ev, err)
	}

	// The dead process: its outbox keeps what it is given in the store
	// and never runs.
	api, err := tgbotapi.NewBotAPIWithAPIEndpoint(r.srv.Token(), r.srv.Endpoint())
	if err != nil {
		t.Fatal(err)
	}
	deadOut := outbox.New(api, outbox.Options{Journal: outbox.StoreJournal(r.store, "dead", time.Minute, 24*time.Hour)})
	dead := r.wiredBot(ctx, deadOut)
	join := r.srv.TextMessage(telegramtest.PrivateChat(bob), bob, "/start tj"+strconv.FormatInt(r.group.ID, 10)+"_"+tour.ID)
	join.UpdateID = 400
	dead.Handle(ctx, join)
	dead.Wait()
	if seen, err := r.store.UpdateSeen(ctx, 400); err != nil || !seen {
		t.Fatalf("Bob's join not stored with its replies: %v, %v", seen, err)
	}
	cur, err := r.tours.Current(ctx, r.group.ID)
	if err != nil || len(cur.Games) != 1 {
		t.Fatalf("the tournament after Bob's join: %+v, %v; want Alice and Bob paired", cur, err)
	}
	gameID := cur.Games[0].ID
	g, err := r.svc.Game(ctx, gameID)
	if err != nil {
		t.Fatal(err)
	}
	white, black := g.White().UserID, g.Black().UserID
	if n := len(r.srv.CallsTo("sendPhoto")); n != 0 {
		t.Fatalf("the dead process sent %d cards", n)
	}

	r.clock.Advance(2 * time.Minute) // past the dead process's lease
	b, out := r.live(t, ctx, "next")
	// Run takes over what the dead process kept as it starts.
	if !r.srv.WaitUntil(10*time.Second, func() bool { return privateCards(r.srv, white) == 1 && privateCards(r.srv, black) == 1 }) {
		t.Fatalf("the cards kept by the dead process were not sent; %v", r.srv.Calls())
	}
	settle(t, ctx, b, out)
	g, err = r.svc.Game(ctx, gameID)
	if err != nil {
		t.Fatal(err)
	}
	m, ok := g.Mirrored()
	if !ok || g.MessageID() != lastCard(r.srv, white) || m.MessageID() != lastCard(r.srv, black) {
		t.Fatalf("the cards recorded: the game's %d, the second %d; want White's %d and Black's %d",
			g.MessageID(), m.MessageID(), lastCard(r.srv, white), lastCard(r.srv, black))
	}

	// The clock, when the game's cards would be posted again if they had
	// not been recorded, posts none.
	r.clock.Advance(time.Minute)
	b.ClockTick(ctx)
	settle(t, ctx, b, out)
	if w, bl := privateCards(r.srv, white), privateCards(r.srv, black); w != 1 || bl != 1 {
		t.Errorf("cards after the clock: %d in White's chat, %d in Black's; want one each", w, bl)
	}
}

// privateCards counts the cards (photos) the bot posted in a user's chat.
func privateCards(srv *telegramtest.Server, userID int64) int {
	n := 0
	for _, m := range srv.Messages(userID) {
		if m.FromBot && m.Kind == "photo" {
			n++
		}
	}
	return n
}

// lastCard is the newest card the bot posted in a user's chat.
func lastCard(srv *telegramtest.Server, userID int64) int {
	id := 0
	for _, m := range srv.Messages(userID) {
		if m.FromBot && m.Kind == "photo" {
			id = max(id, m.ID)
		}
	}
	return id
}
