package main

import (
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/bashni/bashni/internal/telegramtest"
	"github.com/bashni/bashni/rules"
	redisstore "github.com/bashni/bashni/storage/redis"
	"github.com/bashni/bashni/storage/redis/redistest"
)

// webhookDeliverer delivers a test's updates to the webhook of the
// replica it chooses, as Telegram does to several replicas behind one
// URL.
type webhookDeliverer struct {
	t      *testing.T
	srv    *telegramtest.Server
	secret string
}

// deliver posts u to the webhook at url and wants it taken (200).
func (d webhookDeliverer) deliver(url string, u tgbotapi.Update) {
	d.t.Helper()
	resp, err := d.srv.DeliverWebhook(d.t.Context(), url, d.secret, u)
	if err != nil {
		d.t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		d.t.Fatalf("webhook %s answered %d", url, resp.StatusCode)
	}
}

// say sends text from a user in chat through url.
func (d webhookDeliverer) say(url string, chat tgbotapi.Chat, from user, text string) {
	d.t.Helper()
	d.deliver(url, d.srv.TextMessage(chat, from.u, text))
}

// tap presses a button through url and returns the toast.
func (d webhookDeliverer) tap(url string, chat tgbotapi.Chat, from user, messageID int, data string) string {
	d.t.Helper()
	u := d.srv.CallbackQuery(chat, from.u, messageID, data)
	d.deliver(url, u)
	return waitAnswer(d.t, d.srv, u.CallbackQuery.ID, data)
}

// resign resigns from's game in their private chat through url: /resign,
// then the question's button, wherever it came (the card, or a reply).
func (d webhookDeliverer) resign(url string, from user) {
	d.t.Helper()
	d.say(url, from.chat, from, "/resign")
	var data string
	q := waitMessage(d.t, d.srv, from.chat.ID, "the resign question", func(m telegramtest.Msg) bool {
		for _, b := range buttons(m) {
			if strings.HasPrefix(b[1], "rs|") && !m.Deleted {
				data = b[1]
				return true
			}
		}
		return false
	})
	if toast := d.tap(url, from.chat, from, q.ID, data); toast != "" {
		d.t.Fatalf("%s's resignation refused: %s", from.u.FirstName, toast)
	}
}

