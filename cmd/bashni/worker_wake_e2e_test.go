package main

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/bashni/bashni/internal/telegramtest"
	redisstore "github.com/bashni/bashni/storage/redis"
	"github.com/bashni/bashni/storage/redis/redistest"
)

// A bot on Redis with ai.queue redis finds no worker for its AI's move: it
// waits the AI's time and gives the move up, owed. A `bashni worker`
// started then claims it once the claim has run out, makes it, and wakes
// the bot, which shows it at once. The bot's clock ticks once an hour
// here: only the wake-up can bring the AI's answer to the chat within the
// test's wait.
func TestWorkerMoveWakesTheBot(t *testing.T) {
	if testing.Short() {
		t.Skip("waits out the AI's claim (15 s)")
	}
	took := workerMoveToCard(t, "1h")
	t.Logf("the worker's move reached the card %v after its engine answered", took.Round(time.Millisecond))
}

// BenchmarkWorkerMoveToCard measures, with the bot's clock at its default
// interval, how long the AI's move a `bashni worker` stored takes to reach
// the card (ms/card, from the worker engine's answer): the wake-up, or
// before it a tick after ShowAt.
// Each round waits out the AI's claim (15 s): run it with -benchtime=3x.
func BenchmarkWorkerMoveToCard(b *testing.B) {
	var total time.Duration
	for b.Loop() {
		total += workerMoveToCard(b, "15s")
	}
	b.ReportMetric(float64(total.Milliseconds())/float64(b.N), "ms/card")
}

// workerMoveToCard plays the story of TestWorkerMoveWakesTheBot with the
// bot's clock ticking every tick, and returns the time from the worker's
// answer (its engine's "AI move", just before the move is stored) to the
// card edit that shows it.
func workerMoveToCard(t testing.TB, tick string) time.Duration {
	t.Helper()
	rds := redistest.Start(t)
	srv := telegramtest.New(t)
	bot := startBot(t, srv, map[string]string{
		"REDIS_URL":             rds.URL(),
		"BASHNI_AI_QUEUE":       "redis",
		"BASHNI_CLOCK_INTERVAL": tick,
	})
	alice := newUser(9501, "Alice", "en")
	say(srv, alice.chat, alice, "/play 3 white")
	c := waitMessage(t, srv, alice.chat.ID, "the card", func(m telegramtest.Msg) bool { return m.Kind == "photo" })
	say(srv, alice.chat, alice, "c3-d4")
	// No worker: the bot's AI waits its time (10 s) on the queue and gives
	// the move up; it stays owed, claimed for 5 s more.
	if !bot.logs.WaitFor("AI move failed", time.Minute) {
		t.Fatalf("the bot's AI did not give its move up without a worker\nlogs:\n%s", bot.logs)
	}
	env := workerEnv(rds.URL())
	env["BASHNI_CLOCK_INTERVAL"] = "100ms" // claims the move as soon as the claim has run out
	_, workerLogs := startWorker(t, env)

	// The card after the AI's answer: White to move again, after c3-d4.
	answered := func(text string) bool {
		return strings.Contains(text, "White to move") && strings.Contains(text, "c3-d4")
	}
	if !srv.WaitUntil(time.Minute, func() bool { m, ok := srv.Message(alice.chat.ID, c.ID); return ok && answered(m.Text) }) {
		m, _ := srv.Message(alice.chat.ID, c.ID)
		t.Fatalf("the card never showed the AI's answer: %q\nbot logs:\n%s\nworker logs:\n%s", m.Text, bot.logs, workerLogs)
	}

	st, err := redisstore.Open(context.Background(), rds.URL(), time.Now)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ids, err := st.ActiveGamesByUser(context.Background(), alice.u.ID)
	if err != nil || len(ids) != 1 {
		t.Fatalf("Alice's games: %v, %v", ids, err)
	}
	if g, err := st.Game(context.Background(), ids[0]); err != nil || len(g.Moves) != 2 {
		t.Fatalf("stored: %+v, %v; want Alice's move and the AI's", g, err)
	}
	var shown time.Time
	for _, call := range srv.CallsTo("editMessageMedia") {
		if call.ChatID() == alice.chat.ID && answered(call.Params["media"]) {
			shown = call.At
			break
		}
	}
	answer := lastLogTime(t, workerLogs.String(), `"msg":"AI move"`, shown)
	return shown.Sub(answer)
}

// lastLogTime is the time of the last JSON log line with msg in logs
// before the moment before.
func lastLogTime(t testing.TB, logs, msg string, before time.Time) time.Time {
	t.Helper()
	var last time.Time
	for line := range strings.Lines(logs) {
		if !strings.Contains(line, msg) {
			continue
		}
		var l struct {
			Time time.Time `json:"time"`
		}
		if err := json.Unmarshal([]byte(line), &l); err == nil && l.Time.Before(before) {
			last = l.Time
		}
	}
	if last.IsZero() {
		t.Fatalf("no log line %s before %v in:\n%s", msg, before, logs)
	}
	return last
}
