package main

import (
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"
	goredis "github.com/redis/go-redis/v9"

	"github.com/bashni/bashni/internal/telegramtest"
	"github.com/bashni/bashni/internal/testkit"
	"github.com/bashni/bashni/rules"
	"github.com/bashni/bashni/storage"
	redisstore "github.com/bashni/bashni/storage/redis"
	"github.com/bashni/bashni/storage/redis/redistest"
)

// Telegram's own pace, on the test's clock: a group takes a message (sent
// or edited) every 3 s (20 a minute), a private chat one a second. The
// fake Bot API takes each message no sooner than that after the chat's
// last one, moving the bot's clock on to that moment before it answers,
// as a card edit that waited for the pace arrives late: the pace is the
// real one, and no test sleeps for it.
const (
	groupPace   = 3 * time.Second
	privatePace = time.Second
	// think is each player's thinking before a move, on the same clock;
	// fairSlack is what a move may cost beyond it (issue 37).
	think     = 200 * time.Millisecond
	fairSlack = 300 * time.Millisecond
)

// telegramPace makes the fake Bot API take messages at Telegram's pace on
// clock (above); it stops with the test.
func telegramPace(t *testing.T, srv *telegramtest.Server, clock *testkit.Clock) {
	t.Helper()
	var mu sync.Mutex
	last := map[int64]time.Time{}
	t.Cleanup(srv.OnMessage(func(c telegramtest.Call, _ telegramtest.Msg) {
		chat := c.ChatID()
		if chat == 0 || !countsAsMessage(c.Method) {
			return
		}
		pace := privatePace
		if chat < 0 {
			pace = groupPace
		}
		mu.Lock()
		defer mu.Unlock()
		if prev, ok := last[chat]; ok {
			if wait := prev.Add(pace).Sub(clock.Now()); wait > 0 {
				clock.Advance(wait)
			}
		}
		last[chat] = clock.Now()
	}))
}

var cardPly = regexp.MustCompile(`Move (\d+) · (White|Black) to move`)

// plyShown is the ply a card's caption shows, -1 if none.
func plyShown(caption string) int {
	m := cardPly.FindStringSubmatch(caption)
	if m == nil {
		return -1
	}
	n, _ := strconv.Atoi(m[1])
	if m[2] == "Black" {
		return 2*n - 1
	}
	return 2*n - 2
}

// seat is where a player sees the game and how they move: the card in a
// chat, and the update that plays a move.
type seat struct {
	chat int64
	card int
	move func(text string) tgbotapi.Update
}

// liveGame reads the one live game of a test from the store the bot
// runs on (Redis, which the test may read while the bot runs), and waits
// for a write to it.
type liveGame struct {
	read   func() *storage.GameRecord
	writes <-chan *goredis.Message
}

// waitFor waits until ok holds for the game as stored, asking again at
// each write to the store: false if it does not within timeout.
func (g liveGame) waitFor(timeout time.Duration, ok func(*storage.GameRecord) bool) bool {
	return waitStored(g.writes, timeout, func() bool { return ok(g.read()) })
}

// storeWrites hears each write to the Redis at url (keyspace
// notifications), for a test to wait on what the bot stores.
func storeWrites(t *testing.T, url string) <-chan *goredis.Message {
	t.Helper()
	opt, err := goredis.ParseURL(url)
	if err != nil {
		t.Fatal(err)
	}
	rdb := goredis.NewClient(opt)
	t.Cleanup(func() { rdb.Close() })
	if err := rdb.ConfigSet(t.Context(), "notify-keyspace-events", "KA").Err(); err != nil {
		t.Fatal(err)
	}
	sub := rdb.PSubscribe(t.Context(), "__keyspace@*__:*")
	t.Cleanup(func() { sub.Close() })
	if _, err := sub.Receive(t.Context()); err != nil {
		t.Fatal(err)
	}
	return sub.Channel()
}

// waitStored waits until ok holds, asking again at each write to the
// store: false if it does not within timeout.
func waitStored(writes <-chan *goredis.Message, timeout time.Duration, ok func() bool) bool {
	give := time.After(timeout)
	for !ok() {
		select {
		case <-writes:
		case <-give:
			return false
		}
	}
	return true
}

