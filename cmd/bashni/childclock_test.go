package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// clockFileEnv names the file of a shared clock for the bot processes a
// test starts as children (startChild): each reads the offset written
// there at every reading of its clock, so the test moves the time of all
// of them at once, as testkit.Clock does in process. No file, no offset.
const clockFileEnv = "BASHNI_TEST_CLOCK_FILE"

// fileClock is the clock of a child process: the real present plus the
// offset in file (nanoseconds). An offset that cannot be read is none.
func fileClock(file string) func() time.Time {
	return func() time.Time {
		now := time.Now()
		data, err := os.ReadFile(file)
		if err != nil {
			return now
		}
		d, err := strconv.ParseInt(strings.TrimSpace(string(data)), 10, 64)
		if err != nil {
			return now
		}
		return now.Add(time.Duration(d))
	}
}

// childClock is the test's side of a fileClock: it starts at the real
// present and moves forward only when Advance says so.
type childClock struct {
	file   string
	mu     sync.Mutex
	offset time.Duration
}

// newChildClock makes a shared clock; env(vars) puts it in a child's
// environment.
func newChildClock(t *testing.T) *childClock {
	t.Helper()
	c := &childClock{file: filepath.Join(t.TempDir(), "clock")}
	c.write(t)
	return c
}

// env adds the clock to a child's environment.
func (c *childClock) env(vars map[string]string) map[string]string {
	vars[clockFileEnv] = c.file
	return vars
}

// Advance moves every child's clock forward by d.
func (c *childClock) Advance(t *testing.T, d time.Duration) {
	t.Helper()
	c.mu.Lock()
	defer c.mu.Unlock()
	c.offset += d
	c.write(t)
}

// write replaces the file whole (a rename), so that no child reads half
// of it.
func (c *childClock) write(t *testing.T) {
	t.Helper()
	tmp := c.file + ".tmp"
	if err := os.WriteFile(tmp, []byte(strconv.FormatInt(int64(c.offset), 10)), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, c.file); err != nil {
		t.Fatal(err)
	}
}

// A child's clock reads what the test wrote: nothing moved, the present;
// moved by an hour, an hour on.
func TestChildClockFollowsTheFile(t *testing.T) {
	c := newChildClock(t)
	now := fileClock(c.file)
	before := time.Now()
	got := now()
	if after := time.Now(); got.Before(before) || got.After(after) {
		t.Errorf("an unmoved clock reads %v, between readings of the present %v and %v", got, before, after)
	}
	c.Advance(t, time.Hour)
	if got := now(); got.Before(before.Add(time.Hour)) {
		t.Errorf("a clock moved an hour reads %v, %v after the present", got, got.Sub(before))
	}
}
