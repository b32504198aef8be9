package loadtest

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"runtime/pprof"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/bashni/bashni/bot"
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

// Latency summarises measured durations: nearest-rank percentiles.
type Latency struct {
	N             int
	P50, P99, Max time.Duration
}

// Game is one game the players played.
type Game struct {
	ID     string
	ChatID int64
	Moves  int  // moves the players saw land, one per ply
	Over   bool // the card showed the end of the game
}

// Handling is the bots' own account of the time they took per update,
// from their histograms.
type Handling struct {
	Kind string // update kind ("callback", "message"), or "all"
	N    int
	// P50 and P99 are interpolated within the buckets; the AtMost values
	// are the upper bounds of the buckets that hold them.
	P50, P50AtMost time.Duration
	P99, P99AtMost time.Duration
}

// Result is what a run measured. Rates and latencies are of the measured
// phase: from the moment every game had been challenged and accepted (the
// warm-up) until the last tap was answered.
type Result struct {
	Replicas int
	Tables   int // games played at once
	Elapsed  time.Duration

	Updates int // updates delivered in the measured phase, first deliveries only
	Taps    int // picker taps answered by a card edit
	Moves   int // taps that played a move

	TapLatency  Latency // from a tap until the fake recorded the card's edit
	MoveLatency Latency // the same, for the taps that played a move

	// Over the whole run, warm-up included: every delivery a replica
	// accepted (200), second deliveries among them, and deliveries repeated
	// after a 503.
	Delivered   int
	Redelivered int
	Retried     int

	// From the bots' /metrics (empty without Options.Metrics). Handling is
	// per update kind and "all" in the measured phase, summed over
	// replicas, and PerReplica the updates each replica handled then.
	// Handled and Repeats are over the whole run: updates handled, and
	// those recognised as delivered before.
	Handling   []Handling
	PerReplica []int
	Handled    int
	Repeats    int

	// CPU is the CPU time each process used in the measured phase (empty
	// without Options.CPU), in the order of Options.CPUNames.
	CPU []ProcessCPU

	Games []Game
}

// ProcessCPU is the CPU time (user and system) one process used.
type ProcessCPU struct {
	Name string
	Used time.Duration
}

// UpdatesPerSecond is the rate of updates delivered.
func (r *Result) UpdatesPerSecond() float64 { return float64(r.Updates) / r.Elapsed.Seconds() }

// MovesPerSecond is the rate of moves played.
func (r *Result) MovesPerSecond() float64 { return float64(r.Moves) / r.Elapsed.Seconds() }

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

