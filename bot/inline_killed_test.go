package bot_test

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/bashni/bashni/bot"
	"github.com/bashni/bashni/internal/telegramtest"
	"github.com/bashni/bashni/internal/testkit"
	"github.com/bashni/bashni/play"
	"github.com/bashni/bashni/render"
	"github.com/bashni/bashni/storage"
	"github.com/bashni/bashni/storage/bolt"
)

// killedInlineAccept is a challenge Alice posted on an inline message
// (inline mode), and Bob's tap accepting it (update 20) on a process killed
// right after the game's write: the game is stored, its board never drawn
// on the inline message, the update never marked.
func killedInlineAccept(t *testing.T, ctx context.Context) (r *eventsRig, inlineID string, accept tgbotapi.Update) {
	t.Helper()
	bob := telegramtest.User(12, "Bob", "bob", "en")
	r, inlineID, data := inlineOffer(t, ctx, bob, true)
	accept = r.srv.CallbackOnInlineMessage(bob, inlineID, data)
	accept.UpdateID = 20
	// The dead process's own service: its store takes the game's creation
	// and nothing after it (the inline message, recorded in the
	// background, never is).
	deadSvc := play.New(diesAfterTheCreate{r.store}, nil, play.DefaultConfig, r.clock.Now)
	dead := bot.New(ctx, deadSvc, r.store, diesAfterTheGameWrite{}, render.New(), bot.Config{Username: "bashni_test_bot"})
	dead.Handle(ctx, accept)
	dead.Wait()
	games, err := r.svc.ActiveGames(ctx, bob.ID, 0)
	if err != nil || len(games) != 1 {
		t.Fatalf("Bob's games after the killed accept: %v, %v; want the game stored", games, err)
	}
	r.gameID = games[0].ID()
	if r.showsTheGame(inlineID) {
		t.Fatal("the killed process drew the board")
	}
	return r, inlineID, accept
}

// inlineOffer is Alice's challenge to play White, offered on an inline
// message in a rig on bbolt: bob has started the bot, and Alice too if
// aliceStarted, so that boards can be uploaded to their private chats
// (with neither, and no media chat, the offer is posted as text). It
// returns the inline message and its Accept's data.
func inlineOffer(t *testing.T, ctx context.Context, bob tgbotapi.User, aliceStarted bool) (r *eventsRig, inlineID, accept string) {
	t.Helper()
	r = &eventsRig{srv: telegramtest.New(t), clock: testkit.NewClock(time.Now())}
	st, err := bolt.Open(filepath.Join(t.TempDir(), "bashni.db"), r.clock.Now)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	r.store = st
	r.svc = play.New(st, nil, play.DefaultConfig, r.clock.Now)
	r.alice = telegramtest.User(11, "Alice", "alice", "en")
	b, out := r.live(t, ctx, "setup")
	starters := []tgbotapi.User{bob}
	if aliceStarted {
		starters = []tgbotapi.User{r.alice, bob}
	}
	for i, u := range starters {
		start := r.srv.TextMessage(telegramtest.PrivateChat(u), u, "/start")
		start.UpdateID = 1 + i
		b.Handle(ctx, start)
	}
	q := r.srv.InlineQuery(r.alice, "")
	q.UpdateID = 10
	r.srv.PushUpdate(q) // the fake learns the query to be answered; nobody polls
	b.Handle(ctx, q)
	settle(t, ctx, b, out)
	results, ok := r.srv.InlineAnswer(q.InlineQuery.ID)
	if !ok || len(results) == 0 {
		t.Fatalf("the inline query was not answered: %v; %v", results, r.srv.Calls())
	}
	var first struct {
		ID string `json:"id"`
	}
	if err := json.Unmarshal(results[0], &first); err != nil {
		t.Fatal(err)
	}
	inlineID = r.srv.ChosenInlineResult(r.alice, first.ID, "").ChosenInlineResult.InlineMessageID
	offer, _ := r.srv.InlineMessage(inlineID)
	for _, row := range offer.ReplyMarkup.InlineKeyboard {
		for _, btn := range row {
			if btn.CallbackData != nil && strings.HasPrefix(*btn.CallbackData, bot.KindAccept+"|") {
				accept = *btn.CallbackData
			}
		}
	}
	if accept == "" {
		t.Fatalf("no Accept button on the inline challenge: %+v", offer.ReplyMarkup)
	}
	return r, inlineID, accept
}

// diesAfterTheCreate is the store of a process killed right after it
// created a game: no later game write happens.
type diesAfterTheCreate struct {
	play.Store
}

func (diesAfterTheCreate) UpdateGame(context.Context, *storage.GameRecord) error {
	return errors.New("killed")
}

// showsTheGame reports whether the inline message shows the game's board.
func (r *eventsRig) showsTheGame(inlineID string) bool {
	m, ok := r.srv.InlineMessage(inlineID)
	return ok && m.Kind == "photo" && strings.Contains(m.Text, "Alice vs ⚫ Bob")
}

// The process dies between the write of a game accepted on an inline
// message and the board drawn there. Telegram delivers the tap again: it
// is recognised as the one that made the game, and the board is drawn on
// the inline message, which is the game's card from its write.
func TestKilledAfterTheInlineAcceptRedeliveryDrawsTheBoard(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	r, inlineID, accept := killedInlineAccept(t, ctx)

	b, out := r.live(t, ctx, "restarted")
	b.Handle(ctx, accept)
	settle(t, ctx, b, out)
	if !r.showsTheGame(inlineID) {
		m, _ := r.srv.InlineMessage(inlineID)
		t.Fatalf("the inline message after the redelivered accept is %s %q, want the game's board; %v", m.Kind, m.Text, r.srv.Calls())
	}
	if seen, err := r.store.UpdateSeen(ctx, 20); err != nil || !seen {
		t.Errorf("the accept not marked after its board was shown: %v, %v", seen, err)
	}
}

// The same crash and no redelivery: once ShowAt has passed, the clock's
// tick on any process draws the board on the inline message.
func TestKilledAfterTheInlineAcceptTickDrawsTheBoard(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	r, inlineID, _ := killedInlineAccept(t, ctx)

	b, out := r.live(t, ctx, "other")
	r.clock.Advance(10 * time.Second)
	b.ClockTick(ctx)
	settle(t, ctx, b, out)
	if !r.showsTheGame(inlineID) {
		m, _ := r.srv.InlineMessage(inlineID)
		t.Fatalf("the inline message after the tick is %s %q, want the game's board; %v", m.Kind, m.Text, r.srv.Calls())
	}
}
