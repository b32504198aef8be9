package loadtest

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"maps"
	"math"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
)

// The bot's own series (cmd/bashni/ops.go).
const (
	durationMetric = "bashni_update_duration_seconds"
	updatesMetric  = "bashni_updates_total"
)

// scrape is what one /metrics page says about handled updates.
type scrape struct {
	// buckets maps an update kind to its cumulative histogram buckets:
	// upper bound (+Inf included) to count.
	buckets map[string]map[float64]float64
	// updates maps "kind/outcome" to bashni_updates_total.
	updates map[string]float64
}

func newScrape() scrape {
	return scrape{buckets: make(map[string]map[float64]float64), updates: make(map[string]float64)}
}

// fetchMetrics reads and parses a Prometheus text page.
func fetchMetrics(ctx context.Context, client *http.Client, url string) (scrape, error) {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return scrape{}, err
	}
	resp, err := client.Do(req)
	if err != nil {
		return scrape{}, fmt.Errorf("loadtest: metrics: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return scrape{}, fmt.Errorf("loadtest: metrics %s: %s", url, resp.Status)
	}
	return parseMetrics(resp.Body)
}

// parseMetrics reads the two series it needs from the text exposition
// format; every other line is skipped.
func parseMetrics(r io.Reader) (scrape, error) {
	s := newScrape()
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	for sc.Scan() {
		line := sc.Text()
		var name string
		switch {
		case strings.HasPrefix(line, durationMetric+"_bucket{"):
			name = durationMetric
		case strings.HasPrefix(line, updatesMetric+"{"):
			name = updatesMetric
		default:
			continue
		}
		open, end := strings.IndexByte(line, '{'), strings.LastIndexByte(line, '}')
		if end < open {
			return s, fmt.Errorf("loadtest: metrics line %q: unbalanced braces", line)
		}
		labels := parseLabels(line[open+1 : end])
		fields := strings.Fields(line[end+1:])
		if len(fields) == 0 {
			return s, fmt.Errorf("loadtest: metrics line %q: no value", line)
		}
		value, err := strconv.ParseFloat(fields[0], 64)
		if err != nil {
			return s, fmt.Errorf("loadtest: metrics line %q: %w", line, err)
		}
		if name == updatesMetric {
			s.updates[labels["kind"]+"/"+labels["outcome"]] += value
			continue
		}
		le, err := strconv.ParseFloat(labels["le"], 64) // "+Inf" parses as +Inf
		if err != nil {
			return s, fmt.Errorf("loadtest: metrics line %q: le: %w", line, err)
		}
		kind := labels["kind"]
		if s.buckets[kind] == nil {
			s.buckets[kind] = make(map[float64]float64)
		}
		s.buckets[kind][le] += value
	}
	return s, sc.Err()
}

// parseLabels reads `a="x",b="y"`. The bot's label values hold no quotes
// or commas, so no unescaping is needed.
func parseLabels(s string) map[string]string {
	out := make(map[string]string)
	for _, kv := range strings.Split(s, ",") {
		k, v, ok := strings.Cut(kv, "=")
		if ok {
			out[strings.TrimSpace(k)] = strings.Trim(v, `"`)
		}
	}
	return out
}

// add adds (sign 1) or subtracts (sign -1) another scrape, to sum replicas
// and to take what happened between two scrapes.
func (s scrape) add(o scrape, sign float64) {
	for kind, bs := range o.buckets {
		if s.buckets[kind] == nil {
			s.buckets[kind] = make(map[float64]float64)
		}
		for le, n := range bs {
			s.buckets[kind][le] += sign * n
		}
	}
	for k, n := range o.updates {
		s.updates[k] += sign * n
	}
}

// Histogram is a cumulative latency histogram: Counts[i] updates took at
// most Bounds[i] seconds; the last bound is +Inf.
type Histogram struct {
	Bounds []float64
	Counts []float64
}

// histogram merges the buckets of the given kinds (all kinds when none).
func (s scrape) histogram(kinds ...string) Histogram {
	merged := make(map[float64]float64)
	for kind, bs := range s.buckets {
		if len(kinds) > 0 && !slices.Contains(kinds, kind) {
			continue
		}
		for le, n := range bs {
			merged[le] += n
		}
	}
	var h Histogram
	for _, le := range slices.Sorted(maps.Keys(merged)) {
		h.Bounds = append(h.Bounds, le)
		h.Counts = append(h.Counts, merged[le])
	}
	return h
}

// Total is the number of observations.
func (h Histogram) Total() float64 {
	if len(h.Counts) == 0 {
		return 0
	}
	return h.Counts[len(h.Counts)-1]
}

// Quantile estimates the q-quantile the way Prometheus's histogram_quantile
// does: linearly within the bucket that holds it, from 0 for the first
// bucket; in the +Inf bucket it answers the highest finite bound. It also
// returns that bucket's upper bound, the honest "at most".
func (h Histogram) Quantile(q float64) (estimate, atMost time.Duration) {
	total := h.Total()
	if total <= 0 {
		return 0, 0
	}
	rank := q * total
	prevBound, prevCount := 0.0, 0.0
	for i, bound := range h.Bounds {
		n := h.Counts[i]
		if n >= rank {
			if math.IsInf(bound, 1) {
				return seconds(prevBound), time.Duration(math.MaxInt64)
			}
			est := bound
			if n > prevCount {
				est = prevBound + (bound-prevBound)*(rank-prevCount)/(n-prevCount)
			}
			return seconds(est), seconds(bound)
		}
		prevBound, prevCount = bound, n
	}
	return seconds(prevBound), time.Duration(math.MaxInt64)
}

func seconds(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }
