package main

import (
	"bytes"
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/bashni/bashni/internal/telegramtest"
	"github.com/bashni/bashni/internal/testkit"
	"github.com/bashni/bashni/puzzle"
	"github.com/bashni/bashni/storage/redis/redistest"
)

// spawnClocked runs `bashni bot` like spawn, with clock as the process's
// one clock, so that a test crosses a day by moving it.
func spawnClocked(t *testing.T, srv *telegramtest.Server, vars map[string]string, clock *testkit.Clock) *botProcess {
	t.Helper()
	full := withDefaults(t, srv, vars)
	before := len(srv.CallsTo("getUpdates"))
	ctx, cancel := context.WithCancel(context.Background())
	p := &botProcess{t: t, srv: srv, env: full, cancel: cancel, done: make(chan error, 1), logs: &testkit.Buffer{}}
	lines := environ(full)
	getenv := func(k string) string { return full[k] }
	go func() {
		p.done <- cmdBot(ctx, env{args: nil, getenv: getenv, environ: lines, stdin: strings.NewReader(""), stdout: &bytes.Buffer{}, stderr: p.logs, now: clock.Now})
	}()
	t.Cleanup(func() { p.stop() })
	srv.WaitFor(t, 10*time.Second, func(c telegramtest.Call) bool {
		return c.Method == "getUpdates" && len(srv.CallsTo("getUpdates")) > before
	})
	return p
}

// nextUpdateID numbers the taps of the replicas' test: each replica has a
// fake of its own, and both fakes count updates from the same start, but
// the replicas share the store's marks of updates seen, as replicas of one
// bot do, so every update needs an id of its own.
var nextUpdateID atomic.Int64

// tapOnce is tap with an update id no fake has used.
func tapOnce(t *testing.T, srv *telegramtest.Server, chat tgbotapi.Chat, from user, messageID int, data string) string {
	t.Helper()
	u := srv.CallbackQuery(chat, from.u, messageID, data)
	u.UpdateID = int(500000 + nextUpdateID.Add(1))
	srv.PushUpdate(u)
	return waitAnswer(t, srv, u.CallbackQuery.ID, data)
}

// isDaily reports whether a message is a daily puzzle card.
func isDaily(m telegramtest.Msg) bool {
	return m.FromBot && m.Kind == "photo" && (strings.Contains(m.Text, "Puzzle of the day") || strings.Contains(m.Text, "Задача дня"))
}

// dailyCards lists the daily cards in chat on each fake.
func dailyCards(chatID int64, srvs ...*telegramtest.Server) (cards []telegramtest.Msg, on []*telegramtest.Server) {
	for _, s := range srvs {
		for _, m := range s.Messages(chatID) {
			if isDaily(m) {
				cards, on = append(cards, m), append(on, s)
			}
		}
	}
	return cards, on
}

// toggleDaily sends /settings in the group and taps the daily toggle;
// the toast must contain wantToast.
func toggleDaily(t *testing.T, srv *telegramtest.Server, group tgbotapi.Chat, who user, wantToast string) {
	t.Helper()
	say(srv, group, who, "/settings")
	var data string
	set := waitMessage(t, srv, group.ID, "the settings with the daily toggle", func(m telegramtest.Msg) bool {
		for _, b := range buttons(m) {
			if b[1] == "s||-1|daily" {
				data = b[1]
				return true
			}
		}
		return false
	})
	if toast := tap(t, srv, group, who, set.ID, data); !strings.Contains(toast, wantToast) {
		t.Fatalf("toggle: toast %q, want %q", toast, wantToast)
	}
}

