package loadtest

import (
	"fmt"
	"math"
	"strings"
	"time"
)

// String reports the run for people: throughput, the players' latency and
// the bots' own handling times, each saying what it measured.
func (r *Result) String() string {
	var b strings.Builder
	over := 0
	for _, g := range r.Games {
		if g.Over {
			over++
		}
	}
	fmt.Fprintf(&b, "loadtest: %d replica(s), %d games at once, %.1f s\n", r.Replicas, r.Tables, r.Elapsed.Seconds())
	fmt.Fprintf(&b, "  updates delivered  %7d  %7.1f/s  (%.1f/s per replica)\n",
		r.Updates, r.UpdatesPerSecond(), r.UpdatesPerSecond()/float64(max(r.Replicas, 1)))
	fmt.Fprintf(&b, "  moves played       %7d  %7.1f/s  (%.1f/s per replica; %d games, %d finished)\n",
		r.Moves, r.MovesPerSecond(), r.MovesPerSecond()/float64(max(r.Replicas, 1)), len(r.Games), over)
	fmt.Fprintf(&b, "  tap → card redrawn (driver, from the tap to the fake's record of the edit):\n")
	fmt.Fprintf(&b, "    every picker tap  %s\n", r.TapLatency)
	fmt.Fprintf(&b, "    move taps         %s\n", r.MoveLatency)
	if len(r.Handling) > 0 {
		fmt.Fprintf(&b, "  handling (the bots' bashni_update_duration_seconds, interpolated in buckets):\n")
		for _, h := range r.Handling {
			fmt.Fprintf(&b, "    %-9s n=%-7d p50 %s (≤ %s)  p99 %s (≤ %s)\n", h.Kind, h.N,
				msString(h.P50), msString(h.P50AtMost), msString(h.P99), msString(h.P99AtMost))
		}
		fmt.Fprintf(&b, "  updates handled per replica %v\n", r.PerReplica)
	}
	if len(r.CPU) > 0 {
		r.writeCPU(&b)
	}
	fmt.Fprintf(&b, "  whole run with warm-up: %d deliveries accepted (%d of them second deliveries, %d repeated after a 503)",
		r.Delivered, r.Redelivered, r.Retried)
	if len(r.Handling) > 0 {
		fmt.Fprintf(&b, "; the bots handled %d, %d recognised as repeats", r.Handled, r.Repeats)
	}
	b.WriteString("\n")
	return b.String()
}

// writeCPU reports the CPU each process used and, for the replicas, per
// update handled: what one replica would serve a second with a core of its
// own, whatever else shared this machine.
func (r *Result) writeCPU(b *strings.Builder) {
	var total time.Duration
	for _, p := range r.CPU {
		total += p.Used
	}
	fmt.Fprintf(b, "  CPU in the measured phase (%.1f s of CPU in all, %.1f cores busy):\n", total.Seconds(), total.Seconds()/r.Elapsed.Seconds())
	var replicas time.Duration
	for i, p := range r.CPU {
		fmt.Fprintf(b, "    %-10s %6.2f s", p.Name, p.Used.Seconds())
		if i < len(r.PerReplica) && r.PerReplica[i] > 0 {
			replicas += p.Used
			per := p.Used / time.Duration(r.PerReplica[i])
			fmt.Fprintf(b, "  %s per update handled: %.0f updates/s per core", msString(per), float64(time.Second)/float64(per))
		}
		b.WriteString("\n")
	}
	// A move takes a tap or two (tower, destination) and the turn notice
	// that follows it; this is everything the replicas did, per move.
	if r.Moves > 0 && replicas > 0 {
		per := replicas / time.Duration(r.Moves)
		fmt.Fprintf(b, "    replicas' CPU per move played (its taps and notices): %s: %.0f moves/s per core\n", msString(per), float64(time.Second)/float64(per))
	}
}

func (l Latency) String() string {
	return fmt.Sprintf("n=%-7d p50 %s  p99 %s  max %s", l.N, msString(l.P50), msString(l.P99), msString(l.Max))
}

func msString(d time.Duration) string {
	if d == time.Duration(math.MaxInt64) {
		return "∞"
	}
	return fmt.Sprintf("%.2f ms", float64(d)/float64(time.Millisecond))
}
