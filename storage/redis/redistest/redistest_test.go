package redistest

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/redis/go-redis/v9"
)

func TestStopRestart(t *testing.T) {
	tests := []struct {
		name     string
		opts     []Option
		wantKept bool
	}{
		{"throwaway loses data", nil, false},
		{"persistent keeps data", []Option{Persistent()}, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv := Start(t, tc.opts...)
			db := srv.DB(t)
			c := db.Client(t)
			ctx := t.Context()
			if err := c.Set(ctx, db.Prefix+"k", "v", 0).Err(); err != nil {
				t.Fatalf("SET: %v", err)
			}
			addr := srv.Addr()

			srv.Stop(t)
			if ping(addr) {
				t.Fatal("server answers PING after Stop")
			}
			srv.Restart(t)
			if srv.Addr() != addr || !ping(addr) {
				t.Fatalf("after Restart: got %s answering=%v, want %s answering", srv.Addr(), ping(addr), addr)
			}
			var got string
			var err error
			// The server answers (ping above); the client's pooled
			// connections died with the old one, and each failed call
			// throws one away, so a few tries with no pause reach a new one.
			for range 64 {
				if got, err = c.Get(ctx, db.Prefix+"k").Result(); err == nil || errors.Is(err, redis.Nil) {
					break
				}
			}
			if kept := got == "v"; kept != tc.wantKept {
				t.Errorf("key after Restart: got %q (%v), want kept=%v", got, err, tc.wantKept)
			}
		})
	}
}

// With REDIS_URL the test gets a prefix on that server, and only keys under
// it are removed afterwards.
func TestSharedServerCleansOnlyItsPrefix(t *testing.T) {
	srv := Start(t)
	outsider := srv.DB(t).Client(t)
	ctx := context.Background()
	if err := outsider.Set(ctx, "someone-else", "x", 0).Err(); err != nil {
		t.Fatal(err)
	}

	var prefix string
	t.Run("user", func(t *testing.T) {
		t.Setenv("REDIS_URL", srv.URL())
		db := New(t)
		if db.Server != nil {
			t.Errorf("with REDIS_URL: got a server of our own, want the shared one")
		}
		prefix = db.Prefix
		c := db.Client(t)
		for i := range 3 {
			if err := c.Set(ctx, fmt.Sprintf("%sk%d", db.Prefix, i), "v", 0).Err(); err != nil {
				t.Fatal(err)
			}
		}
	})

	left, err := outsider.Keys(ctx, "*").Result()
	if err != nil {
		t.Fatal(err)
	}
	if len(left) != 1 || left[0] != "someone-else" {
		t.Errorf("keys after the test on %s*: got %q, want only [someone-else]", prefix, left)
	}
}

// Without redis-server the test must fail and say how to get it, never skip.
func TestMissingServerFailsWithHint(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	t.Setenv("REDIS_URL", "")
	rec := &fatalRecorder{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		New(rec)
	}()
	<-done
	if !strings.Contains(rec.msg, "apt-get install redis-server") || !strings.Contains(rec.msg, "REDIS_URL") {
		t.Errorf("failure message: got %q, want install instructions and REDIS_URL", rec.msg)
	}
}

// fatalRecorder stands in for t where a Fatalf is the expected outcome.
type fatalRecorder struct {
	testing.TB
	msg string
}

func (f *fatalRecorder) Helper() {}

func (f *fatalRecorder) Fatalf(format string, args ...any) {
	f.msg = fmt.Sprintf(format, args...)
	runtime.Goexit()
}
