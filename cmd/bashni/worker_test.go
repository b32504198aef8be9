package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bashni/bashni/aiqueue"
	"github.com/bashni/bashni/internal/telegramtest"
	"github.com/bashni/bashni/internal/testkit"
	"github.com/bashni/bashni/play"
	"github.com/bashni/bashni/rules"
	redisstore "github.com/bashni/bashni/storage/redis"
	"github.com/bashni/bashni/storage/redis/redistest"
)

func startWorker(t testing.TB, env map[string]string) (stop func(), logs *testkit.Buffer) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	logs = &testkit.Buffer{}
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"worker"}, environ(env), strings.NewReader(""), io.Discard, logs)
	}()
	var once sync.Once
	stop = func() {
		once.Do(func() {
			cancel()
			select {
			case err := <-done:
				if err != nil {
					t.Errorf("worker exited with %v\nlogs:\n%s", err, logs)
				}
			case <-time.After(5 * time.Second):
				t.Errorf("worker did not stop within 5s of its signal\nlogs:\n%s", logs)
			}
		})
	}
	t.Cleanup(stop)
	return stop, logs
}

func workerEnv(redisURL string) map[string]string {
	return map[string]string{
		"REDIS_URL":           redisURL,
		"BASHNI_AI_WORKERS":   "2",
		"BASHNI_AI_MAX_NODES": "2000",
		"BASHNI_AI_HASH_MB":   "1",
		"BASHNI_LOG_LEVEL":    "debug",
	}
}

func TestWorkerNeedsRedis(t *testing.T) {
	var stderr bytes.Buffer
	err := run(t.Context(), []string{"worker"}, nil, strings.NewReader(""), io.Discard, &stderr)
	if !errors.Is(err, errUsage) || !strings.Contains(err.Error(), "REDIS_URL") {
		t.Errorf("worker without Redis: got %v, want a usage error that names REDIS_URL", err)
	}
	if code := exitCode(err, &stderr); code != 2 {
		t.Errorf("exit code %d, want 2", code)
	}
}

// The bot's side (newThinker with ai.queue redis) asks, `bashni worker`
// answers with legal moves; a job it cannot read gets an error back, not
// silence; on its signal the worker stops and leaves the consumer group.
func TestWorkerAnswersTheBot(t *testing.T) {
	// A server of the test's own: both sides use the production prefix.
	srv := redistest.Start(t)
	stop, logs := startWorker(t, workerEnv(srv.URL()))

	botEnv := map[string]string{"REDIS_URL": srv.URL(), "BASHNI_AI_QUEUE": "redis"}
	cfg, err := loadConfig("", func(k string) string { return botEnv[k] })
	if err != nil {
		t.Fatalf("loadConfig: %v", err)
	}
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	store, err := openStore(t.Context(), cfg, time.Now, logger)
	if err != nil {
		t.Fatalf("openStore: %v", err)
	}
	defer store.Close()
	thinker := newThinker(cfg, store, time.Now, logger)
	if _, ok := thinker.(*play.RemoteThinker); !ok {
		t.Fatalf("newThinker with ai.queue redis: got a %T, want a *play.RemoteThinker", thinker)
	}

	g := rules.NewGame(rules.Start(rules.Russian))
	for ply := range 6 {
		ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
		m, err := thinker.Think(ctx, g, 1+ply)
		cancel()
		if err != nil {
			t.Fatalf("ply %d: Think: %v\nworker logs:\n%s", ply, err, logs)
		}
		if !slices.Contains(g.Legal(), m) {
			t.Fatalf("ply %d: %v is not a legal move", ply, m)
		}
		if err := g.Play(m); err != nil {
			t.Fatalf("ply %d: Play: %v", ply, err)
		}
	}

	// Straight through the queue: a job no engine can read.
	rs := store.(*redisstore.Store)
	q := aiqueue.New(rs.Client(), rs.Prefix(), time.Now, aiqueue.QueueOptions{})
	bad := aiqueue.Job{ID: "bad", Position: "w:z9w", Level: 3, Deadline: time.Now().Add(5 * time.Second)}
	if err := q.Submit(t.Context(), bad); err != nil {
		t.Fatalf("Submit: %v", err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
	defer cancel()
	if res, err := q.Await(ctx, "bad"); err != nil || res.Err == "" || res.Move != "" {
		t.Errorf("answer to an unreadable job: got %+v, %v; want an error from the worker", res, err)
	}

	stop()
	for _, want := range []string{`"msg":"worker started"`, `"msg":"AI move"`, `"msg":"AI job refused"`, `"msg":"worker stopped"`} {
		if !strings.Contains(logs.String(), want) {
			t.Errorf("worker logs lack %s:\n%s", want, logs)
		}
	}
	consumers, err := srv.DB(t).Client(t).XInfoConsumers(t.Context(), "bashni:ai:{queue}:jobs", "workers").Result()
	if err != nil || len(consumers) != 0 {
		t.Errorf("consumers after the worker stopped: %+v (%v), want none", consumers, err)
	}
}

func TestNewThinkerLocal(t *testing.T) {
	cfg, err := loadConfig("", func(string) string { return "" })
	if err != nil {
		t.Fatalf("loadConfig: %v", err)
	}
	if th := newThinker(cfg, nil, time.Now, slog.New(slog.NewTextHandler(io.Discard, nil))); func() bool {
		_, ok := th.(*play.EnginePool)
		return !ok
	}() {
		t.Errorf("newThinker with ai.queue local: got a %T, want a *play.EnginePool", th)
	}
}

// The whole way: a Telegram user plays Black against the AI on a bot with
// ai.queue redis, and its first move comes from `bashni worker`.
func TestE2EAIMovesFromWorker(t *testing.T) {
	redis := redistest.Start(t)
	_, workerLogs := startWorker(t, workerEnv(redis.URL()))
	srv := telegramtest.New(t)
	startBot(t, srv, map[string]string{"REDIS_URL": redis.URL(), "BASHNI_AI_QUEUE": "redis"})
	alice := newUser(301, "Alice", "en")

	say(srv, alice.chat, alice, "/start")
	greet := waitMessage(t, srv, alice.chat.ID, "greeting", func(m telegramtest.Msg) bool { return strings.Contains(m.Text, "Welcome") })
	tap(t, srv, alice.chat, alice, greet.ID, buttons(greet)[0][1]) // play the AI
	levels := waitMessage(t, srv, alice.chat.ID, "level picker", func(m telegramtest.Msg) bool { return strings.Contains(m.Text, "level") })
	colours := chooseLevel(t, srv, alice.chat, alice, levels, 3)
	tap(t, srv, alice.chat, alice, colours.ID, buttons(colours)[1][1]) // Black: the AI opens

	c := waitMessage(t, srv, alice.chat.ID, "board card", func(m telegramtest.Msg) bool { return m.Kind == "photo" })
	waitMessage(t, srv, alice.chat.ID, "the AI's first move", func(m telegramtest.Msg) bool {
		return m.ID == c.ID && strings.Contains(m.Text, "Black to move")
	})
	// The worker logs the move after it has sent the answer.
	if !workerLogs.WaitFor(`"msg":"AI move"`, 10*time.Second) {
		t.Errorf("the AI moved, but not through the worker; worker logs:\n%s", workerLogs)
	}
}
