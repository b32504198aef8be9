package redistest

import (
	"context"
	"crypto/rand"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// DB is a Redis that belongs to one test: a URL and a key prefix under
// which the test keeps all its keys.
type DB struct {
	URL    string
	Prefix string  // "test-<random>:"; pass it to the store's key prefix option
	Server *Server // the throwaway server, nil when REDIS_URL is used
}

// New returns REDIS_URL with a fresh prefix, or else a throwaway server.
func New(t testing.TB) *DB {
	t.Helper()
	if url := os.Getenv("REDIS_URL"); url != "" {
		return shared(t, url)
	}
	return Start(t).DB(t)
}

// Fresh returns another DB on the same server with a new prefix, so that
// subtests can share one server and still start empty.
func (d *DB) Fresh(t testing.TB) *DB {
	t.Helper()
	if d.Server == nil {
		return shared(t, d.URL)
	}
	return d.Server.DB(t)
}

// Client returns a client with the store's production timeouts (dial 2s,
// read and write 1s, one retry), closed when the test ends.
func (d *DB) Client(t testing.TB) *redis.Client {
	t.Helper()
	c, err := newClient(d.URL)
	if err != nil {
		t.Fatalf("redistest: %v", err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func newClient(url string) (*redis.Client, error) {
	opts, err := redis.ParseURL(url)
	if err != nil {
		return nil, fmt.Errorf("parse %q: %w", url, err)
	}
	opts.DialTimeout = 2 * time.Second
	opts.ReadTimeout = time.Second
	opts.WriteTimeout = time.Second
	opts.MaxRetries = 1
	opts.DialerRetries = 1
	return redis.NewClient(opts), nil
}

// shared hands out a prefix on a server the test does not own and deletes
// the prefix's keys afterwards, leaving everything else alone.
func shared(t testing.TB, url string) *DB {
	t.Helper()
	d := &DB{URL: url, Prefix: newPrefix()}
	c, err := newClient(url)
	if err != nil {
		t.Fatalf("redistest: REDIS_URL: %v", err)
	}
	if err := c.Ping(context.Background()).Err(); err != nil {
		c.Close()
		t.Fatalf("redistest: REDIS_URL %s does not answer: %v", url, err)
	}
	t.Cleanup(func() {
		defer c.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		iter := c.Scan(ctx, 0, d.Prefix+"*", 1000).Iterator()
		var keys []string
		for iter.Next(ctx) {
			keys = append(keys, iter.Val())
		}
		if err := iter.Err(); err != nil {
			t.Logf("redistest: clean up %s*: %v", d.Prefix, err)
			return
		}
		for len(keys) > 0 {
			n := min(len(keys), 500)
			if err := c.Unlink(ctx, keys[:n]...).Err(); err != nil {
				t.Logf("redistest: clean up %s*: %v", d.Prefix, err)
				return
			}
			keys = keys[n:]
		}
	})
	return d
}

// newPrefix is random so that parallel tests, and reruns against a shared
// server, never see each other's keys.
func newPrefix() string { return "test-" + rand.Text()[:12] + ":" }

// DB returns a DB on this server with a fresh prefix.
func (s *Server) DB(t testing.TB) *DB {
	t.Helper()
	return &DB{URL: s.URL(), Prefix: newPrefix(), Server: s}
}