// A 4-player arena on two `bashni bot` replicas (child processes, webhook
// mode, one Redis), with the clock of both moved by hand. The tournament
// is started through one replica, joined and played through both in
// turn; the replica that handled the end of a round is killed (SIGKILL)
// at once, with the next round's pairing, its games' cards and its card
// edit possibly unsent. The survivor takes over what the dead one owed,
// a fresh replica joins it, and the next round is played through both;
// time is called, the games in progress are played out, and the final
// standings are posted exactly once, every game in them.
func TestE2EArenaTournamentAcrossReplicas(t *testing.T) {
	if testing.Short() {
		t.Skip("starts three bots as child processes")
	}
	rds := redistest.Start(t)
	srv := telegramtest.New(t)
	clock := newChildClock(t)
	st, err := redisstore.Open(t.Context(), rds.URL(), fileClock(clock.file)) // the children's clock
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	writes := storeWrites(t, rds.URL())
	const secret = "arena-replicas-secret"
	extra := clock.env(map[string]string{"BASHNI_CLOCK_INTERVAL": "20ms"})
	a, urlA := startWebhookChild(t, srv, rds.URL(), secret, extra)
	b, urlB := startWebhookChild(t, srv, rds.URL(), secret, extra)
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("replica A's logs:\n%s\nreplica B's logs:\n%s", a.logs, b.logs)
		}
	})
	d := webhookDeliverer{t: t, srv: srv, secret: secret}
	group := telegramtest.GroupChat(-1004000000078, "Arena club")
	alice, boris, carol, dave := newUser(7801, "Alice", "en"), newUser(7802, "Boris", "en"), newUser(7803, "Carol", "en"), newUser(7804, "Dave", "en")
	players := []user{alice, boris, carol, dave}
	joinGroup(srv, group, players...)
	urls := []string{urlA, urlB}
	for i, u := range players {
		d.say(urls[i%2], u.chat, u, "/start")
		waitMessage(t, srv, u.chat.ID, "the greeting", func(m telegramtest.Msg) bool { return m.FromBot })
	}

	d.say(urlA, group, alice, "/tournament 20+0 5m")
	tc := waitMessage(t, srv, group.ID, "the tournament card", func(m telegramtest.Msg) bool {
		return m.FromBot && strings.Contains(m.Text, "Arena 20+0 · 5 min") && len(buttons(m)) == 3
	})
	join := tourButton(t, tc, "tj")
	for i, u := range players {
		if toast := d.tap(urls[(i+1)%2], group, u, tc.ID, join); !strings.Contains(toast, "You are in") {
			t.Errorf("%s's join: toast %q", u.u.FirstName, toast)
		}
	}

	// First round, Alice–Boris and Carol–Dave: White moves through one
	// replica, Black answers through the other (each on their own card,
	// in their own chat), then Black resigns.
	start := rules.NewGame(rules.Start(rules.Bashni))
	first := start.Legal()[0]
	if err := start.Play(first); err != nil {
		t.Fatal(err)
	}
	reply := start.Legal()[0]
	cards := map[int64]telegramtest.Msg{}
	for _, u := range players {
		cards[u.u.ID] = tourGameCard(t, srv, u, 0, u.u.FirstName+"'s first game")
	}
	// The card a move shows on is the one the game records: a game whose
	// cards were taken over from a dead replica as the clock posted them
	// again has two in a chat (the first to go out, or the second), and
	// the player sees their moves on the recorded one, which the round
	// follows from there.
	onCard := func(u user, what, move string) {
		t.Helper()
		cards[u.u.ID] = waitMessage(t, srv, u.chat.ID, what, func(m telegramtest.Msg) bool {
			return m.FromBot && m.Kind == "photo" && m.ID >= cards[u.u.ID].ID && strings.Contains(m.Text, move)
		})
	}
	playRound := func(white, black user, wURL, bURL string) {
		t.Helper()
		d.say(wURL, white.chat, white, first.String())
		onCard(black, "White's move on Black's card", first.String())
		d.say(bURL, black.chat, black, reply.String())
		onCard(white, "Black's move on White's card", reply.String())
	}
	if !strings.Contains(cards[alice.u.ID].Text, "White to move: Alice") || !strings.Contains(cards[dave.u.ID].Text, "White to move: Carol") {
		t.Fatalf("first round: Alice's card %q, Dave's %q; want Alice–Boris and Carol–Dave", cards[alice.u.ID].Text, cards[dave.u.ID].Text)
	}
	playRound(alice, boris, urlA, urlB)
	playRound(carol, dave, urlB, urlA)
	d.resign(urlB, boris)
	waitMessage(t, srv, alice.chat.ID, "Alice's win", func(m telegramtest.Msg) bool { return m.ID == cards[alice.u.ID].ID && strings.Contains(m.Text, "1-0") })

	// Dave resigns through A, which pairs the second round as it handles
	// it; A is killed the moment his resignation is answered.
	d.resign(urlA, dave)
	a.kill(t)

	// B (or C, as it starts) takes over what A owed once A's lease has
	// run out (the cards A queued, recorded as they are sent), and B's
	// clock posts again the cards of new games not recorded: one jump
	// past both may post a game's cards twice (see onCard).
	clock.Advance(t, 31*time.Second)
	c, urlC := startWebhookChild(t, srv, rds.URL(), secret, extra)
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("replica C's logs:\n%s", c.logs)
		}
	})
	second := map[int64]telegramtest.Msg{}
	for _, u := range players {
		second[u.u.ID] = tourGameCard(t, srv, u, cards[u.u.ID].ID, u.u.FirstName+"'s second game")
	}
	if a2 := second[alice.u.ID].Text; !strings.Contains(a2, "Alice") || !strings.Contains(a2, "Carol") {
		t.Errorf("second round: Alice's card %q; want Alice–Carol", a2)
	}
	if b2 := second[boris.u.ID].Text; !strings.Contains(b2, "Dave") {
		t.Errorf("second round: Boris's card %q; want Dave–Boris", b2)
	}

	// Time is called with both games going on; they are played out
	// through B and C, and then the final standings come, once.
	clock.Advance(t, 5*time.Minute)
	waitMessage(t, srv, group.ID, "time up on the card", func(m telegramtest.Msg) bool {
		return m.ID == tc.ID && strings.Contains(m.Text, "Time is up") && len(buttons(m)) == 0
	})
	// Each game is played a move each first: one in which a side never
	// moved is aborted and counts for nobody.
	cards = second
	for _, pair := range [][2]user{{alice, carol}, {dave, boris}} {
		w, bl := pair[0], pair[1]
		if !strings.Contains(second[w.u.ID].Text, "White to move: "+w.u.FirstName) {
			w, bl = bl, w
		}
		playRound(w, bl, urlB, urlC)
	}
	d.resign(urlB, carol)
	d.resign(urlC, boris)
	final := waitMessage(t, srv, group.ID, "the final standings", func(m telegramtest.Msg) bool {
		return m.FromBot && strings.Contains(m.Text, "Arena 20+0 is over!")
	})
	for _, want := range []string{"🥇 Alice — 4", "1. Alice — 4 · 2 2", "games: +Boris, +Carol", "Carol — 2 · 2 0", "games: +Dave, −Alice",
		"Dave — 2 · 0 2", "games: −Carol, +Boris", "4. Boris — 0 · 0 0", "games: −Alice, −Dave"} {
		if !strings.Contains(final.Text, want) {
			t.Errorf("the final standings lack %q:\n%s", want, final.Text)
		}
	}
	// The points add up: 2 a win, no draw, no streak bonus (nobody won
	// three in a row), four games.
	total := 0
	for _, m := range regexp.MustCompile(`(?m)^\d\. \S+ — (\d+)`).FindAllStringSubmatch(final.Text, -1) {
		n, _ := strconv.Atoi(m[1])
		total += n
	}
	if total != 4*2 {
		t.Errorf("the standings' points add up to %d, want 8 for four decisive games:\n%s", total, final.Text)
	}

	// Both replicas tick on; the next tournament may start only once the
	// final is recorded shown (after Telegram took it: the test waits for
	// that write), and it is the only final posted.
	clock.Advance(t, 10*time.Second)
	if !waitStored(writes, 15*time.Second, func() bool {
		tour, err := st.Tournament(t.Context(), group.ID)
		return err == nil && !tour.Listed()
	}) {
		t.Fatal("the final standings never recorded shown")
	}
	d.say(urlC, group, carol, "/tournament 3+2 15m")
	waitMessage(t, srv, group.ID, "the next tournament's card", func(m telegramtest.Msg) bool {
		return m.FromBot && m.ID > final.ID && strings.Contains(m.Text, "Arena 3+2 · 15 min")
	})
	finals := 0
	for _, m := range srv.Messages(group.ID) {
		if m.FromBot && strings.Contains(m.Text, "is over!") {
			finals++
		}
	}
	if finals != 1 {
		t.Errorf("the final standings were posted %d times, want once", finals)
	}
	b.stop(t)
	c.stop(t)
}
