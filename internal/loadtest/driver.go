package loadtest

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"runtime/pprof"
	"strings"
	"sync/atomic"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/bashni/bashni/internal/telegramtest"
)

// Options configure a run. Zero values take the defaults given.
type Options struct {
	// Hooks are the replicas' webhook URLs (plain HTTP behind the load
	// balancer that would end TLS); updates go to them in turn.
	Hooks []string
	// Secret is the webhook's secret token.
	Secret string
	// Metrics are the replicas' /metrics URLs, for their own handling
	// times; none is fine.
	Metrics []string
	// Games is how many games are played at once, each in its own group
	// (default 16).
	Games int
	// Duration is how long players keep starting taps (default 10 s); the
	// taps under way then are finished.
	Duration time.Duration
	// Redeliver is the share of updates delivered a second time, to the
	// next replica, as Telegram does when it misses an answer (default 0).
	Redeliver float64
	// Connections bounds the webhook requests in flight per replica
	// (default 2), as Telegram's max_connections does.
	Connections int
	// Timeout is how long a player waits for the bot's answer to a tap
	// before giving up on the game (default 30 s).
	Timeout time.Duration
	// Seed makes the players' choices repeatable.
	Seed uint64
	// CPU, if set, reads the CPU time each process of the test has used so
	// far, named by CPUNames: the replicas first, in the order of Hooks,
	// then any others (Redis, the harness). It is read when the measured
	// phase starts and once the bots have handled what it delivered, so
	// the report can say what an update costs each process, which wall
	// time on a shared machine cannot.
	CPU      func() []time.Duration
	CPUNames []string
}

// Driver plays games against bot replicas through a fake Bot API. Point the
// bots at Endpoint before they start.
type Driver struct {
	fake   *telegramtest.Server
	events *events
	stop   func()       // stops the fake's reports to events
	runs   atomic.Int64 // tells the groups and players of each run apart
}

// New returns a driver for the bots that use fake. Close it when done.
func New(fake *telegramtest.Server) (*Driver, error) {
	d := &Driver{fake: fake, events: newEvents()}
	d.stop = fake.OnMessage(d.events.observe)
	return d, nil
}

// harnessLabels mark the driver's goroutines (and the connections they
// open) in CPU profiles: the harness shares the machine with the bots it
// measures, and go tool pprof -tags shows how much it takes.
var harnessLabels = pprof.Labels("harness", "loadtest")

// Endpoint is the Bot API endpoint the bots must use
// (TELEGRAM_API_ENDPOINT): the fake's, which tells the driver of every
// message it records.
func (d *Driver) Endpoint() string { return d.fake.Endpoint() }

// Close stops the fake's reports to the driver.
func (d *Driver) Close() { d.stop() }

// Run challenges and accepts Options.Games games at once, then plays them
// for Options.Duration and reports what it measured. A player who gets no
// answer fails the run: the error says which, and the Result holds the
// rest.
func (d *Driver) Run(ctx context.Context, o Options) (res *Result, err error) {
	pprof.Do(ctx, harnessLabels, func(ctx context.Context) { res, err = d.run(ctx, o) })
	return res, err
}

