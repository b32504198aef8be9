package main

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/bashni/bashni/internal/telegramtest"
	"github.com/bashni/bashni/internal/testkit"
	"github.com/bashni/bashni/rules"
	"github.com/bashni/bashni/storage"
	"github.com/bashni/bashni/storage/bolt"
	redisstore "github.com/bashni/bashni/storage/redis"
	"github.com/bashni/bashni/storage/redis/redistest"
)

// crashGames is how many games, each in a group of its own, get one typed
// move while the bot is killed.
const crashGames = 200

// crashWorkers is the bot's update workers in the crash tests: at most this
// many updates are being handled when SIGKILL comes, so at most this many
// can have written their effects without being marked handled.
const crashWorkers = 8

// crashGame is game i of a crash test: White (who moves first) is user
// 10000+i, Black 20000+i, in group -(500000+i).
func crashGame(i int) *storage.GameRecord {
	start := rules.Start(rules.Bashni).String()
	now := time.Now().UTC()
	return &storage.GameRecord{
		ID: fmt.Sprintf("crash%03d", i), Variant: rules.Bashni.String(),
		White: storage.Player{UserID: 10000 + int64(i), Name: fmt.Sprintf("W%d", i)},
		Black: storage.Player{UserID: 20000 + int64(i), Name: fmt.Sprintf("B%d", i)},
		Start: start, Position: start, Status: storage.GameActive,
		CreatedAt: now, UpdatedAt: now, ChatID: -(500000 + int64(i)),
	}
}

// crashMove is White's typed first move in game i, as an update with a
// fixed id, so that a redelivery is the same update.
func crashMove(srv *telegramtest.Server, i int) tgbotapi.Update {
	g := crashGame(i)
	white := telegramtest.User(g.White.UserID, g.White.Name, "", "en")
	u := srv.TextMessage(telegramtest.GroupChat(g.ChatID, fmt.Sprintf("crash %d", i)), white, "/move c3-d4")
	u.UpdateID = 700000 + i
	return u
}

// gameLister is what checkCrashGames reads of a store.
type gameLister interface {
	Game(ctx context.Context, id string) (*storage.GameRecord, error)
}

// checkCrashGames checks that every game has exactly White's one move: each
// update was handled, and none twice (a second handling would have been
// refused as "not your turn", which the count of those replies bounds).
func checkCrashGames(t *testing.T, st gameLister, srv *telegramtest.Server) {
	t.Helper()
	for i := range crashGames {
		g, err := st.Game(t.Context(), crashGame(i).ID)
		if err != nil {
			t.Fatalf("game %d: %v", i, err)
		}
		if len(g.Moves) != 1 || g.Moves[0] != "c3-d4" {
			t.Errorf("game %d has moves %v, want [c3-d4]: its update was lost", i, g.Moves)
		}
	}
	again := 0
	for _, c := range srv.CallsTo("sendMessage") {
		if strings.Contains(c.Text(), "'s move.") {
			again++
		}
	}
	// Only an update in a handler at the moment of the kill can have its
	// move written and not be marked handled; every other redelivered one
	// is recognised as handled.
	if again > crashWorkers {
		t.Errorf("%d updates were handled a second time, want at most the %d in flight at the kill", again, crashWorkers)
	}
	t.Logf("%d of %d updates handled again after the crash (in flight at the kill)", again, crashGames)
}

// childBot is `bashni bot` as a child process that the test may kill.
type childBot struct {
	cmd    *exec.Cmd
	logs   *testkit.Buffer
	done   chan error    // for waitReady: the exit, if it comes early
	exited chan struct{} // closed when the process has ended
	err    error         // how it ended, once exited is closed
}

func startChild(t *testing.T, env map[string]string) *childBot {
	t.Helper()
	cmd := exec.Command(os.Args[0], "bot")
	cmd.Env = []string{runMainEnv + "=1", "PATH=" + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME")}
	for k, v := range env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	c := &childBot{cmd: cmd, logs: &testkit.Buffer{}, done: make(chan error, 1), exited: make(chan struct{})}
	cmd.Stdout, cmd.Stderr = c.logs, c.logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		c.err = cmd.Wait()
		close(c.exited)
		c.done <- c.err
	}()
	t.Cleanup(func() {
		_ = cmd.Process.Kill() // if the test failed before stopping it
		<-c.exited
	})
	return c
}

// startWebhookChild starts a replica in webhook mode on Redis at redisURL,
// waits until it serves, and returns it with its webhook's URL.
func startWebhookChild(t *testing.T, srv *telegramtest.Server, redisURL, secret string, extra map[string]string) (*childBot, string) {
	t.Helper()
	hook, ops := freeAddr(t), freeAddr(t)
	env := withDefaults(t, srv, map[string]string{
		"REDIS_URL":             redisURL,
		"BASHNI_MODE":           "webhook",
		"BASHNI_WEBHOOK_LISTEN": hook,
		"BASHNI_WEBHOOK_URL":    "https://bashni.example/hook",
		"BASHNI_WEBHOOK_SECRET": secret,
		"BASHNI_OPS_LISTEN":     ops,
		"BASHNI_LOG_LEVEL":      "info", // waitReady reads the "listening" lines
	})
	for k, v := range extra {
		env[k] = v
	}
	c := startChild(t, env)
	waitReady(t, 0, env, c.done, c.logs)
	return c, "http://" + hook + "/hook"
}