// liveGameOf finds the one active game that ids lists, in st on the
// Redis at url, whose writes it hears (keyspace notifications).
func liveGameOf(t *testing.T, url string, st *redisstore.Store, ids func() ([]string, error)) liveGame {
	t.Helper()
	writes := storeWrites(t, url)
	var id string
	read := func() *storage.GameRecord {
		t.Helper()
		if id == "" {
			found, err := ids()
			if err != nil || len(found) != 1 {
				t.Fatalf("the live game: %v, %v", found, err)
			}
			id = found[0]
		}
		rec, err := st.Game(t.Context(), id)
		if err != nil {
			t.Fatal(err)
		}
		return rec
	}
	return liveGame{read: read, writes: writes}
}

// playAtPace plays plies moves of a live game, each as soon as the board
// showing the last one has reached its player (the card in their seat
// shows it) and their turn has begun, after think on clock. seats[0] is
// White's, seats[1] Black's. The turn has begun once the bot has heard
// Telegram's answer to the card's edit: a person takes longer to read the
// board than the bot to hear it, but the test is quicker than either.
func playAtPace(t *testing.T, srv *telegramtest.Server, clock *testkit.Clock, game liveGame, seats [2]seat, plies int) {
	t.Helper()
	g := rules.NewGame(rules.Start(rules.Bashni))
	for ply := range plies {
		s := seats[ply%2]
		waitMessageWithin(t, srv, s.chat, 30*time.Second, "the card showing ply "+strconv.Itoa(ply), func(m telegramtest.Msg) bool {
			return m.ID == s.card && plyShown(m.Text) == ply
		})
		if !game.waitFor(15*time.Second, func(rec *storage.GameRecord) bool {
			return len(rec.Moves) == ply && !clock.Now().Before(rec.TurnStart)
		}) {
			t.Fatalf("ply %d: the card shows the board, and the turn has not begun (it begins in %v)",
				ply, game.read().TurnStart.Sub(clock.Now()))
		}
		legal := g.Legal()
		if len(legal) == 0 {
			t.Fatalf("the game ended at ply %d", ply)
		}
		m := legal[0]
		if err := g.Play(m); err != nil {
			t.Fatal(err)
		}
		clock.Advance(think)
		srv.PushUpdate(s.move(m.String()))
	}
	s := seats[plies%2]
	waitMessageWithin(t, srv, s.chat, 30*time.Second, "the card showing the last move", func(m telegramtest.Msg) bool {
		return m.ID == s.card && plyShown(m.Text) == plies
	})
}

// checkFairClocks checks that no move of the game cost its player more
// than their thinking plus fairSlack, nor either clock more than that a
// move in all; it logs the loss a move.
func checkFairClocks(t *testing.T, game liveGame, base time.Duration, plies int) {
	t.Helper()
	rec := game.read()
	if len(rec.Spent) != plies {
		t.Fatalf("%d moves charged, want %d", len(rec.Spent), plies)
	}
	bound := think + fairSlack
	var total time.Duration
	for i, d := range rec.Spent {
		total += d
		if d > bound {
			t.Errorf("move %d (%s) cost its player %v of clock, who thought for %v (at most %v)", i+1, rec.Moves[i], d, think, bound)
		}
	}
	for _, side := range []struct {
		name string
		left time.Duration
	}{{"White", rec.WhiteLeft}, {"Black", rec.BlackLeft}} {
		if lost, moves := base-side.left, time.Duration(plies/2); lost > moves*bound {
			t.Errorf("%s's clock lost %v in %d moves, more than %v a move", side.name, lost, moves, bound)
		}
	}
	t.Logf("clock lost a move: %v on average (the players thought %v a move); White %v left, Black %v",
		(total / time.Duration(plies)).Round(time.Millisecond), think, rec.WhiteLeft.Round(time.Millisecond), rec.BlackLeft.Round(time.Millisecond))
}

// startFairClockBot runs the bot on a throwaway Redis with clock, Telegram
// paced on it, and turn notices as in production (players who answer at
// once get none); it returns a store on the same Redis for the test, and
// the Redis's address.
func startFairClockBot(t *testing.T, srv *telegramtest.Server, clock *testkit.Clock) (*redisstore.Store, string) {
	t.Helper()
	rds := redistest.Start(t)
	telegramPace(t, srv, clock)
	vars := withDefaults(t, srv, map[string]string{"REDIS_URL": rds.URL(), "BASHNI_NOTICE_DELAY": "45s", "BASHNI_CLOCK_INTERVAL": "20ms"})
	startClockedWithLogs(t, srv, clock, vars)
	st, err := redisstore.Open(t.Context(), rds.URL(), clock.Now)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st, rds.URL()
}

