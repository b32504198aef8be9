package redis_test

import (
	"context"
	"errors"
	"net"
	"testing"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/bashni/bashni/storage"
	"github.com/bashni/bashni/storage/redis"
	"github.com/bashni/bashni/storage/redis/redistest"
	"github.com/bashni/bashni/storage/storagetest"
)

// How fast a call to a dead or stalled server fails (the bot must answer
// "try again shortly" while the user still looks at the chat) is measured
// by BenchmarkCallWithServerDown, not asserted here.

// calls exercises one of each kind of call against a store.
var calls = []struct {
	name string
	call func(ctx context.Context, s storage.Store) error
}{
	{"Ping", func(ctx context.Context, s storage.Store) error { return s.Ping(ctx) }},
	{"Game", func(ctx context.Context, s storage.Store) error { _, err := s.Game(ctx, "durable"); return err }},
	{"UpdateGame", func(ctx context.Context, s storage.Store) error {
		return s.UpdateGame(ctx, &storage.GameRecord{ID: "durable", Version: 2})
	}},
	{"CreateGame", func(ctx context.Context, s storage.Store) error {
		return s.CreateGame(ctx, &storage.GameRecord{ID: "new", ChatID: 5})
	}},
	{"ActiveGamesByChat", func(ctx context.Context, s storage.Store) error {
		_, err := s.ActiveGamesByChat(ctx, -100)
		return err
	}},
	{"DueGames", func(ctx context.Context, s storage.Store) error {
		_, err := s.DueGames(ctx, time.Now(), 10)
		return err
	}},
	{"TakeChallenge", func(ctx context.Context, s storage.Store) error {
		_, err := s.TakeChallenge(ctx, "durable")
		return err
	}},
	{"PutUser", func(ctx context.Context, s storage.Store) error { return s.PutUser(ctx, &storage.User{ID: 5}) }},
	{"Top", func(ctx context.Context, s storage.Store) error { _, err := s.Top(ctx, -100, 3); return err }},
	{"MarkUpdate", func(ctx context.Context, s storage.Store) error {
		_, err := s.MarkUpdate(ctx, 5, time.Minute)
		return err
	}},
}

// A dead server: every call fails fast with ErrUnavailable. Back on the same
// port with its append-only file: everything is there, the same store
// reconnects by itself, and new writes work.
func TestServerDownAndBack(t *testing.T) {
	t.Parallel()
	srv := redistest.Start(t, redistest.Persistent())
	s, err := redis.Open(t.Context(), srv.URL(), time.Now, redis.WithPrefix("fault:"))
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	check := storagetest.Fill(t, s)

	srv.Stop(t)
	for _, c := range calls {
		t.Run("down/"+c.name, func(t *testing.T) {
			err := c.call(t.Context(), s)
			if !errors.Is(err, storage.ErrUnavailable) {
				t.Errorf("%s with the server down: got error %v, want storage.ErrUnavailable", c.name, err)
			}
		})
	}

	srv.Restart(t)
	waitUp(t, s)
	check(t, s)
	storagetest.AppendMove(t, s, "durable", "e3-f4")
	if g, err := s.Game(t.Context(), "durable"); err != nil || len(g.Moves) != 3 {
		t.Errorf("after a new move: got %v, %v; want 3 moves", g, err)
	}
}

// waitUp checks that the store answers again once the server is back (the
// caller has waited for that). The pool may still hold connections that
// died with the old server: each failed Ping throws one away, so a few
// tries, with no pause, reach a fresh connection.
func waitUp(t *testing.T, s storage.Store) {
	t.Helper()
	var err error
	for range 64 {
		if err = s.Ping(t.Context()); err == nil {
			return
		}
	}
	t.Fatalf("store did not reconnect: %v", err)
}

func TestOpenDeadServer(t *testing.T) {
	t.Parallel()
	srv := redistest.Start(t)
	url := srv.URL()
	srv.Stop(t)
	s, err := redis.Open(t.Context(), url, time.Now)
	if err == nil {
		s.Close()
		t.Fatal("Open of a dead server: got no error, want one")
	}
	if !errors.Is(err, storage.ErrUnavailable) {
		t.Errorf("Open of a dead server: got %v, want storage.ErrUnavailable", err)
	}
}

