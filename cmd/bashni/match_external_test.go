package main

import (
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestMatchAgainstAnotherBuild plays this build's engine against a build
// of bashni run as a separate program: the test binary itself, which acts
// as the bashni command when runMainEnv is set (see TestMain), answering
// through its think command as any release would.
func TestMatchAgainstAnotherBuild(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a process per move")
	}
	t.Setenv(runMainEnv, "1") // for the children only: TestMain has run
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	out, errOut, code := runCmd(t, "match",
		"-a", "nodes=3000",
		"-b", "exe="+exe+",nodes=3000,hash=1",
		// One colour-swapped pair of short games: every move of the
		// external side starts a process, so a longer match belongs to
		// the README's bench, not to the default run.
		"-games", "2", "-maxplies", "16")
	if code != 0 {
		t.Fatalf("match: exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errOut)
	}
	// Two games, a line each, then the table with W/D/L adding up.
	if got := len(regexp.MustCompile(`(?m)^game \d/2 `).FindAllString(out, -1)); got != 2 {
		t.Errorf("%d game lines, want 2:\n%s", got, out)
	}
	row := regexp.MustCompile(`(?m)^\s*B exe=\S+\s+(\d+)\s+(\d+)\s+(\d+)\s+([\d.]+)%\s+(\S+ ± \S+|[+-]inf ± inf)`).FindStringSubmatch(out)
	if row == nil {
		t.Fatalf("no table row for the external player:\n%s", out)
	}
	t.Logf("\n%s", out)
	total := 0
	for _, s := range row[1:4] {
		n, _ := strconv.Atoi(s)
		total += n
	}
	if total != 2 {
		t.Errorf("W+D+L = %d, want 2:\n%s", total, out)
	}
}

func TestMatchRefusesAMissingBuild(t *testing.T) {
	_, errOut, code := runCmd(t, "match", "-a", "depth=1", "-b", "exe=/nonexistent/bashni", "-games", "2")
	if code != 2 || !strings.Contains(errOut, "/nonexistent/bashni") {
		t.Errorf("exit %d, stderr %q; want a usage error naming the path", code, errOut)
	}
}
