package main

import (
	"runtime"
	"testing"

	"github.com/bashni/bashni/ai"
)

// By default a time-limited search (the analysis, the top level) uses the
// machine's cores; ai.threads set says how many, and out of range it is
// refused.
func TestAIThreadsDefaultIsTheMachines(t *testing.T) {
	c := defaults()
	if got, want := c.aiThreads(), min(runtime.NumCPU(), ai.MaxThreads); got != want {
		t.Errorf("default threads %d, want the machine's %d", got, want)
	}
	for _, tc := range []struct {
		env  string
		want int
		bad  bool
	}{
		{"3", 3, false},
		{"0", min(runtime.NumCPU(), ai.MaxThreads), false},
		{"-1", 0, true},
		{"65", 0, true},
	} {
		cfg, err := loadConfig("", func(k string) string {
			if k == "BASHNI_AI_THREADS" {
				return tc.env
			}
			return ""
		})
		if tc.bad {
			if err == nil {
				t.Errorf("BASHNI_AI_THREADS=%s accepted", tc.env)
			}
			continue
		}
		if err != nil || cfg.aiThreads() != tc.want {
			t.Errorf("BASHNI_AI_THREADS=%s: %d threads, %v; want %d", tc.env, cfg.aiThreads(), err, tc.want)
		}
	}
}
