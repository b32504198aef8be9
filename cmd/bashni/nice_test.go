package main

import (
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// threadNices reads the niceness of each thread of this process (field 19
// of /proc/self/task/*/stat).
func threadNices(t *testing.T) map[string]int {
	t.Helper()
	dirs, err := filepath.Glob("/proc/self/task/*")
	if err != nil || len(dirs) == 0 {
		t.Skip("no /proc/self/task")
	}
	out := map[string]int{}
	for _, d := range dirs {
		data, err := os.ReadFile(filepath.Join(d, "stat"))
		if err != nil {
			continue // a thread that ended
		}
		s := string(data)
		f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
		n, err := strconv.Atoi(f[16]) // field 19, the 17th after the name
		if err != nil {
			t.Fatalf("%s: %v", d, err)
		}
		out[filepath.Base(d)] = n
	}
	return out
}

// The miner's niceness reaches every thread, those the runtime makes
// afterwards too: on Linux setpriority of the process changes one thread.
func TestLowerPriorityReachesEveryThread(t *testing.T) {
	before := threadNices(t)
	want := 1
	for _, n := range before {
		want = max(want, n)
	}
	if err := lowerPriority(want); err != nil {
		t.Fatal(err)
	}
	// New threads: goroutines locked to their own.
	var wg sync.WaitGroup
	release := make(chan struct{})
	ready := make(chan struct{}, 4)
	for range 4 {
		wg.Go(func() {
			runtime.LockOSThread()
			ready <- struct{}{}
			<-release
		})
	}
	for range 4 {
		<-ready
	}
	after := threadNices(t)
	close(release)
	wg.Wait()
	if len(after) <= len(before) {
		t.Logf("threads before %d, after %d", len(before), len(after))
	}
	for tid, n := range after {
		if n < want {
			t.Errorf("thread %s has niceness %d, want %d", tid, n, want)
		}
	}
}