func (d *Driver) run(ctx context.Context, o Options) (*Result, error) {
	if len(o.Hooks) == 0 {
		return nil, errors.New("loadtest: no webhook URLs")
	}
	o = o.withDefaults()
	r := newRunner(d.fake, o)
	// Update ids are the driver's own, so a redelivery carries the same
	// one; each run starts far above the last.
	runNo := d.runs.Add(1)
	r.updateID.Store(runNo << 32)
	droppedBefore := d.events.dropped.Load()
	tables := d.seat(r, runNo)
	defer func() {
		for _, t := range tables {
			d.events.unwatch(t.chat.ID)
		}
	}()

	client := &http.Client{}
	first, err := d.scrapeAll(ctx, client, o.Metrics)
	if err != nil {
		return nil, err
	}
	// Warm-up, not measured: every game is challenged and accepted (the
	// bots' first boards take long to draw while their renderers prepare).
	each(tables, func(t *table) { t.err = t.start(ctx) })
	before, err := d.scrapeAll(ctx, client, o.Metrics)
	if err != nil {
		return nil, err
	}
	updatesBefore := r.updates.Load()
	var cpuBefore []time.Duration
	if o.CPU != nil {
		cpuBefore = o.CPU()
	}
	start := time.Now()
	deadline := start.Add(o.Duration)
	each(tables, func(t *table) {
		if t.err == nil {
			t.err = t.play(ctx, deadline)
		}
	})
	res := &Result{Replicas: len(o.Hooks), Tables: o.Games, Elapsed: time.Since(start)}
	errs := res.addTables(tables)
	res.Updates = int(r.updates.Load() - updatesBefore)
	res.Redelivered = int(r.redelivered.Load())
	res.Delivered = int(r.updates.Load()) + res.Redelivered
	res.Retried = int(r.retried.Load())
	if n := d.events.dropped.Load() - droppedBefore; n > 0 {
		errs = append(errs, fmt.Errorf("loadtest: %d messages the fake recorded were not passed to the players", n))
	}
	if len(o.Metrics) == 0 {
		return res, errors.Join(errs...)
	}
	after, err := d.settle(ctx, client, o.Metrics, first, res)
	if err != nil {
		return res, errors.Join(append(errs, err)...)
	}
	if o.CPU != nil {
		res.CPU = cpuUsed(o, cpuBefore)
	}
	res.addHandling(after, before)
	return res, errors.Join(errs...)
}

// withDefaults is o with its zero values replaced by the defaults.
func (o Options) withDefaults() Options {
	if o.Games <= 0 {
		o.Games = 16
	}
	if o.Duration <= 0 {
		o.Duration = 10 * time.Second
	}
	if o.Connections <= 0 {
		o.Connections = 2
	}
	if o.Timeout <= 0 {
		o.Timeout = 30 * time.Second
	}
	return o
}

// seat sets a table for each game of run runNo: a group of its own and its
// two players, the group's messages watched. The caller unwatches them.
func (d *Driver) seat(r *runner, runNo int64) []*table {
	tables := make([]*table, r.opts.Games)
	for i := range tables {
		n := runNo*1_000_000 + int64(i)
		chat := telegramtest.GroupChat(-1_009_000_000_000-n, fmt.Sprintf("Load %d", n))
		tables[i] = &table{
			r:    r,
			chat: chat,
			players: [2]tgbotapi.User{
				telegramtest.User(10_000_000_000+2*n, fmt.Sprintf("White%d", n), "", "en"),
				telegramtest.User(10_000_000_001+2*n, fmt.Sprintf("Black%d", n), "", "en"),
			},
			rng:    rand.New(rand.NewPCG(r.opts.Seed, uint64(i))),
			events: d.events.watch(chat.ID),
		}
	}
	return tables
}

// settle scrapes the replicas until they have handled every delivery
// since first, or for 10 s at most: a second delivery may still wait in a
// replica's queue when its first has been answered. It counts what was
// handled into res, and returns the last scrape.
func (d *Driver) settle(ctx context.Context, client *http.Client, urls []string, first []scrape, res *Result) ([]scrape, error) {
	deadline := time.Now().Add(10 * time.Second)
	for {
		after, err := d.scrapeAll(ctx, client, urls)
		if err != nil {
			return nil, err
		}
		whole := newScrape()
		for i := range after {
			whole.add(after[i], 1)
			whole.add(first[i], -1)
		}
		res.Handled, res.Repeats = 0, 0
		for k, n := range whole.updates {
			res.Handled += int(n)
			if strings.HasPrefix(k, "repeat/") {
				res.Repeats += int(n)
			}
		}
		if res.Handled >= res.Delivered || time.Now().After(deadline) {
			return after, nil
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func (d *Driver) scrapeAll(ctx context.Context, client *http.Client, urls []string) ([]scrape, error) {
	out := make([]scrape, len(urls))
	for i, u := range urls {
		s, err := fetchMetrics(ctx, client, u)
		if err != nil {
			return nil, err
		}
		out[i] = s
	}
	return out, nil
}
