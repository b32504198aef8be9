package main

import (
	"encoding/json"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/bashni/bashni/internal/telegramtest"
	"github.com/bashni/bashni/rules"
	"github.com/bashni/bashni/storage/redis/redistest"
)

// paceGroupPerMinute is the group budget of the two-replica test: three
// times Telegram's twenty a minute, so that the game takes seconds, not
// minutes; the test checks the same shape of limit at that scale.
const paceGroupPerMinute = 60

// Two replicas on one Redis serve a quick group game, its moves coming
// in turn through each: one pace for the bot. Any two messages to the
// group are a group interval apart (give or take the network), no window
// of twenty intervals holds more than twenty, and no edit of the card
// shows an older move than one the card showed before.
func TestTwoReplicasShareOnePace(t *testing.T) {
	if testing.Short() {
		t.Skip("starts two bots as child processes")
	}
	rds := redistest.Start(t)
	srv := telegramtest.New(t)
	const secret = "pace-test-secret"
	env := map[string]string{"BASHNI_RATE_PER_GROUP": strconv.Itoa(paceGroupPerMinute), "BASHNI_RATE_PER_CHAT": "1000"}
	a, urlA := startWebhookChild(t, srv, rds.URL(), secret, env)
	b, urlB := startWebhookChild(t, srv, rds.URL(), secret, env)
	deliver := func(url string, u tgbotapi.Update) {
		t.Helper()
		resp, err := srv.DeliverWebhook(t.Context(), url, secret, u)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("webhook answered %d", resp.StatusCode)
		}
	}

	group := telegramtest.GroupChat(-1005555500077, "Two replicas")
	alice, bob := newUser(9501, "Alice", "en"), newUser(9502, "Bob", "en")
	deliver(urlA, srv.TextMessage(group, alice.u, "/challenge white"))
	ch := waitMessage(t, srv, group.ID, "challenge", func(m telegramtest.Msg) bool { return m.FromBot && len(buttons(m)) > 0 })
	deliver(urlB, srv.CallbackQuery(group, bob.u, ch.ID, buttons(ch)[0][1]))
	c := waitMessage(t, srv, group.ID, "board card", func(m telegramtest.Msg) bool { return m.Kind == "photo" })
	waitTurn(t, srv, group.ID, c.ID)

	// Moves as fast as the webhook takes them, in turn through A and B.
	g := rules.NewGame(rules.Start(rules.Bashni))
	var last string
	const plies = 8
	for i := range plies {
		m := g.Legal()[0]
		last = m.String()
		if err := g.Play(m); err != nil {
			t.Fatal(err)
		}
		player, url := alice, urlA
		if i%2 == 1 {
			player, url = bob, urlB
		}
		deliver(url, srv.ReplyMessage(group, player.u, c.ID, "/m "+last))
	}
	waitMessageWithin(t, srv, group.ID, 60*time.Second, "the card showing the last move", func(m telegramtest.Msg) bool {
		return m.ID == c.ID && strings.HasSuffix(lastLine(m.Text), " "+last)
	})
	a.stop(t)
	b.stop(t)

	interval := time.Minute / paceGroupPerMinute
	var at []time.Time
	shown := 0
	for _, call := range srv.Calls() {
		if call.ChatID() != group.ID || !countsAsMessage(call.Method) {
			continue
		}
		at = append(at, call.At)
		if call.Method == "editMessageMedia" && call.MessageID() == c.ID {
			n := shownMove(t, call)
			if n < shown {
				t.Errorf("a card edit shows ply %d after one showed ply %d", n, shown)
			}
			shown = max(shown, n)
		}
	}
	for i := 1; i < len(at); i++ {
		// Sent a full interval apart by Redis's clock; the requests'
		// trips to the fake Bot API may differ by a little.
		if gap := at[i].Sub(at[i-1]); gap < interval/2 {
			t.Errorf("messages %d and %d to the group %v apart, want about %v", i-1, i, gap, interval)
		}
		if j := i - 20; j >= 0 && at[i].Sub(at[j]) < 19*interval {
			t.Errorf("21 messages to the group within %v (20 intervals are %v)", at[i].Sub(at[j]), 20*interval)
		}
	}
	t.Logf("%d messages to the group for %d moves through two replicas", len(at), plies)
}

// countsAsMessage reports whether Telegram counts a method against a
// chat's budget: messages sent and edited.
func countsAsMessage(method string) bool {
	return strings.HasPrefix(method, "send") && method != "sendChatAction" || strings.HasPrefix(method, "editMessage")
}

var moveNumber = regexp.MustCompile(`Move (\d+) · (White|Black) to move`)

// shownMove is the ply a card edit's caption shows: from its move number
// and the side to move.
func shownMove(t *testing.T, call telegramtest.Call) int {
	t.Helper()
	var media struct {
		Caption string `json:"caption"`
	}
	if err := json.Unmarshal([]byte(call.Params["media"]), &media); err != nil {
		t.Fatalf("card edit's media: %v", err)
	}
	m := moveNumber.FindStringSubmatch(media.Caption)
	if m == nil {
		return 0
	}
	n, _ := strconv.Atoi(m[1])
	if m[2] == "Black" {
		return 2*n - 1
	}
	return 2*n - 2
}
