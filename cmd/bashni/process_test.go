package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"runtime/pprof"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/bashni/bashni/internal/testkit"
)

// runMainEnv makes the test binary behave as the bashni command: the load
// test starts its replicas as processes of their own, so that each one's
// CPU time can be read and no replica shares a Go runtime (scheduler,
// garbage collector) with another or with the harness.
const runMainEnv = "BASHNI_TEST_RUN_MAIN"

func TestMain(m *testing.M) {
	if os.Getenv(runMainEnv) == "1" {
		// os.Args[1:] are bashni's arguments: the test flags were never
		// parsed.
		stop := profileTo(os.Getenv(cpuProfileEnv))
		now := time.Now
		if file := os.Getenv(clockFileEnv); file != "" {
			now = fileClock(file)
		}
		code := exitCode(runAt(context.Background(), os.Args[1:], os.Environ(), os.Stdin, os.Stdout, os.Stderr, now), os.Stderr)
		stop()
		os.Exit(code)
	}
	os.Exit(m.Run())
}

// cpuProfileEnv names a file for a CPU profile of a replica process
// (-loadtest.profile).
const cpuProfileEnv = "BASHNI_TEST_CPUPROFILE"

// profileTo starts a CPU profile into file (none if file is ""), and
// returns what stops it.
func profileTo(file string) (stop func()) {
	if file == "" {
		return func() {}
	}
	f, err := os.Create(file)
	if err != nil {
		fmt.Fprintln(os.Stderr, "cpu profile:", err)
		return func() {}
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		fmt.Fprintln(os.Stderr, "cpu profile:", err)
		f.Close()
		return func() {}
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}
}

// replicaProcess is `bashni bot` running as a child process.
type replicaProcess struct {
	cmd  *exec.Cmd
	logs *testkit.Buffer
	done chan error
}

// startReplicaProcess runs `bashni bot` with env (and nothing else of the
// test's environment but PATH and HOME) until the test ends, and waits until
// its webhook and ops servers answer. At the end it is stopped with SIGTERM,
// as a container runtime would, and must exit cleanly without logging
// errors.
func startReplicaProcess(t *testing.T, n int, env map[string]string) *replicaProcess {
	t.Helper()
	cmd := exec.Command(os.Args[0], "bot")
	cmd.Env = []string{runMainEnv + "=1", "PATH=" + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME")}
	for k, v := range env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	p := &replicaProcess{cmd: cmd, logs: &testkit.Buffer{}, done: make(chan error, 1)}
	cmd.Stdout, cmd.Stderr = p.logs, p.logs
	if err := cmd.Start(); err != nil {
		t.Fatalf("replica %d: %v", n, err)
	}
	go func() { p.done <- cmd.Wait() }()
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		select {
		case err := <-p.done:
			if err != nil {
				t.Errorf("replica %d exited with %v\nlogs:\n%s", n, err, p.logs)
			}
		case <-time.After(30 * time.Second):
			_ = cmd.Process.Kill()
			t.Errorf("replica %d did not stop within 30 s of SIGTERM\nlogs:\n%s", n, p.logs)
		}
		if l := p.logs.String(); strings.Contains(l, `"level":"ERROR"`) {
			t.Errorf("replica %d logged errors:\n%s", n, l)
		}
	})
	waitReady(t, n, env, p.done, p.logs)
	return p
}

// cpuTime is the CPU time (user and system) process pid has used, read from
// /proc. Linux only; elsewhere it fails and the load test reports no CPU.
func cpuTime(pid int) (time.Duration, error) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	// The command name (field 2) may hold spaces; the fields after its
	// closing parenthesis start with field 3.
	s := string(data)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return 0, fmt.Errorf("/proc/%d/stat: no command name", pid)
	}
	f := strings.Fields(s[i+1:])
	if len(f) < 13 {
		return 0, fmt.Errorf("/proc/%d/stat: %d fields", pid, len(f)+2)
	}
	// utime and stime are fields 14 and 15, in clock ticks: 100 a second
	// on every Linux this runs on (USER_HZ).
	var ticks int64
	for _, field := range f[11:13] {
		v, err := strconv.ParseInt(field, 10, 64)
		if err != nil {
			return 0, fmt.Errorf("/proc/%d/stat: %v", pid, err)
		}
		ticks += v
	}
	return time.Duration(ticks) * 10 * time.Millisecond, nil
}

// selfCPU is the CPU time this process (the harness) has used.
func selfCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// cpuTime reads the same counters the kernel gives getrusage, in clock
// ticks: the two readings agree to within a few ticks, however busy the
// machine (this compares two readings of one quantity, it times nothing).
func TestCPUTimeOfThisProcess(t *testing.T) {
	if _, err := cpuTime(os.Getpid()); err != nil {
		t.Skipf("no /proc here: %v", err)
	}
	x := 0
	for i := range 50_000_000 { // some CPU to read
		x ^= i * i
	}
	before := selfCPU()
	proc, err := cpuTime(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	after := selfCPU()
	const tick = 10 * time.Millisecond
	if proc < before-5*tick || proc > after+5*tick {
		t.Errorf("/proc read %v of CPU, getrusage between %v and %v (spun to %d)", proc, before, after, x)
	}
}