// solution finds the shipped puzzle a card names (#id) and returns the
// buttons of its winning move and of one other move.
func solution(t *testing.T, c telegramtest.Msg) (right, wrong [2]string) {
	t.Helper()
	set, err := puzzle.Shipped()
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(c.Text, "#")
	if !ok {
		t.Fatalf("the card names no puzzle: %q", c.Text)
	}
	id := strings.Fields(rest)[0]
	for _, p := range set {
		if p.ID != id {
			continue
		}
		for _, b := range buttons(c) {
			if b[0] == p.Solution[0].String() {
				right = b
			} else if wrong[0] == "" {
				wrong = b
			}
		}
		if right[0] == "" || wrong[0] == "" {
			t.Fatalf("card of puzzle %s (solution %s): buttons %v", id, p.Solution[0], buttons(c))
		}
		return right, wrong
	}
	t.Fatalf("no shipped puzzle %q", id)
	return
}

// The daily puzzle with two replicas on one Redis: one card a day, never
// more, whichever replica claims the day; solved by a tap, the solver
// named on the card; a wrong tap, a second try and a tap on yesterday's
// card each get a clear toast and change nothing. Each replica has its
// own fake Bot API (two pollers of one fake would steal each other's
// updates); the cards of both are counted.
func TestE2EDailyPuzzleOnceAcrossReplicas(t *testing.T) {
	rds := redistest.Start(t)
	clock := testkit.NewClock(time.Now())
	srv1, srv2 := telegramtest.New(t), telegramtest.New(t)
	env := map[string]string{"REDIS_URL": rds.URL(), "BASHNI_CLOCK_INTERVAL": "20ms", "BASHNI_LOG_LEVEL": "info"}
	p1 := spawnClocked(t, srv1, env, clock)
	p2 := spawnClocked(t, srv2, env, clock)
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("replica 1 logs:\n%s\nreplica 2 logs:\n%s", p1.logs, p2.logs)
		}
	})
	group := telegramtest.GroupChat(-1005555555601, "Club")
	alice, bob, carol := newUser(801, "Alice", "en"), newUser(802, "Bob", "en"), newUser(803, "Carol", "en")

	toggleDaily(t, srv1, group, alice, "is on")
	// Each replica claims each day once: one posts, the other finds it
	// claimed. Once both have, no replica posts again that day.
	waitDay := func(n int) {
		t.Helper()
		if !srv1.WaitUntil(15*time.Second, func() bool {
			all := p1.logs.String() + p2.logs.String()
			return strings.Count(all, `"msg":"daily puzzle posted"`) == n && strings.Count(all, `"msg":"daily puzzle claimed by another replica"`) == n
		}) {
			t.Fatalf("day %d: the replicas did not both claim it", n)
		}
		// The card itself: wait for it on whichever fake its replica uses.
		if !srv1.WaitUntil(15*time.Second, func() bool { c, _ := dailyCards(group.ID, srv1, srv2); return len(c) == n }) &&
			!srv2.WaitUntil(15*time.Second, func() bool { c, _ := dailyCards(group.ID, srv1, srv2); return len(c) == n }) {
			c, _ := dailyCards(group.ID, srv1, srv2)
			t.Fatalf("day %d: %d daily cards, want %d", n, len(c), n)
		}
	}
	waitDay(1)
	cards, on := dailyCards(group.ID, srv1, srv2)
	day1, srv := cards[0], on[0]
	if !strings.Contains(day1.Text, "White to play and win") && !strings.Contains(day1.Text, "Black to play and win") {
		t.Errorf("daily card: %q", day1.Text)
	}
	if !strings.Contains(day1.Text, "nobody yet") {
		t.Errorf("a new daily card names solvers: %q", day1.Text)
	}
	right, wrong := solution(t, day1)

	// Bob misses: told privately, the card unchanged; his second try is refused.
	if toast := tapOnce(t, srv, group, bob, day1.ID, wrong[1]); !strings.Contains(toast, wrong[0]+" does not win") || !strings.Contains(toast, "One try each") {
		t.Errorf("wrong move: toast %q", toast)
	}
	if toast := tapOnce(t, srv, group, bob, day1.ID, right[1]); !strings.Contains(toast, "had your one try") {
		t.Errorf("second try: toast %q", toast)
	}
	if got := card(t, srv, group.ID, day1.ID); got.Edits != day1.Edits || got.Text != day1.Text {
		t.Errorf("a miss and a second try changed the card: %q (edits %d)", got.Text, got.Edits)
	}

	// Carol, then Alice solve it: each is told their rank and named.
	if toast := tapOnce(t, srv, group, carol, day1.ID, right[1]); !strings.Contains(toast, "wins! You are solver #1") {
		t.Errorf("right move: toast %q", toast)
	}
	waitMessage(t, srv, group.ID, "Carol named", func(m telegramtest.Msg) bool { return m.ID == day1.ID && strings.Contains(m.Text, "1. Carol") })
	if toast := tapOnce(t, srv, group, alice, day1.ID, right[1]); !strings.Contains(toast, "solver #2") {
		t.Errorf("second solver: toast %q", toast)
	}
	named := waitMessage(t, srv, group.ID, "Alice named", func(m telegramtest.Msg) bool {
		return m.ID == day1.ID && strings.Contains(m.Text, "1. Carol, 2. Alice")
	})
	if strings.Contains(named.Text, "Bob") {
		t.Errorf("Bob missed but is named: %q", named.Text)
	}

	// The next day: one new card, and yesterday's is closed.
	clock.Advance(24 * time.Hour)
	waitDay(2)
	cards, _ = dailyCards(group.ID, srv1, srv2)
	if cards[0].Text == cards[1].Text {
		t.Errorf("the second day's card is the first's: %q", cards[1].Text)
	}
	before := card(t, srv, group.ID, day1.ID)
	if toast := tapOnce(t, srv, group, bob, day1.ID, right[1]); !strings.Contains(toast, "a day that is over") {
		t.Errorf("tap on yesterday's card: toast %q", toast)
	}
	if got := card(t, srv, group.ID, day1.ID); got.Edits != before.Edits || got.Text != before.Text {
		t.Errorf("a tap on yesterday's card changed it: %q", got.Text)
	}
}