func newRunner(fake *telegramtest.Server, o Options) *runner {
	r := &runner{fake: fake, opts: o, sems: make([]chan struct{}, len(o.Hooks))}
	for i := range r.sems {
		r.sems[i] = make(chan struct{}, o.Connections)
	}
	return r
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

// addTables adds up what the players measured, and returns the failure of
// each game that failed.
func (res *Result) addTables(tables []*table) []error {
	var errs []error
	var taps, moves []time.Duration
	for _, t := range tables {
		if t.err != nil {
			errs = append(errs, fmt.Errorf("loadtest: game in chat %d: %w", t.chat.ID, t.err))
		}
		res.Taps += len(t.taps)
		res.Moves += len(t.moves)
		taps = append(taps, t.taps...)
		moves = append(moves, t.moves...)
		res.Games = append(res.Games, t.games...)
	}
	res.TapLatency, res.MoveLatency = summarise(taps), summarise(moves)
	return errs
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

// cpuUsed is the CPU time each process used since before.
func cpuUsed(o Options, before []time.Duration) []ProcessCPU {
	var out []ProcessCPU
	for i, used := range o.CPU() {
		name := fmt.Sprintf("process %d", i)
		if i < len(o.CPUNames) {
			name = o.CPUNames[i]
		}
		if i < len(before) {
			used -= before[i]
		}
		out = append(out, ProcessCPU{Name: name, Used: used})
	}
	return out
}

// addHandling adds the replicas' own handling times between the scrapes
// before and after the measured phase: per replica, and per kind of
// update. It changes after.
func (res *Result) addHandling(after, before []scrape) {
	measured := newScrape()
	for i := range after {
		after[i].add(before[i], -1)
		measured.add(after[i], 1)
		res.PerReplica = append(res.PerReplica, int(after[i].histogram().Total()))
	}
	for _, kind := range []string{"callback", "message", "all"} {
		h := measured.histogram(kind)
		if kind == "all" {
			h = measured.histogram()
		}
		if h.Total() == 0 {
			continue
		}
		x := Handling{Kind: kind, N: int(h.Total())}
		x.P50, x.P50AtMost = h.Quantile(0.50)
		x.P99, x.P99AtMost = h.Quantile(0.99)
		res.Handling = append(res.Handling, x)
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

// runner delivers updates for all games of a run.
type runner struct {
	fake *telegramtest.Server
	opts Options
	sems []chan struct{} // per replica: webhook requests in flight

	next        atomic.Uint64 // round-robin position
	updateID    atomic.Int64
	updates     atomic.Int64
	redelivered atomic.Int64
	retried     atomic.Int64
}

// deliver posts an update to the next replica, and with probability
// Options.Redeliver once more to the one after.
func (r *runner) deliver(ctx context.Context, rng *rand.Rand, u tgbotapi.Update) error {
	u.UpdateID = int(r.updateID.Add(1))
	i := int(r.next.Add(1) % uint64(len(r.opts.Hooks)))
	if err := r.post(ctx, i, u); err != nil {
		return err
	}
	r.updates.Add(1)
	if r.opts.Redeliver > 0 && rng.Float64() < r.opts.Redeliver {
		if err := r.post(ctx, (i+1)%len(r.opts.Hooks), u); err != nil {
			return err
		}
		r.redelivered.Add(1)
	}
	return nil
}

// post delivers an update to replica i, again after a 503 (the replica's
// queue is full or it is shutting down), as Telegram would.
func (r *runner) post(ctx context.Context, i int, u tgbotapi.Update) error {
	select {
	case r.sems[i] <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	}
	defer func() { <-r.sems[i] }()
	backoff := 50 * time.Millisecond
	for attempt := 0; ; attempt++ {
		resp, err := r.fake.DeliverWebhook(ctx, r.opts.Hooks[i], r.opts.Secret, u)
		if err != nil {
			return fmt.Errorf("loadtest: delivering update %d: %w", u.UpdateID, err)
		}
		_, _ = io.Copy(io.Discard, resp.Body) // so the connection is reused
		resp.Body.Close()
		switch {
		case resp.StatusCode == http.StatusOK:
			return nil
		case resp.StatusCode == http.StatusServiceUnavailable && attempt < 5:
			r.retried.Add(1)
			select {
			case <-time.After(backoff):
			case <-ctx.Done():
				return ctx.Err()
			}
			backoff *= 2
		default:
			return fmt.Errorf("loadtest: webhook %s answered update %d with %s", r.opts.Hooks[i], u.UpdateID, resp.Status)
		}
	}
}

// table is one group where two players play game after game.
type table struct {
	r       *runner
	chat    tgbotapi.Chat
	players [2]tgbotapi.User // players[0] is White in the first game
	rng     *rand.Rand
	events  <-chan event

	card  int // message id of the current game's card
	white int // index of White in players; a rematch swaps colours
	ply   int // board version the card shows
	kb    []bot.Callback
	data  []string // kb's button data, in the same order
	games []Game

	taps, moves []time.Duration
	err         error
}

// each runs fn for every table at once and waits for them all.
func each(tables []*table, fn func(t *table)) {
	var wg sync.WaitGroup
	for _, t := range tables {
		wg.Add(1)
		go func() {
			defer wg.Done()
			fn(t)
		}()
	}
	wg.Wait()
}

// play taps until deadline, then finishes the tap under way.
func (t *table) play(ctx context.Context, deadline time.Time) error {
	for time.Now().Before(deadline) {
		if err := ctx.Err(); err != nil {
			return err
		}
		if i := t.button(bot.KindRematch); i >= 0 {
			if err := t.rematch(ctx, t.data[i]); err != nil {
				return err
			}
			continue
		}
		if err := t.tap(ctx); err != nil {
			return err
		}
	}
	return nil
}

// start: the first player challenges, the second accepts.
func (t *table) start(ctx context.Context) error {
	fake := t.r.fake
	if err := t.r.deliver(ctx, t.rng, fake.TextMessage(t.chat, t.players[0], "/challenge white")); err != nil {
		return err
	}
	var accept string
	ev, err := t.await(ctx, "a challenge", func(ev event) bool {
		if ev.method != "sendMessage" {
			return false
		}
		accept = findKind(ev.markup, bot.KindAccept)
		return accept != ""
	})
	if err != nil {
		return err
	}
	if err := t.r.deliver(ctx, t.rng, fake.CallbackQuery(t.chat, t.players[1], ev.messageID, accept)); err != nil {
		return err
	}
	return t.awaitCard(ctx, 0)
}

// rematch taps Rematch as the first player, which offers it, accepts the
// offer as the second, and waits for the new game's card.
func (t *table) rematch(ctx context.Context, data string) error {
	if err := t.r.deliver(ctx, t.rng, t.r.fake.CallbackQuery(t.chat, t.players[0], t.card, data)); err != nil {
		return err
	}
	var accept string
	if _, err := t.await(ctx, "the rematch offer on the card", func(ev event) bool {
		if ev.messageID != t.card {
			return false
		}
		accept = findKind(ev.markup, bot.KindRematchOK)
		return accept != ""
	}); err != nil {
		return err
	}
	if err := t.r.deliver(ctx, t.rng, t.r.fake.CallbackQuery(t.chat, t.players[1], t.card, accept)); err != nil {
		return err
	}
	return t.awaitCard(ctx, 1-t.white)
}

// awaitCard waits for a new game's card, White being players[white].
func (t *table) awaitCard(ctx context.Context, white int) error {
	ev, err := t.await(ctx, "a new card", func(ev event) bool {
		return ev.method == "sendPhoto" && findKind(ev.markup, bot.KindPick) != ""
	})
	if err != nil {
		return err
	}
	t.card, t.white = ev.messageID, white
	t.show(ev.markup)
	cb, _ := bot.ParseCallback(findKind(ev.markup, bot.KindPick))
	t.games = append(t.games, Game{ID: cb.ID, ChatID: t.chat.ID})
	return nil
}

// tap presses a random picker button (not Back) as the player to move and
// waits until the card shows the result.
func (t *table) tap(ctx context.Context) error {
	var picks []int
	for i, cb := range t.kb {
		if cb.Kind == bot.KindPick && cb.Arg != "" {
			picks = append(picks, i)
		}
	}
	if len(picks) == 0 {
		return fmt.Errorf("card %d shows neither a picker nor Rematch: %v", t.card, t.data)
	}
	data := t.data[picks[t.rng.IntN(len(picks))]]
	mover := t.players[t.white]
	if t.ply%2 == 1 {
		mover = t.players[1-t.white]
	}
	u := t.r.fake.CallbackQuery(t.chat, mover, t.card, data)
	tapped := time.Now()
	if err := t.r.deliver(ctx, t.rng, u); err != nil {
		return err
	}
	// A move redraws the card; a pick within a quiet move changes only its
	// buttons (a capture's picks redraw it with the landing squares).
	ev, err := t.await(ctx, fmt.Sprintf("the card updated after tap %q", data), func(ev event) bool {
		return (ev.method == "editMessageMedia" || ev.method == "editMessageReplyMarkup") && ev.messageID == t.card
	})
	if err != nil {
		return err
	}
	took := ev.at.Sub(tapped)
	t.taps = append(t.taps, took)
	before := t.ply
	t.show(ev.markup)
	switch {
	case t.ply > before+1:
		return fmt.Errorf("card %d went from ply %d to %d on one tap", t.card, before, t.ply)
	case t.ply == before+1 || t.ply < 0:
		t.moves = append(t.moves, took)
		t.games[len(t.games)-1].Moves++
		if t.ply < 0 {
			t.games[len(t.games)-1].Over = true
		}
	case t.ply < before:
		return fmt.Errorf("card %d went back from ply %d to %d", t.card, before, t.ply)
	}
	return nil
}

// show takes in the card's keyboard: its buttons and the board's version
// (-1 once the game is over).
func (t *table) show(kb *tgbotapi.InlineKeyboardMarkup) {
	t.kb, t.data, t.ply = t.kb[:0], t.data[:0], -1
	if kb == nil {
		return
	}
	for _, row := range kb.InlineKeyboard {
		for _, b := range row {
			if b.CallbackData == nil {
				continue
			}
			cb, err := bot.ParseCallback(*b.CallbackData)
			if err != nil {
				continue
			}
			t.kb, t.data = append(t.kb, cb), append(t.data, *b.CallbackData)
			if cb.Kind == bot.KindPick {
				t.ply = cb.Ply
			}
		}
	}
}

// button returns the index of the first button of a kind, or -1.
func (t *table) button(kind string) int {
	return slices.IndexFunc(t.kb, func(cb bot.Callback) bool { return cb.Kind == kind })
}

// await returns the first event of the table's chat that matches.
func (t *table) await(ctx context.Context, what string, match func(event) bool) (event, error) {
	timer := time.NewTimer(t.r.opts.Timeout)
	defer timer.Stop()
	for {
		select {
		case ev := <-t.events:
			if match(ev) {
				return ev, nil
			}
		case <-timer.C:
			return event{}, fmt.Errorf("no %s within %v", what, t.r.opts.Timeout)
		case <-ctx.Done():
			return event{}, ctx.Err()
		}
	}
}

// findKind returns the data of the first button of a kind.
func findKind(kb *tgbotapi.InlineKeyboardMarkup, kind string) string {
	if kb == nil {
		return ""
	}
	for _, row := range kb.InlineKeyboard {
		for _, b := range row {
			if b.CallbackData == nil {
				continue
			}
			if cb, err := bot.ParseCallback(*b.CallbackData); err == nil && cb.Kind == kind && (kind != bot.KindPick || cb.Arg != "") {
				return *b.CallbackData
			}
		}
	}
	return ""
}

// summarise returns the nearest-rank percentiles of ds.
func summarise(ds []time.Duration) Latency {
	if len(ds) == 0 {
		return Latency{}
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	at := func(q float64) time.Duration {
		i := int(q*float64(len(s))+0.5) - 1
		return s[min(max(i, 0), len(s)-1)]
	}
	return Latency{N: len(s), P50: at(0.50), P99: at(0.99), Max: s[len(s)-1]}
}
