package loadtest

import (
	"math"
	"slices"
	"strings"
	"testing"
	"time"
)

const page = `# HELP bashni_update_duration_seconds Time to handle one update.
# TYPE bashni_update_duration_seconds histogram
bashni_update_duration_seconds_bucket{kind="callback",le="0.001"} 0
bashni_update_duration_seconds_bucket{kind="callback",le="0.005"} 50
bashni_update_duration_seconds_bucket{kind="callback",le="0.01"} 90
bashni_update_duration_seconds_bucket{kind="callback",le="+Inf"} 100
bashni_update_duration_seconds_sum{kind="callback"} 0.6
bashni_update_duration_seconds_count{kind="callback"} 100
bashni_update_duration_seconds_bucket{kind="message",le="0.001"} 10
bashni_update_duration_seconds_bucket{kind="message",le="0.005"} 10
bashni_update_duration_seconds_bucket{kind="message",le="0.01"} 10
bashni_update_duration_seconds_bucket{kind="message",le="+Inf"} 10
bashni_updates_total{kind="repeat",outcome="ok"} 7
bashni_updates_total{kind="callback",outcome="ok"} 100
go_goroutines 42
`

func TestParseMetrics(t *testing.T) {
	s, err := parseMetrics(strings.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	h := s.histogram("callback")
	if got, want := h.Bounds, []float64{0.001, 0.005, 0.01, math.Inf(1)}; !slices.Equal(got, want) {
		t.Errorf("bounds %v, want %v", got, want)
	}
	if got, want := h.Counts, []float64{0, 50, 90, 100}; !slices.Equal(got, want) {
		t.Errorf("counts %v, want %v", got, want)
	}
	if got := s.histogram().Total(); got != 110 {
		t.Errorf("all kinds: %v updates, want 110", got)
	}
	if got := s.updates["repeat/ok"]; got != 7 {
		t.Errorf("repeats %v, want 7", got)
	}

	// What happened between two scrapes is their difference.
	later, _ := parseMetrics(strings.NewReader(strings.ReplaceAll(page, "} 100\n", "} 130\n")))
	later.add(s, -1)
	if got := later.histogram("callback").Total(); got != 30 {
		t.Errorf("difference: %v updates, want 30", got)
	}
}

func TestParseMetricsRefusesGarbage(t *testing.T) {
	for _, line := range []string{
		`bashni_update_duration_seconds_bucket{kind="callback",le="0.001"}`,
		`bashni_update_duration_seconds_bucket{kind="callback",le="x"} 1`,
		`bashni_updates_total{kind="repeat"} many`,
		`bashni_updates_total{kind="repeat" 1`,
	} {
		if _, err := parseMetrics(strings.NewReader(line + "\n")); err == nil {
			t.Errorf("%q parsed without an error", line)
		}
	}
}

func TestQuantile(t *testing.T) {
	h := Histogram{Bounds: []float64{0.001, 0.005, 0.01, math.Inf(1)}, Counts: []float64{0, 50, 90, 100}}
	tests := []struct {
		q           float64
		est, atMost time.Duration
	}{
		{0.5, 5 * time.Millisecond, 5 * time.Millisecond},
		{0.25, 3 * time.Millisecond, 5 * time.Millisecond},    // halfway through (1 ms, 5 ms]
		{0.7, 7500 * time.Microsecond, 10 * time.Millisecond}, // halfway through (5 ms, 10 ms]
		{0.99, 10 * time.Millisecond, time.Duration(math.MaxInt64)},
	}
	for _, tt := range tests {
		est, atMost := h.Quantile(tt.q)
		if diff := est - tt.est; diff < -time.Microsecond || diff > time.Microsecond || atMost != tt.atMost {
			t.Errorf("Quantile(%v) = %v, ≤ %v; want %v, ≤ %v", tt.q, est, atMost, tt.est, tt.atMost)
		}
	}
	if est, atMost := (Histogram{}).Quantile(0.5); est != 0 || atMost != 0 {
		t.Errorf("empty histogram: %v, %v", est, atMost)
	}
}

func TestSummarise(t *testing.T) {
	var ds []time.Duration
	for i := 100; i >= 1; i-- {
		ds = append(ds, time.Duration(i)*time.Millisecond)
	}
	got := summarise(ds)
	want := Latency{N: 100, P50: 50 * time.Millisecond, P99: 99 * time.Millisecond, Max: 100 * time.Millisecond}
	if got != want {
		t.Errorf("summarise = %+v, want %+v", got, want)
	}
	if ds[0] != 100*time.Millisecond {
		t.Error("summarise sorted its argument")
	}
}
