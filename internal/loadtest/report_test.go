package loadtest

import (
	"strings"
	"testing"
	"time"
)

// The CPU lines divide each replica's CPU by the updates it handled, and
// the replicas' CPU by the moves played.
func TestReportCPUPerUpdateAndMove(t *testing.T) {
	r := &Result{
		Replicas: 2, Elapsed: 10 * time.Second, Updates: 4000, Moves: 2000,
		PerReplica: []int{2000, 2000},
		CPU: []ProcessCPU{
			{"replica 0", 2 * time.Second}, {"replica 1", 3 * time.Second},
			{"redis", time.Second}, {"harness", 4 * time.Second},
		},
	}
	got := r.String()
	for _, want := range []string{
		"CPU in the measured phase (10.0 s of CPU in all, 1.0 cores busy)",
		"replica 0    2.00 s  1.00 ms per update handled: 1000 updates/s per core",
		"replica 1    3.00 s  1.50 ms per update handled: 667 updates/s per core",
		"redis        1.00 s\n",
		"replicas' CPU per move played (its taps and notices): 2.50 ms: 400 moves/s per core",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("report lacks %q:\n%s", want, got)
		}
	}
}
