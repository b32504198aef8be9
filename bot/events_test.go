package bot_test

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/bashni/bashni/bot"
	teambot "github.com/bashni/bashni/bot/team"
	"github.com/bashni/bashni/bot/telegram/outbox"
	"github.com/bashni/bashni/internal/telegramtest"
	"github.com/bashni/bashni/internal/testkit"
	"github.com/bashni/bashni/play"
	"github.com/bashni/bashni/play/team"
	"github.com/bashni/bashni/render"
	"github.com/bashni/bashni/storage/bolt"
)

// diesAfterTheGameWrite is the Sender and Committer of a process killed
// right after its game write: the replies of the update it was handling
// are never stored nor sent, and the update is never marked.
type diesAfterTheGameWrite struct{}

func (diesAfterTheGameWrite) Enqueue(outbox.Reply) error { return errors.New("killed") }

func (diesAfterTheGameWrite) Commit(context.Context, int64, []outbox.Reply) (bool, error) {
	return false, errors.New("killed")
}

// eventsRig is a group game between Alice (White) and Bob with its card
// posted, on bbolt, with a clock the test moves.
type eventsRig struct {
	srv    *telegramtest.Server
	store  *bolt.Store
	clock  *testkit.Clock
	svc    *play.Service
	teams  *team.Service // the groups' games by vote, if the rig has them
	group  tgbotapi.Chat
	alice  tgbotapi.User
	gameID string
	card   int
}

// live is a bot process: a service, an outbox with its journal in the
// store, and the bot.
func (r *eventsRig) live(t *testing.T, ctx context.Context, owner string) (*bot.Bot, *outbox.Outbox) {
	t.Helper()
	api, err := tgbotapi.NewBotAPIWithAPIEndpoint(r.srv.Token(), r.srv.Endpoint())
	if err != nil {
		t.Fatal(err)
	}
	out := outbox.New(api, outbox.Options{PerChat: 1000, PerGroup: 1000, Global: 1000,
		Journal: outbox.StoreJournal(r.store, owner, time.Minute, 24*time.Hour)})
	// The bot first, as Main does: it gives the outbox what draws and
	// records the replies Run may take over from a dead process at once.
	b := wiredBot(ctx, r.svc, r.store, out, bot.Config{Username: "bashni_test_bot", Modules: r.modules()})
	go out.Run(ctx)
	return b, out
}

func newEventsRig(t *testing.T, ctx context.Context) *eventsRig {
	t.Helper()
	r, b, out, challenge := newChallengeRig(t, ctx, -1005550001)
	bob := telegramtest.User(12, "Bob", "bob", "en")
	if challenge.ReplyMarkup == nil {
		t.Fatal("the challenge has no Accept button")
	}
	accept := challenge.ReplyMarkup.InlineKeyboard[0][0].CallbackData
	u := r.srv.CallbackQuery(r.group, bob, challenge.ID, *accept)
	u.UpdateID = 2
	b.Handle(ctx, u)
	r.card = r.botMessage(t, "photo").ID
	ids, err := r.svc.ActiveGames(ctx, 0, r.group.ID)
	if err != nil || len(ids) != 1 {
		t.Fatalf("active games in the group: %v, %v", ids, err)
	}
	r.gameID = ids[0].ID()
	// The card's message id is stored in the background once it is sent.
	if err := out.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	b.Wait()
	if g, err := r.svc.Game(ctx, r.gameID); err != nil || g.MessageID() != r.card {
		t.Fatalf("the card's message id was not stored: %v, %v", g, err)
	}
	if err := out.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	return r
}

// newChallengeRig is a group on bbolt, with a clock the test moves, where
// Alice (update 1) has challenged anyone to play her as White; it returns
// the live process that posted the challenge and the challenge.
func newChallengeRig(t *testing.T, ctx context.Context, group int64) (*eventsRig, *bot.Bot, *outbox.Outbox, telegramtest.Msg) {
	t.Helper()
	r := &eventsRig{srv: telegramtest.New(t), clock: testkit.NewClock(time.Now())}
	st, err := bolt.Open(filepath.Join(t.TempDir(), "bashni.db"), r.clock.Now)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	r.store = st
	r.svc = play.New(st, nil, play.DefaultConfig, r.clock.Now)
	r.group = telegramtest.GroupChat(group, "Club")
	r.alice = telegramtest.User(11, "Alice", "alice", "en")
	b, out := r.live(t, ctx, "setup")
	u := r.srv.TextMessage(r.group, r.alice, "/challenge white")
	u.UpdateID = 1
	b.Handle(ctx, u)
	return r, b, out, r.botMessage(t, "text")
}

