package main

import (
	"bytes"
	"cmp"
	"context"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/bashni/bashni/internal/loadtest"
	"github.com/bashni/bashni/internal/telegramtest"
	"github.com/bashni/bashni/internal/testkit"
	redisstore "github.com/bashni/bashni/storage/redis"
	"github.com/bashni/bashni/storage/redis/redistest"
)

var (
	loadFlag      = flag.Bool("loadtest", false, "run the load test: bot replicas in webhook mode on one Redis, driven through the fake Bot API")
	loadDuration  = flag.Duration("loadtest.duration", 20*time.Second, "how long the load test's players keep tapping")
	loadGames     = flag.Int("loadtest.games", 48, "games played at once in the load test")
	loadReplicas  = flag.Int("loadtest.replicas", 2, "bot replicas in the load test")
	loadRedeliver = flag.Float64("loadtest.redeliver", 0.05, "share of updates the load test delivers twice, to two replicas")
	loadProfile   = flag.String("loadtest.profile", "", "write a CPU profile of each replica process to this path with the replica's number appended")
	loadProcesses = flag.Bool("loadtest.processes", true, "run the load test's replicas as processes of their own (their CPU is then reported); false runs them inside the test")
)

// The load test of the issue: two replicas of `bashni bot` in webhook mode
// sharing one Redis on loopback, many games tapped through the fake Bot
// API. It prints updates and moves a second and the latencies, and checks
// that no move was lost or doubled. Run it with
//
//	go test -run LoadTest -loadtest -v ./cmd/bashni/
func TestLoadTest(t *testing.T) {
	if !*loadFlag {
		t.Skip("the load test runs with -loadtest")
	}
	res := runLoad(t, *loadReplicas, *loadProcesses, loadtest.Options{
		Games: *loadGames, Duration: *loadDuration, Redeliver: *loadRedeliver, Seed: 1,
	})
	t.Logf("\n%s", res)
}

// A few seconds of the load test in every run, so that it keeps working.
func TestLoadTestSmoke(t *testing.T) {
	res := runLoad(t, 2, false, loadtest.Options{
		Games: 2, Duration: time.Second, Redeliver: 0.2, Seed: 2, Timeout: 10 * time.Second,
		// One webhook connection per replica: a second one may be dialled
		// and never used, and the replica's HTTP shutdown waits 5 s for
		// such a connection before it counts as idle.
		Connections: 1,
	})
	if res.Moves == 0 {
		t.Errorf("no move was played:\n%s", res)
	}
	if len(res.PerReplica) != 2 || res.PerReplica[0] == 0 || res.PerReplica[1] == 0 {
		t.Errorf("updates handled per replica %v; want both replicas busy", res.PerReplica)
	}
	t.Logf("\n%s", res)
}