// A server that stalls longer than the read timeout: calls fail with
// ErrUnavailable in bounded time, and a compare-and-set whose first attempt
// timed out but ran later, and which go-redis resent, is applied once and
// reported as done, not as a conflict.
func TestSlowServer(t *testing.T) {
	t.Parallel()
	db := redistest.Start(t).DB(t) // its own server: stalling a shared one would stall others
	s := newStore(t, db)
	ctx := t.Context()
	g := &storage.GameRecord{ID: "slow", ChatID: 1, Status: storage.GameActive}
	if err := s.CreateGame(ctx, g); err != nil {
		t.Fatalf("CreateGame: %v", err)
	}
	admin := db.Client(t)

	t.Run("stalled longer than all retries", func(t *testing.T) {
		if err := admin.Do(ctx, "CLIENT", "PAUSE", 2500, "ALL").Err(); err != nil {
			t.Fatalf("CLIENT PAUSE: %v", err)
		}
		_, err := s.Game(ctx, "slow")
		if !errors.Is(err, storage.ErrUnavailable) {
			t.Errorf("Game on a stalled server: got %v, want storage.ErrUnavailable", err)
		}
		// The pause ends by itself; a PING from the admin connection waits
		// behind it, so once it answers the server is free again.
		if err := admin.Ping(ctx).Err(); err != nil {
			t.Fatalf("admin PING after the pause: %v", err)
		}
		waitUp(t, s)
	})

	t.Run("resent write applied once", func(t *testing.T) {
		// A finished game has no hints to write first, so the script is the
		// first command. A busy script holds the server for 1.5s: the
		// update's first attempt sits in the socket until the 1s read
		// timeout, go-redis gives up on that connection and resends on a new
		// one. When the server wakes it still runs the first attempt (read
		// before the close), then the resend, which must recognise its own
		// token rather than report a conflict.
		g, err := s.Game(ctx, "slow")
		if err != nil {
			t.Fatalf("Game: %v", err)
		}
		g.Status, g.Result = storage.GameFinished, "1-0"
		if err := s.UpdateGame(ctx, g); err != nil {
			t.Fatalf("UpdateGame finishing: %v", err)
		}
		busy := stall(t, db, 1500*time.Millisecond)
		g.MessageID = 42
		start := time.Now()
		err = s.UpdateGame(ctx, g)
		took := time.Since(start)
		if err := <-busy; err != nil {
			t.Fatalf("stall: %v", err)
		}
		if err != nil {
			t.Fatalf("UpdateGame across a stall: got %v, want success", err)
		}
		// A floor, checking the test itself: a busy machine only widens it.
		if took < time.Second {
			t.Errorf("UpdateGame took %v: the stall did not hit it, so the resend was not tested", took)
		}
		got, err := s.Game(ctx, "slow")
		if err != nil {
			t.Fatalf("Game: %v", err)
		}
		if got.Version != 3 || g.Version != 3 || got.MessageID != 42 {
			t.Errorf("after the stall: stored version %d, message %d, record version %d; want 3, 42, 3",
				got.Version, got.MessageID, g.Version)
		}
	})
}

// stall keeps the server busy in a script for d, as a server stuck on a
// slow disk or a huge command would be, and returns once the script has
// been written to the server's socket, so that what the caller sends next
// queues behind it.
func stall(t *testing.T, db *redistest.DB, d time.Duration) <-chan error {
	t.Helper()
	opts, err := goredis.ParseURL(db.URL)
	if err != nil {
		t.Fatal(err)
	}
	opts.ReadTimeout, opts.MaxRetries, opts.PoolSize = d+5*time.Second, -1, 1
	wrote := make(chan struct{}, 8)
	opts.Dialer = func(ctx context.Context, network, addr string) (net.Conn, error) {
		conn, err := (&net.Dialer{}).DialContext(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		return notifyingConn{conn, wrote}, nil
	}
	c := goredis.NewClient(opts)
	t.Cleanup(func() { c.Close() })
	if err := c.Ping(t.Context()).Err(); err != nil {
		t.Fatal(err)
	}
	for len(wrote) > 0 { // forget the handshake's and the PING's writes
		<-wrote
	}
	done := make(chan error, 1)
	go func() {
		done <- c.Eval(context.Background(), `
local t = redis.call('TIME')
local stop = t[1] * 1000000 + t[2] + tonumber(ARGV[1])
repeat t = redis.call('TIME') until t[1] * 1000000 + t[2] >= stop
return 1`, nil, d.Microseconds()).Err()
	}()
	<-wrote
	return done
}

// notifyingConn tells wrote after each write has reached the socket.
type notifyingConn struct {
	net.Conn
	wrote chan<- struct{}
}

func (c notifyingConn) Write(p []byte) (int, error) {
	n, err := c.Conn.Write(p)
	select {
	case c.wrote <- struct{}{}:
	default:
	}
	return n, err
}

// BenchmarkCallWithServerDown reports how long a call to a dead server
// takes to fail (ms/op): the bot answers "try again shortly" after it.
func BenchmarkCallWithServerDown(b *testing.B) {
	srv := redistest.Start(b)
	s, err := redis.Open(b.Context(), srv.URL(), time.Now)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	srv.Stop(b)
	b.ResetTimer()
	for b.Loop() {
		if _, err := s.Game(b.Context(), "any"); !errors.Is(err, storage.ErrUnavailable) {
			b.Fatalf("got %v, want ErrUnavailable", err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/call")
}
