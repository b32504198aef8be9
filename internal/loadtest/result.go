package loadtest

import (
	"fmt"
	"slices"
	"time"
)

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