// A 1+0 game in a group, both players answering at once, the card edited
// at the group's real pace (one message every 3 s): each player's clock
// starts when the card showing the opponent's move has reached the group,
// so neither pays Telegram's pace; 30 plies cost each player their own
// thinking and no more than 0.3 s a move beyond it.
func TestE2EFairClocksInAPacedGroup(t *testing.T) {
	srv := telegramtest.New(t)
	clock := testkit.NewClock(time.Now())
	st, url := startFairClockBot(t, srv, clock)
	group := telegramtest.GroupChat(-1005555512345, "Bullet club")
	alice, bob := newUser(9301, "Alice", "en"), newUser(9302, "Bob", "en")

	say(srv, group, alice, "/challenge white 1+0")
	ch := waitMessage(t, srv, group.ID, "challenge", func(m telegramtest.Msg) bool { return m.FromBot && len(buttons(m)) > 0 })
	tap(t, srv, group, bob, ch.ID, buttons(ch)[0][1])
	c := waitMessage(t, srv, group.ID, "board card", func(m telegramtest.Msg) bool { return m.Kind == "photo" })
	moveIn := func(u user) func(string) tgbotapi.Update {
		return func(text string) tgbotapi.Update { return srv.ReplyMessage(group, u.u, c.ID, "/m "+text) }
	}
	game := liveGameOf(t, url, st, func() ([]string, error) { return st.ActiveGamesByChat(t.Context(), group.ID) })
	const plies = 30
	playAtPace(t, srv, clock, game, [2]seat{{group.ID, c.ID, moveIn(alice)}, {group.ID, c.ID, moveIn(bob)}}, plies)
	checkFairClocks(t, game, time.Minute, plies)
}

// The same in private chats: an arena game at 1+0 is played on a card in
// each player's own chat, each chat taking a message a second; each
// player's clock starts when the card in their chat shows the opponent's
// move.
func TestE2EFairClocksInPrivateChats(t *testing.T) {
	srv := telegramtest.New(t)
	clock := testkit.NewClock(time.Now())
	st, url := startFairClockBot(t, srv, clock)
	group := telegramtest.GroupChat(-1005555512346, "Arena club")
	alice, bob := newUser(9311, "Alice", "en"), newUser(9312, "Bob", "en")
	for _, u := range []user{alice, bob} {
		say(srv, u.chat, u, "/start")
		waitMessage(t, srv, u.chat.ID, "the greeting", func(m telegramtest.Msg) bool { return m.FromBot })
	}
	say(srv, group, alice, "/tournament 1+0 15m")
	tc := waitMessage(t, srv, group.ID, "the tournament card", func(m telegramtest.Msg) bool {
		return m.FromBot && strings.Contains(m.Text, "Arena 1+0") && len(buttons(m)) == 3
	})
	join := tourButton(t, tc, "tj")
	tap(t, srv, group, alice, tc.ID, join)
	tap(t, srv, group, bob, tc.ID, join)
	aCard := tourGameCard(t, srv, alice, 0, "Alice's game")
	bCard := tourGameCard(t, srv, bob, 0, "Bob's game")
	seats := [2]seat{{alice.chat.ID, aCard.ID, nil}, {bob.chat.ID, bCard.ID, nil}}
	white, black := alice, bob
	if !strings.Contains(aCard.Text, "White to move: Alice") {
		seats[0], seats[1] = seats[1], seats[0]
		white, black = bob, alice
	}
	seats[0].move = func(text string) tgbotapi.Update { return srv.TextMessage(white.chat, white.u, text) }
	seats[1].move = func(text string) tgbotapi.Update { return srv.TextMessage(black.chat, black.u, text) }
	game := liveGameOf(t, url, st, func() ([]string, error) { return st.ActiveGamesByUser(t.Context(), alice.u.ID) })
	const plies = 30
	playAtPace(t, srv, clock, game, seats, plies)
	checkFairClocks(t, game, time.Minute, plies)
}
