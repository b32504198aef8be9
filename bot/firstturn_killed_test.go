package bot_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/bashni/bashni/bot"
	"github.com/bashni/bashni/bot/telegram/outbox"
	"github.com/bashni/bashni/internal/telegramtest"
	"github.com/bashni/bashni/internal/testkit"
	"github.com/bashni/bashni/play"
	"github.com/bashni/bashni/play/team"
	"github.com/bashni/bashni/storage/bolt"
)

// newBareRig is the events rig's store, service (with cfg) and fake Bot
// API, and no game yet.
func newBareRig(t *testing.T, group int64, cfg play.Config) *eventsRig {
	t.Helper()
	r := &eventsRig{srv: telegramtest.New(t), clock: testkit.NewClock(time.Now())}
	st, err := bolt.Open(filepath.Join(t.TempDir(), "bashni.db"), r.clock.Now)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	r.store, r.svc = st, play.New(st, nil, cfg, r.clock.Now)
	r.teams = team.New(r.svc, st, nil)
	r.svc.AddDeadline(r.teams.CloseDue)
	r.group = telegramtest.GroupChat(group, "Club")
	r.alice = telegramtest.User(11, "Alice", "alice", "en")
	return r
}

// neverSends is a process killed before its outbox sent anything: what
// its handlers committed is in the journal only (owner "dead", whose
// lease the test lets run out).
func (r *eventsRig) neverSends(t *testing.T, ctx context.Context) *bot.Bot {
	t.Helper()
	api, err := tgbotapi.NewBotAPIWithAPIEndpoint(r.srv.Token(), r.srv.Endpoint())
	if err != nil {
		t.Fatal(err)
	}
	out := outbox.New(api, outbox.Options{PerChat: 1000, PerGroup: 1000, Global: 1000,
		Journal: outbox.StoreJournal(r.store, "dead", time.Minute, 24*time.Hour)})
	return wiredBot(ctx, r.svc, r.store, out, bot.Config{Username: "bashni_test_bot", Modules: r.modules()})
}

// restarted is the next process: its Run takes over what the dead one's
// journal keeps, at start and in the background, so the test waits for
// what that must send (done) rather than for a flush, which cannot see
// replies Run has not claimed yet.
func (r *eventsRig) restarted(t *testing.T, ctx context.Context, done func(telegramtest.Call) bool) (*bot.Bot, *outbox.Outbox) {
	t.Helper()
	b, out := r.live(t, ctx, "restarted")
	r.srv.WaitFor(t, 10*time.Second, done)
	settle(t, ctx, b, out)
	return b, out
}

// sent counts the calls of method to the group that Telegram took whose
// text has want.
func (r *eventsRig) sent(method, want string) int {
	n := 0
	for _, c := range r.srv.CallsTo(method) {
		if c.ChatID() == r.group.ID && c.Status == 200 && strings.Contains(c.Text(), want) {
			n++
		}
	}
	return n
}

// "/team 1 poll" is handled by a process killed before its outbox sent
// the card: the card is in the journal, sent by the next process. The
// chat's first poll, which follows the card, was a callback in the dead
// process's memory; it is owed by the card's record now, so the next
// process opens it, once.
func TestKilledBeforeTheTeamCardTheNextProcessOpensThePoll(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	r := newBareRig(t, -1005550031, play.DefaultConfig)
	dead := r.neverSends(t, ctx)
	u := r.srv.TextMessage(r.group, r.alice, "/team 1 poll")
	u.UpdateID = 300
	dead.Handle(ctx, u)
	dead.Wait()
	if n := len(r.srv.CallsTo("sendPhoto")) + len(r.srv.CallsTo("sendPoll")); n != 0 {
		t.Fatalf("%d cards or polls sent by the killed process", n)
	}

	r.clock.Advance(2 * time.Minute) // the dead process's journal lease runs out
	b, out := r.restarted(t, ctx, func(c telegramtest.Call) bool { return c.Method == "sendPoll" })
	if n := r.cards(); n != 1 {
		t.Fatalf("%d cards after the restart, want 1", n)
	}
	if n := len(r.srv.CallsTo("sendPoll")); n != 1 {
		t.Fatalf("%d polls after the restart, want the first turn's; %v", n, r.srv.Calls())
	}
	r.clock.Advance(10 * time.Second)
	b.ClockTick(ctx)
	settle(t, ctx, b, out)
	if n := len(r.srv.CallsTo("sendPoll")); n != 1 {
		t.Errorf("%d polls after a later tick, want 1", n)
	}
}

// With turn notices at once (NoticeDelay 0), Bob accepts Alice's
// challenge on a process killed before its outbox sent the card: the next
// process sends it and, as the dead one would have, tells Alice it is her
// move, once (the call is owed by the card's record).
func TestKilledBeforeTheCardTheNextProcessSaysYourMove(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cfg := play.DefaultConfig
	cfg.NoticeDelay = 0
	r := newBareRig(t, -1005550032, cfg)
	b, out := r.live(t, ctx, "setup")
	u := r.srv.TextMessage(r.group, r.alice, "/challenge white")
	u.UpdateID = 1
	b.Handle(ctx, u)
	settle(t, ctx, b, out)
	challenge := r.botMessage(t, "text")

	dead := r.neverSends(t, ctx)
	bob := telegramtest.User(12, "Bob", "bob", "en")
	accept := r.srv.CallbackQuery(r.group, bob, challenge.ID, *challenge.ReplyMarkup.InlineKeyboard[0][0].CallbackData)
	accept.UpdateID = 2
	dead.Handle(ctx, accept)
	dead.Wait()
	started := "the game has started"
	if n := r.cards() + r.sent("sendMessage", started); n != 0 {
		t.Fatalf("%d cards or notices sent by the killed process", n)
	}

	r.clock.Advance(2 * time.Minute)
	b, out = r.restarted(t, ctx, func(c telegramtest.Call) bool {
		return c.Method == "sendMessage" && strings.Contains(c.Text(), started)
	})
	if n := r.cards(); n != 1 {
		t.Fatalf("%d cards after the restart, want 1", n)
	}
	if n := r.sent("sendMessage", started); n != 1 {
		t.Fatalf("%d notices to Alice after the restart, want 1; %v", n, r.srv.Calls())
	}
	r.clock.Advance(10 * time.Second)
	b.ClockTick(ctx)
	settle(t, ctx, b, out)
	if n := r.sent("sendMessage", started); n != 1 {
		t.Errorf("%d notices to Alice after a later tick, want 1", n)
	}
}