// runLoad starts replicas on a fresh Redis, runs the driver and checks
// every game: the stored game has exactly the moves its players saw land,
// and every redelivered update was recognised as one. With processes, each
// replica is a process of its own, and the CPU time of each replica, of
// Redis and of the harness is reported.
func runLoad(t *testing.T, replicas int, processes bool, opts loadtest.Options) *loadtest.Result {
	t.Helper()
	// A server of the test's own: the bot keeps its keys under the
	// production prefix, which must not land in a shared REDIS_URL.
	redis := redistest.Start(t)
	fake := telegramtest.New(t)
	driver, err := loadtest.New(fake)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(driver.Close)

	const secret = "load-test-secret"
	var pids []int
	for i := range replicas {
		hook, ops := freeAddr(t), freeAddr(t)
		env := map[string]string{
			"TELEGRAM_BOT_TOKEN":    fake.Token(),
			"TELEGRAM_API_ENDPOINT": driver.Endpoint(),
			"REDIS_URL":             redis.URL(),
			"BASHNI_MODE":           "webhook",
			"BASHNI_WEBHOOK_LISTEN": hook,
			// The public URL Telegram would post to: a load balancer
			// that ends TLS and forwards to the replicas' plain HTTP.
			// The driver plays that load balancer.
			"BASHNI_WEBHOOK_URL":    "https://bashni.example/hook",
			"BASHNI_WEBHOOK_SECRET": secret,
			"BASHNI_OPS_LISTEN":     ops,
			"BASHNI_AI_MAX_NODES":   "2000",
			"BASHNI_AI_HASH_MB":     "1",
			"BASHNI_LOG_LEVEL":      "info", // the "listening" lines tell when a replica is up
			// The fake has no rate limits; Telegram's pacing would
			// measure the pacing.
			"BASHNI_RATE_PER_CHAT":  "100000",
			"BASHNI_RATE_PER_GROUP": "6000000",
			"BASHNI_RATE_GLOBAL":    "100000",
		}
		if processes {
			if *loadProfile != "" {
				env[cpuProfileEnv] = fmt.Sprintf("%s.%d", *loadProfile, i)
			}
			pids = append(pids, startReplicaProcess(t, i, env).cmd.Process.Pid)
			opts.CPUNames = append(opts.CPUNames, fmt.Sprintf("replica %d", i))
		} else {
			startReplica(t, i, env)
		}
		opts.Hooks = append(opts.Hooks, "http://"+hook+"/hook")
		opts.Metrics = append(opts.Metrics, "http://"+ops+"/metrics")
	}
	if got := fake.WebhookInfo(); got.URL != "https://bashni.example/hook" || got.SecretToken != secret {
		t.Fatalf("webhook set to %q with secret %q", got.URL, got.SecretToken)
	}
	opts.Secret = secret
	if processes {
		pids = append(pids, redis.PID())
		opts.CPUNames = append(opts.CPUNames, "redis", "harness")
		opts.CPU = func() []time.Duration {
			var used []time.Duration
			for _, pid := range pids {
				d, _ := cpuTime(pid) // 0 where /proc is missing
				used = append(used, d)
			}
			return append(used, selfCPU())
		}
	}

	rdb := goredis.NewClient(&goredis.Options{Addr: redis.Addr()})
	t.Cleanup(func() { _ = rdb.Close() })
	commandsBefore := redisCommands(t, rdb)
	byCommandBefore := redisCommandCalls(t, rdb)
	callsBefore := len(fake.Calls())
	tripsBefore := roundTrips(t, opts.Metrics)
	res, err := driver.Run(context.Background(), opts)
	if err != nil {
		t.Fatalf("%v\n%v\nthe last Bot API calls:\n%s", err, res, lastCalls(fake, 40))
	}
	// Round trips to Redis, every replica's and their background work
	// (claims, the clock) included: what a move costs Redis.
	sent := 0
	for _, c := range fake.Calls()[callsBefore:] {
		if c.OK() && (strings.HasPrefix(c.Method, "send") || strings.HasPrefix(c.Method, "edit") || c.Method == "deleteMessage") {
			sent++
		}
	}
	t.Logf("bot api: %d messages sent, edited or deleted, %.1f/s per replica", sent, float64(sent)/res.Elapsed.Seconds()/float64(max(replicas, 1)))
	if n := redisCommands(t, rdb) - commandsBefore; res.Moves > 0 {
		t.Logf("redis: %d commands while the players played, %.1f a move, %.1f an update", n, float64(n)/float64(res.Moves), float64(n)/float64(max(res.Handled, 1)))
		t.Logf("redis, the commands a move: %s", perMove(byCommandBefore, redisCommandCalls(t, rdb), res.Moves))
		trips := roundTrips(t, opts.Metrics)
		t.Logf("redis, the replicas' round trips a move: %.1f (%s)", float64(sum(trips)-sum(tripsBefore))/float64(res.Moves), perMove(tripsBefore, trips, res.Moves))
	}

	// No move lost or doubled: each stored game has exactly the moves
	// its card showed landing.
	st, err := redisstore.Open(context.Background(), redis.URL(), time.Now)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	for _, g := range res.Games {
		stored, err := st.Game(context.Background(), g.ID)
		if err != nil {
			t.Errorf("game %s: %v", g.ID, err)
			continue
		}
		if len(stored.Moves) != g.Moves {
			t.Errorf("game %s in chat %d: stored with %d moves, the players saw %d land", g.ID, g.ChatID, len(stored.Moves), g.Moves)
		}
		if g.Over == stored.Active() {
			t.Errorf("game %s: over on the card %v, active in the store %v", g.ID, g.Over, stored.Active())
		}
	}
	// Every update taken was handled, and a second delivery only as a
	// repeat.
	if res.Handled != res.Delivered || res.Repeats != res.Redelivered {
		t.Errorf("%d deliveries accepted, %d of them second ones; the bots handled %d, %d as repeats",
			res.Delivered, res.Redelivered, res.Handled, res.Repeats)
	}
	return res
}

// redisCommands is how many commands the server has processed so far.
func redisCommands(t *testing.T, rdb *goredis.Client) int64 {
	t.Helper()
	info, err := rdb.Info(context.Background(), "stats").Result()
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(info, "\n") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), "total_commands_processed:"); ok {
			n, _ := strconv.ParseInt(v, 10, 64)
			return n
		}
	}
	t.Fatalf("no total_commands_processed in INFO stats")
	return 0
}

