package main

import (
	"strings"
	"testing"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/bashni/bashni/internal/telegramtest"
	"github.com/bashni/bashni/storage/redis/redistest"
)

// Redis goes away in the middle of a group game: the player is told to try
// again shortly, the bot keeps running, and when Redis is back the game
// goes on where it was.
func TestE2ERedisDownMidGame(t *testing.T) {
	rds := redistest.Start(t, redistest.Persistent())
	srv := telegramtest.New(t)
	p := startBot(t, srv, map[string]string{"REDIS_URL": rds.URL()})
	group := telegramtest.GroupChat(-1005555555555, "Club")
	alice, bob := newUser(701, "Alice", "en"), newUser(702, "Bob", "en")

	say(srv, group, alice, "/challenge white")
	ch := waitMessage(t, srv, group.ID, "challenge", func(m telegramtest.Msg) bool { return strings.Contains(m.Text, "challenges anyone") })
	tap(t, srv, group, bob, ch.ID, buttons(ch)[0][1])
	c := waitMessage(t, srv, group.ID, "board card", func(m telegramtest.Msg) bool { return m.Kind == "photo" })
	waitTurn(t, srv, group.ID, c.ID)
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("bot logs:\n%s", p.logs.String())
		}
	})
	pickFirstMove(t, srv, group, alice, c.ID)
	before := waitTurn(t, srv, group.ID, c.ID)

	rds.Stop(t)
	var data string
	for _, b := range buttons(before) {
		if isPick(b[1]) {
			data = b[1]
			break
		}
	}
	if toast := tap(t, srv, group, bob, c.ID, data); !strings.Contains(toast, "try again shortly") {
		t.Errorf("tap while Redis is down: toast %q, want 'try again shortly'", toast)
	}
	say(srv, group, bob, "/move f6-e5")
	waitMessage(t, srv, group.ID, "typed move refused politely", func(m telegramtest.Msg) bool {
		return m.FromBot && strings.Contains(m.Text, "try again shortly")
	})
	if got := card(t, srv, group.ID, c.ID); got.Text != before.Text {
		t.Errorf("the card changed while Redis was down: %q", got.Text)
	}

	rds.Restart(t)
	// The same game goes on: Bob moves by typing, and the card shows it.
	// Each try is answered (played, or "try again shortly" while the
	// client's pool reconnects, which go-redis retries about once a
	// second); the next goes only after that answer.
	resumed := false
	for try := range 60 {
		if try > 0 {
			time.Sleep(300 * time.Millisecond) // not a wait: Bob, told "try again shortly", lets a moment pass before he tries again, as a person would
		}
		before := len(srv.Messages(group.ID))
		say(srv, group, bob, "/move f6-e5")
		srv.WaitUntil(15*time.Second, func() bool {
			return strings.Contains(card(t, srv, group.ID, c.ID).Text, "f6-e5") || len(srv.Messages(group.ID)) > before
		})
		if strings.Contains(card(t, srv, group.ID, c.ID).Text, "f6-e5") {
			resumed = true
			break
		}
	}
	if !resumed {
		t.Fatalf("play did not resume after Redis came back; card %q\nlogs:\n%s", card(t, srv, group.ID, c.ID).Text, p.logs.String())
	}
	after := waitTurn(t, srv, group.ID, c.ID)
	if !strings.Contains(after.Text, "Move 2 · White") {
		t.Errorf("after Redis came back: %q", after.Text)
	}
}

// A Redis that answers but refuses writes (here: too few replicas) makes
// the replica not ready; once it takes writes again, ready again.
func TestE2EReadyzFollowsRedisWrites(t *testing.T) {
	rds := redistest.Start(t)
	srv := telegramtest.New(t)
	ops := freeAddr(t)
	startBot(t, srv, map[string]string{"REDIS_URL": rds.URL(), "BASHNI_OPS_LISTEN": ops})
	rdb := goredis.NewClient(&goredis.Options{Addr: rds.Addr()})
	defer rdb.Close()
	for _, step := range []struct {
		min  string
		want int
	}{{"0", 200}, {"1", 503}, {"0", 200}} {
		if err := rdb.ConfigSet(t.Context(), "min-replicas-to-write", step.min).Err(); err != nil {
			t.Fatal(err)
		}
		if code, body := get(t, "http://"+ops+"/readyz"); code != step.want {
			t.Errorf("min-replicas-to-write %s: /readyz %d %q, want %d", step.min, code, body, step.want)
		}
	}
	if code, _ := get(t, "http://"+ops+"/healthz"); code != 200 {
		t.Errorf("/healthz %d: a store refusing writes is not the loop's death", code)
	}
}

// After Redis lost its data, a tap on a game's card is told the truth:
// the game is no longer stored (not "this game is over").
func TestE2EGameLostWithRedisData(t *testing.T) {
	rds := redistest.Start(t)
	srv := telegramtest.New(t)
	p := startBot(t, srv, map[string]string{"REDIS_URL": rds.URL()})
	group := telegramtest.GroupChat(-1005555555556, "Club")
	alice, bob := newUser(711, "Alice", "en"), newUser(712, "Bob", "en")
	c := startGroupGame(t, srv, group, alice, bob)
	c = waitTurn(t, srv, group.ID, c.ID)
	var pick string
	for _, b := range buttons(c) {
		if isPick(b[1]) {
			pick = b[1]
			break
		}
	}
	rdb := goredis.NewClient(&goredis.Options{Addr: rds.Addr()})
	defer rdb.Close()
	if err := rdb.FlushAll(t.Context()).Err(); err != nil {
		t.Fatal(err)
	}
	if toast := tap(t, srv, group, alice, c.ID, pick); !strings.Contains(toast, "no longer stored") {
		t.Errorf("a tap on a lost game: toast %q, want it called no longer stored", toast)
	}
	if strings.Contains(p.logs.String(), `"level":"ERROR"`) {
		t.Errorf("errors logged:\n%s", p.logs)
	}
}