// botMessage waits for the bot's first message of kind in the group.
func (r *eventsRig) botMessage(t *testing.T, kind string) telegramtest.Msg {
	t.Helper()
	var found telegramtest.Msg
	if !r.srv.WaitUntil(10*time.Second, func() bool {
		for _, m := range r.srv.Messages(r.group.ID) {
			if m.FromBot && m.Kind == kind {
				found = m
				return true
			}
		}
		return false
	}) {
		t.Fatalf("no %s from the bot in the group", kind)
	}
	return found
}

// move is Alice's typed first move, update 100.
func (r *eventsRig) move() tgbotapi.Update {
	u := r.srv.TextMessage(r.group, r.alice, "/move c3-d4")
	u.UpdateID = 100
	return u
}

// killedMidMove plays Alice's move on a process that dies right after the
// game write, and checks that the move is stored and nothing was said.
func (r *eventsRig) killedMidMove(t *testing.T, ctx context.Context) {
	t.Helper()
	dead := bot.New(ctx, r.svc, r.store, diesAfterTheGameWrite{}, render.New(), bot.Config{Username: "bashni_test_bot"})
	dead.Handle(ctx, r.move())
	dead.Wait()
	g, err := r.svc.Game(ctx, r.gameID)
	if err != nil || g.Ply() != 1 {
		t.Fatalf("after the killed move: %v, %v; want the move stored", g, err)
	}
	if seen, _ := r.store.UpdateSeen(ctx, 100); seen {
		t.Fatal("the killed process marked the update")
	}
}

// cardEdits counts the edits of the card showing Alice's move.
func (r *eventsRig) cardEdits() int {
	n := 0
	for _, c := range r.srv.CallsTo("editMessageMedia") {
		if c.ChatID() == r.group.ID && c.MessageID() == r.card && strings.Contains(c.Text(), "Black to move") {
			n++
		}
	}
	return n
}

func (r *eventsRig) checkMovedOnce(t *testing.T, ctx context.Context) {
	t.Helper()
	g, err := r.svc.Game(ctx, r.gameID)
	if err != nil || g.Ply() != 1 {
		t.Fatalf("game after the restart: %v, %v; want Alice's one move", g, err)
	}
	for _, c := range r.srv.CallsTo("sendMessage") {
		if c.ChatID() == r.group.ID && strings.Contains(c.Text(), "'s move.") {
			t.Errorf("the group was told %q: the redelivered update was handled as a new move", c.Text())
		}
	}
	if seen, err := r.store.UpdateSeen(ctx, 100); err != nil || !seen {
		t.Errorf("update 100 not marked after its change was shown: %v, %v", seen, err)
	}
}

// The process dies between a move's game write and the write of its
// replies. Telegram delivers the update again to the next process: it is
// recognised as applied (not refused as "not White's move") and the card
// shows the move.
func TestKilledAfterTheGameWriteRedeliveryShowsTheMove(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	r := newEventsRig(t, ctx)
	r.killedMidMove(t, ctx)

	b, out := r.live(t, ctx, "restarted")
	b.Handle(ctx, r.move())
	b.Wait()
	if err := out.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	if n := r.cardEdits(); n != 1 {
		t.Fatalf("%d card edits with the move after the redelivery, want 1; %v", n, r.srv.Calls())
	}
	r.checkMovedOnce(t, ctx)
}