// In Russian, on the embedded store: the toggle, the card and the answers.
func TestE2EDailyPuzzleInRussian(t *testing.T) {
	clock := testkit.NewClock(time.Now())
	srv := telegramtest.New(t)
	p := spawnClocked(t, srv, map[string]string{"BASHNI_CLOCK_INTERVAL": "20ms"}, clock)
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("logs:\n%s", p.logs)
		}
	})
	group := telegramtest.GroupChat(-1005555555602, "Клуб")
	ivan, olga := newUser(811, "Иван", "ru"), newUser(812, "Ольга", "ru")

	toggleDaily(t, srv, group, ivan, "Задача дня включена")
	c := waitMessage(t, srv, group.ID, "the daily card", isDaily)
	if !strings.Contains(c.Text, "начинают и выигрывают") || !strings.Contains(c.Text, "пока никто") {
		t.Errorf("daily card in Russian: %q", c.Text)
	}
	right, wrong := solution(t, c)
	if toast := tap(t, srv, group, ivan, c.ID, wrong[1]); !strings.Contains(toast, "не выигрывает") {
		t.Errorf("wrong move: toast %q", toast)
	}
	if toast := tap(t, srv, group, ivan, c.ID, right[1]); !strings.Contains(toast, "уже использовали") {
		t.Errorf("second try: toast %q", toast)
	}
	if toast := tap(t, srv, group, olga, c.ID, right[1]); !strings.Contains(toast, "выигрывает! Вы решили задачу 1-м") {
		t.Errorf("right move: toast %q", toast)
	}
	waitMessage(t, srv, group.ID, "Olga named", func(m telegramtest.Msg) bool { return m.ID == c.ID && strings.Contains(m.Text, "1. Ольга") })

	// Turned off: the settings message shows it at once.
	toggleDaily(t, srv, group, ivan, "выключена")
	waitMessage(t, srv, group.ID, "settings show it off", func(m telegramtest.Msg) bool {
		return strings.Contains(m.Text, "Задача дня в этом чате: выкл")
	})
}