// kill ends the process with SIGKILL: no shutdown, no drain.
func (c *childBot) kill(t *testing.T) {
	t.Helper()
	if err := c.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	<-c.exited
}

// stop ends the process with SIGTERM and checks it exits cleanly without
// logging errors.
func (c *childBot) stop(t *testing.T) {
	t.Helper()
	_ = c.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-c.exited:
		if c.err != nil {
			t.Errorf("bot exited with %v\nlogs:\n%s", c.err, c.logs)
		}
	case <-time.After(30 * time.Second):
		t.Errorf("bot did not stop within 30 s of SIGTERM\nlogs:\n%s", c.logs)
	}
	if l := c.logs.String(); strings.Contains(l, `"level":"ERROR"`) {
		t.Errorf("bot logged errors:\n%s", l)
	}
}

// waitSent waits until the bot has sent n messages.
func waitSent(t *testing.T, srv *telegramtest.Server, n int) {
	t.Helper()
	srv.WaitFor(t, 60*time.Second, func(telegramtest.Call) bool { return len(srv.CallsTo("sendMessage")) >= n })
}

// Polling on bbolt: SIGKILL in the middle of 200 queued moves, then a
// restart on the same file. Every move lands once.
func TestCrashMidBatchPollingLosesNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("starts the bot as a child process twice")
	}
	srv := telegramtest.New(t)
	env := withDefaults(t, srv, map[string]string{"BASHNI_WORKERS": fmt.Sprint(crashWorkers)})
	st, err := bolt.Open(env["BASHNI_BOLT_PATH"], time.Now)
	if err != nil {
		t.Fatal(err)
	}
	for i := range crashGames {
		if err := st.CreateGame(t.Context(), crashGame(i)); err != nil {
			t.Fatal(err)
		}
	}
	st.Close()
	for i := range crashGames {
		srv.PushUpdate(crashMove(srv, i))
	}

	first := startChild(t, env)
	waitSent(t, srv, crashGames/4) // a quarter of the turn notices are out
	first.kill(t)
	st, err = bolt.Open(env["BASHNI_BOLT_PATH"], time.Now)
	if err != nil {
		t.Fatal(err)
	}
	moved := 0
	for i := range crashGames {
		if g, err := st.Game(t.Context(), crashGame(i).ID); err == nil && len(g.Moves) > 0 {
			moved++
		}
	}
	st.Close()
	t.Logf("killed with %d of %d moves in the store and %d updates unconfirmed", moved, crashGames, srv.PendingUpdates())
	if moved == crashGames {
		t.Fatalf("every move was made before the kill: the test killed too late")
	}

	second := startChild(t, env)
	srv.WaitConfirmed(t, 60*time.Second)
	second.stop(t)

	st, err = bolt.Open(env["BASHNI_BOLT_PATH"], time.Now)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	checkCrashGames(t, st, srv)
}

// Webhook on Redis: SIGKILL while 200 moves are being delivered; what was
// not answered 200 is delivered again to a fresh replica, as Telegram does.
// Every move lands once.
func TestCrashMidDeliveryWebhookLosesNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("starts the bot as a child process twice")
	}
	rds := redistest.Start(t)
	st, err := redisstore.Open(t.Context(), rds.URL(), time.Now)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for i := range crashGames {
		if err := st.CreateGame(t.Context(), crashGame(i)); err != nil {
			t.Fatal(err)
		}
	}
	srv := telegramtest.New(t)
	const secret = "crash-test-secret"
	replica := func() (*childBot, string) {
		return startWebhookChild(t, srv, rds.URL(), secret, map[string]string{"BASHNI_WORKERS": fmt.Sprint(crashWorkers)})
	}

	// deliver posts the updates with as many connections as the bot has
	// workers, as Telegram does with max_connections, and returns those
	// not answered 200. onAck hears each 200.
	deliver := func(url string, ids []int, onAck func()) []int {
		var mu sync.Mutex
		var failed []int
		next := make(chan int)
		var wg sync.WaitGroup
		for range crashWorkers {
			wg.Go(func() {
				for i := range next {
					resp, err := srv.DeliverWebhook(t.Context(), url, secret, crashMove(srv, i))
					ok := err == nil && resp.StatusCode == http.StatusOK
					if err == nil {
						resp.Body.Close()
					}
					mu.Lock()
					if ok {
						onAck()
					} else {
						failed = append(failed, i)
					}
					mu.Unlock()
				}
			})
		}
		for _, i := range ids {
			next <- i
		}
		close(next)
		wg.Wait()
		return failed
	}

	first, url := replica()
	all := make([]int, crashGames)
	for i := range all {
		all[i] = i
	}
	acked := 0
	var once sync.Once
	left := deliver(url, all, func() {
		acked++
		if acked == crashGames/4 {
			once.Do(func() { _ = first.cmd.Process.Signal(syscall.SIGKILL) })
		}
	})
	if len(left) == 0 {
		t.Fatalf("every update was answered before the kill: the test killed too late")
	}
	<-first.exited // killed: nothing more is answered
	t.Logf("killed after %d updates answered 200; %d to deliver again", crashGames-len(left), len(left))

	second, url := replica()
	if again := deliver(url, left, func() {}); len(again) > 0 {
		t.Fatalf("%d updates refused by the fresh replica:\n%s", len(again), second.logs)
	}
	second.stop(t)
	checkCrashGames(t, st, srv)
}