// The same crash, and no redelivery (the update was acknowledged, or
// Telegram gave up): once the change's ShowAt has passed, the clock's tick
// on any process shows it; a redelivery after that is a repeat.
func TestKilledAfterTheGameWriteTickShowsTheMove(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	r := newEventsRig(t, ctx)
	r.killedMidMove(t, ctx)

	b, out := r.live(t, ctx, "other")
	b.ClockTick(ctx)
	if err := out.Flush(ctx); err != nil {
		t.Fatal(err)
	}
	if n := r.cardEdits(); n != 0 {
		t.Fatalf("%d card edits before the writer's lease on showing the move ended", n)
	}
	// Past the writer's lease on showing its change (5 s), before the
	// turn notice falls due (a minute).
	r.clock.Advance(10 * time.Second)
	b.ClockTick(ctx)
	settle(t, ctx, b, out)
	if n := r.cardEdits(); n != 1 {
		t.Fatalf("%d card edits with the move after the tick, want 1", n)
	}
	calls := len(r.srv.Calls())
	b.Handle(ctx, r.move())
	b.ClockTick(ctx)
	settle(t, ctx, b, out)
	if all := r.srv.Calls(); len(all) != calls {
		t.Errorf("the redelivered update or the next tick made more calls, want none: %v", all[calls:])
	}
	r.checkMovedOnce(t, ctx)
	// Shown and marked: the next tick past ShowAt forgets it.
	r.clock.Advance(10 * time.Second)
	b.ClockTick(ctx)
	if g, err := r.store.Game(ctx, r.gameID); err != nil || len(g.Owed) != 0 || !g.ShowAt.IsZero() {
		t.Errorf("after a later tick the game still owes %v (ShowAt %v), %v; want nothing", g.Owed, g.ShowAt, err)
	}
}

// settle waits until the outbox has sent everything and the bot's
// background work (what the outbox's answers set off, which may send more)
// is done.
func settle(t *testing.T, ctx context.Context, b *bot.Bot, out *outbox.Outbox) {
	t.Helper()
	for range 3 {
		if err := out.Flush(ctx); err != nil {
			t.Fatal(err)
		}
		b.Wait()
	}
}

// A turn notice is a change of its own (the tick clears NoticeAt): the
// process whose tick made it dies before sending it, and another process's
// tick sends it once the dead one's lease on it has run out.
func TestKilledAfterTheTicksWriteNoticeStillSent(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	r := newEventsRig(t, ctx)
	b, out := r.live(t, ctx, "live")
	b.Handle(ctx, r.move())
	settle(t, ctx, b, out)
	notices := func() int {
		n := 0
		for _, c := range r.srv.CallsTo("sendMessage") {
			if c.ChatID() == r.group.ID && strings.Contains(c.Text(), "your move (c3-d4)") {
				n++
			}
		}
		return n
	}
	if n := notices(); n != 0 {
		t.Fatalf("%d turn notices before the notice delay", n)
	}

	r.clock.Advance(play.DefaultConfig.NoticeDelay + time.Second)
	dead := bot.New(ctx, r.svc, r.store, diesAfterTheGameWrite{}, render.New(), bot.Config{Username: "bashni_test_bot"})
	dead.ClockTick(ctx)
	dead.Wait()
	if g, err := r.store.Game(ctx, r.gameID); err != nil || !g.NoticeAt.IsZero() || len(g.Owed) == 0 {
		t.Fatalf("after the dead tick: %v; want the notice handled and owed", err)
	}

	b.ClockTick(ctx) // the dead process's lease on the notice lasts
	settle(t, ctx, b, out)
	if n := notices(); n != 0 {
		t.Fatalf("%d turn notices while the dead process's lease lasted", n)
	}
	r.clock.Advance(10 * time.Second)
	b.ClockTick(ctx)
	settle(t, ctx, b, out)
	if n := notices(); n != 1 {
		t.Fatalf("%d turn notices after the lease, want 1", n)
	}
	r.clock.Advance(10 * time.Second)
	b.ClockTick(ctx)
	settle(t, ctx, b, out)
	if n := notices(); n != 1 {
		t.Errorf("%d turn notices after one more tick, want still 1", n)
	}
}

// modules are the features the rig's bots plug in: the groups' games by
// vote, if the rig has them.
func (r *eventsRig) modules() []bot.Module {
	if r.teams == nil {
		return nil
	}
	return []bot.Module{teambot.Module(r.teams)}
}