// redisCommandCalls is INFO commandstats' calls by command ("evalsha",
// "xadd"): where a move's round trips go, for whoever sets out to cut them.
func redisCommandCalls(t *testing.T, rdb *goredis.Client) map[string]int64 {
	t.Helper()
	info, err := rdb.Info(context.Background(), "commandstats").Result()
	if err != nil {
		t.Fatal(err)
	}
	calls := map[string]int64{}
	for _, line := range strings.Split(info, "\n") {
		name, rest, ok := strings.Cut(strings.TrimPrefix(strings.TrimSpace(line), "cmdstat_"), ":calls=")
		if !ok {
			continue
		}
		n, _ := strconv.ParseInt(strings.SplitN(rest, ",", 2)[0], 10, 64)
		calls[name] = n
	}
	return calls
}

// roundTrips adds up the replicas' bashni_redis_round_trips_total by
// command: the round trips their clients made, which INFO cannot tell
// apart from the commands a script calls.
func roundTrips(t *testing.T, metrics []string) map[string]int64 {
	t.Helper()
	const series = "bashni_redis_round_trips_total{command=\""
	trips := map[string]int64{}
	for _, url := range metrics {
		resp, err := http.Get(url)
		if err != nil {
			t.Fatal(err)
		}
		body, err := io.ReadAll(resp.Body)
		_ = resp.Body.Close()
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(string(body), "\n") {
			rest, ok := strings.CutPrefix(line, series)
			if !ok {
				continue
			}
			name, value, _ := strings.Cut(rest, "\"} ")
			n, _ := strconv.ParseFloat(value, 64)
			trips[name] += int64(n)
		}
	}
	return trips
}

func sum(m map[string]int64) (n int64) {
	for _, v := range m {
		n += v
	}
	return n
}

// perMove says each command's calls a move between two commandstats, the
// most called first: "evalsha 9.1, get 6.0, ...".
func perMove(before, after map[string]int64, moves int) string {
	type row struct {
		name string
		n    int64
	}
	var rows []row
	for name, n := range after {
		if d := n - before[name]; d > 0 {
			rows = append(rows, row{name, d})
		}
	}
	slices.SortFunc(rows, func(a, b row) int { return cmp.Compare(b.n, a.n) })
	var parts []string
	for _, r := range rows {
		parts = append(parts, fmt.Sprintf("%s %.1f", r.name, float64(r.n)/float64(max(moves, 1))))
	}
	return strings.Join(parts, ", ")
}

// lastCalls lists the bot's last n calls to the fake, polls left out.
func lastCalls(fake *telegramtest.Server, n int) string {
	var lines []string
	for _, c := range fake.Calls() {
		if c.Method != "getUpdates" {
			lines = append(lines, "\t"+c.String())
		}
	}
	return strings.Join(lines[max(len(lines)-n, 0):], "\n")
}

// freeAddr returns a loopback address with a port free a moment ago. The
// bot reports no bound address for its listeners, so the port is chosen
// here.
func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	_ = ln.Close()
	return addr
}

// startReplica runs `bashni bot` with env until the test ends, and waits
// until its webhook and ops servers answer.
func startReplica(t *testing.T, n int, env map[string]string) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	logs := &testkit.Buffer{}
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"bot"}, environ(env), strings.NewReader(""), &bytes.Buffer{}, logs)
	}()
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("replica %d exited with %v\nlogs:\n%s", n, err, logs)
			}
		case <-time.After(30 * time.Second):
			t.Errorf("replica %d did not stop within 30 s\nlogs:\n%s", n, logs)
		}
		if l := logs.String(); strings.Contains(l, `"level":"ERROR"`) {
			t.Errorf("replica %d logged errors:\n%s", n, l)
		}
	})
	waitReady(t, n, env, done, logs)
}

// waitReady waits until a replica's ops and webhook servers listen, then
// checks that they answer; done reports the replica's end, logs its output.
func waitReady(t *testing.T, n int, env map[string]string, done <-chan error, logs *testkit.Buffer) {
	t.Helper()
	waitListening(t, logs, "ops", "webhook")
	select {
	case err := <-done:
		t.Fatalf("replica %d stopped: %v\nlogs:\n%s", n, err, logs)
	default:
	}
	for _, probe := range []struct {
		url  string
		want int
	}{
		{"http://" + env["BASHNI_OPS_LISTEN"] + "/readyz", http.StatusOK},
		// A webhook takes POSTs only.
		{"http://" + env["BASHNI_WEBHOOK_LISTEN"] + "/hook", http.StatusMethodNotAllowed},
	} {
		if err := answers(probe.url, probe.want); err != nil {
			t.Fatalf("replica %d: %s: %v\nlogs:\n%s", n, probe.url, err, logs)
		}
	}
}

// answers checks that a GET of url is answered with status want.
func answers(url string, want int) error {
	resp, err := http.Get(url)
	if err != nil {
		return err
	}
	resp.Body.Close()
	if resp.StatusCode != want {
		return fmt.Errorf("answered %s, want %d", resp.Status, want)
	}
	return nil
}
