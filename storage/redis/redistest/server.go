package redistest

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bashni/bashni/internal/testkit"
)

// InstallHint is what a test says when redis-server is missing.
const InstallHint = "redis-server is not on PATH: install it (Debian/Ubuntu: apt-get install redis-server; " +
	"macOS: brew install redis) or set REDIS_URL to a Redis that tests may write to"

const startTimeout = 10 * time.Second

// Server is a redis-server process owned by a test.
type Server struct {
	bin  string
	args []string
	addr string

	mu     sync.Mutex
	cmd    *exec.Cmd
	exited chan struct{} // closed when cmd has been reaped
}

// Option configures Start.
type Option func(*config)

type config struct{ persistent, cluster bool }

// Persistent makes the server keep an append-only file, synced on every
// write, in a temporary directory that Restart reuses.
func Persistent() Option { return func(c *config) { c.persistent = true } }

// Cluster starts the server as a one-node Redis Cluster owning all 16384
// slots. One node is enough to prove Cluster-readiness: the server refuses
// any script or transaction whose keys are in different slots (CROSSSLOT),
// exactly as a large cluster would.
func Cluster() Option { return func(c *config) { c.cluster = true } }

// Start starts a throwaway redis-server on a free loopback port and stops it
// when the test ends.
func Start(t testing.TB, opts ...Option) *Server {
	t.Helper()
	var cfg config
	for _, o := range opts {
		o(&cfg)
	}
	dir := t.TempDir()
	args := []string{"--bind", "127.0.0.1", "--save", "", "--dir", dir}
	if cfg.persistent {
		args = append(args, "--appendonly", "yes", "--appendfsync", "always")
	} else {
		args = append(args, "--appendonly", "no")
	}
	if cfg.cluster {
		args = append(args, "--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf")
	}
	s := launch(t, func(port int) []string { return append([]string{"--port", strconv.Itoa(port)}, args...) })
	if cfg.cluster {
		if err := s.claimAllSlots(); err != nil {
			t.Fatalf("redistest: make a one-node cluster: %v", err)
		}
	}
	return s
}

// StartSentinel starts a Sentinel that watches master under name, for tests
// of the Sentinel client. It is stopped when the test ends.
func StartSentinel(t testing.TB, master *Server, name string) *Server {
	t.Helper()
	dir := t.TempDir()
	host, port, _ := net.SplitHostPort(master.Addr())
	conf := filepath.Join(dir, "sentinel.conf")
	// Sentinel rewrites its config file, so it must be its own and writable.
	text := fmt.Sprintf("bind 127.0.0.1\ndir %s\nsentinel monitor %s %s %s 1\n", dir, name, host, port)
	if err := os.WriteFile(conf, []byte(text), 0o600); err != nil {
		t.Fatalf("redistest: %v", err)
	}
	return launch(t, func(port int) []string {
		return []string{conf, "--sentinel", "--port", strconv.Itoa(port)}
	})
}

// launch starts redis-server with the arguments for a free port; a free
// port can be taken between asking and binding, so it tries a few.
func launch(t testing.TB, args func(port int) []string) *Server {
	t.Helper()
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		t.Fatalf("redistest: %s (%v)", InstallHint, err)
	}
	var lastErr error
	for range 5 {
		port, err := freePort()
		if err != nil {
			t.Fatalf("redistest: %v", err)
		}
		s := &Server{bin: bin, args: args(port), addr: net.JoinHostPort("127.0.0.1", strconv.Itoa(port))}
		if lastErr = s.start(); lastErr == nil {
			t.Cleanup(s.kill)
			return s
		}
	}
	t.Fatalf("redistest: start redis-server: %v", lastErr)
	return nil
}

// Addr is host:port.
func (s *Server) Addr() string { return s.addr }

// URL is redis://host:port/0 (a Cluster or a Sentinel has no databases, but
// the URL still names the node).
func (s *Server) URL() string { return "redis://" + s.addr + "/0" }

// PID is the server process's id (for load tests that measure its CPU).
func (s *Server) PID() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.cmd.Process.Pid
}

// Stop kills the server at once, as a crash or a lost host would.
func (s *Server) Stop(t testing.TB) {
	t.Helper()
	s.kill()
}

// Restart starts the server again on the same port with the same data
// directory, and waits until it answers.
func (s *Server) Restart(t testing.TB) {
	t.Helper()
	s.kill()
	if err := s.start(); err != nil {
		t.Fatalf("redistest: restart redis-server on %s: %v", s.addr, err)
	}
}

func (s *Server) start() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := &testkit.Buffer{}
	cmd := exec.Command(s.bin, s.args...)
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		return err
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()

	deadline := time.Now().Add(startTimeout)
	for {
		if pid, ok := answers(s.addr); ok {
			if pid != cmd.Process.Pid {
				// Our server could not bind; another test's took the port.
				cmd.Process.Kill()
				<-exited
				return fmt.Errorf("port of %s taken by another redis-server (pid %d)", s.addr, pid)
			}
			s.cmd, s.exited = cmd, exited
			return nil
		}
		select {
		case <-exited:
			return fmt.Errorf("redis-server exited at start: %s", lastLines(out.String()))
		case <-time.After(5 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			<-exited
			return fmt.Errorf("redis-server did not answer PING within %v: %s", startTimeout, lastLines(out.String()))
		}
	}
}

func (s *Server) kill() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cmd == nil {
		return
	}
	s.cmd.Process.Kill()
	<-s.exited // the listening socket is closed once the process is gone
	s.cmd = nil
}

func ping(addr string) bool {
	_, ok := answers(addr)
	return ok
}

// answers speaks just enough RESP to see a ready server (a loading one
// answers -LOADING, not +PONG) and to learn its process id, so that a
// server is known to be the one just started and not another test's that
// grabbed the same port.
func answers(addr string) (pid int, ok bool) {
	c, err := net.DialTimeout("tcp", addr, 200*time.Millisecond)
	if err != nil {
		return 0, false
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(500 * time.Millisecond))
	if _, err := c.Write([]byte("PING\r\nINFO server\r\n")); err != nil {
		return 0, false
	}
	r := bufio.NewReader(c)
	if line, err := r.ReadString('\n'); err != nil || !strings.HasPrefix(line, "+PONG") {
		return 0, false
	}
	head, err := r.ReadString('\n') // $<length> of the INFO text
	if err != nil || !strings.HasPrefix(head, "$") {
		return 0, false
	}
	n, err := strconv.Atoi(strings.TrimSpace(head[1:]))
	if err != nil || n < 0 {
		return 0, false
	}
	info := make([]byte, n)
	if _, err := io.ReadFull(r, info); err != nil {
		return 0, false
	}
	for line := range strings.Lines(string(info)) {
		if v, found := strings.CutPrefix(line, "process_id:"); found {
			pid, err := strconv.Atoi(strings.TrimSpace(v))
			return pid, err == nil
		}
	}
	return 0, false
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("find a free port: %w", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

func lastLines(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > 5 {
		lines = lines[len(lines)-5:]
	}
	return strings.Join(lines, " | ")
}
