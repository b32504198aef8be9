package play

import (
	"context"
	"errors"
	"math"
	"sync"
	"testing"
	"time"

	"github.com/bashni/bashni/rating"
	"github.com/bashni/bashni/storage"
)

// killedAfter is the store of a process killed after its first n writes
// (game, user and leaderboard writes): every later one fails.
type killedAfter struct {
	Store
	mu sync.Mutex
	n  int
}

func (k *killedAfter) write() error {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.n <= 0 {
		return errors.New("killed")
	}
	k.n--
	return nil
}

func (k *killedAfter) UpdateGame(ctx context.Context, g *storage.GameRecord) error {
	if err := k.write(); err != nil {
		return err
	}
	return k.Store.UpdateGame(ctx, g)
}

func (k *killedAfter) PutUser(ctx context.Context, u *storage.User) error {
	if err := k.write(); err != nil {
		return err
	}
	return k.Store.PutUser(ctx, u)
}

func (k *killedAfter) SetStanding(ctx context.Context, scope int64, st *storage.Standing) error {
	if err := k.write(); err != nil {
		return err
	}
	return k.Store.SetStanding(ctx, scope, st)
}

// resignKilled is Bob resigning game g (a rated game in group -100) on a
// process killed after its first n writes, the first being the game's end.
func resignKilled(t *testing.T, st Store, clock func() time.Time, g *Game, n int) {
	t.Helper()
	openBoth(t, New(st, nil, DefaultConfig, clock), g)
	dead := New(&killedAfter{Store: st, n: n}, nil, DefaultConfig, clock)
	if _, err := dead.Resign(WithReceipt(context.Background(), 301), g.ID(), bob.UserID); err != nil {
		t.Fatalf("the killed process's resignation: %v", err)
	}
	if rec, err := st.Game(context.Background(), g.ID()); err != nil || rec.Active() {
		t.Fatalf("the game after the killed resignation: %+v, %v; want it over", rec, err)
	}
}

// checkCountedOnce checks that Alice's win over Bob is counted exactly once
// in their records, the global leaderboard and the group's.
func checkCountedOnce(t *testing.T, st Store) {
	t.Helper()
	ctx := context.Background()
	wantA, wantB := rating.Game(rating.New(StartRating), rating.New(StartRating), 1)
	for _, x := range []struct {
		id     int64
		rating float64
		wins   int
	}{{alice.UserID, wantA.R, 1}, {bob.UserID, wantB.R, 0}} {
		u, err := st.User(ctx, x.id)
		if err != nil {
			t.Fatalf("user %d: %v; want the game counted", x.id, err)
		}
		if u.Stats.Games != 1 || u.Stats.Wins != x.wins || !near(u.Rating, x.rating) {
			t.Errorf("user %d: %+v, rating %v; want one game, %d won, rating %v", x.id, u.Stats, u.Rating, x.wins, x.rating)
		}
		for _, scope := range []int64{0, -100} {
			line, err := st.Standing(ctx, scope, x.id)
			if err != nil || line.Games != 1 || !near(line.Rating, x.rating) {
				t.Errorf("user %d's line in %d: %+v, %v; want one game at %v", x.id, scope, line, err, x.rating)
			}
		}
	}
}

// A crash right after the write that ended a rated game, before the
// ratings: the count is owed by that write, so once its lease has run out
// the clock's tick of another process makes it, once; later ticks leave
// it alone.
func TestCountKilledAfterTheEndTheTickMakesIt(t *testing.T) {
	s, clock, st := newTestService(t)
	ctx := context.Background()
	g := startGame(t, s)
	resignKilled(t, st, clock.Now, g, 1)
	if _, err := st.User(ctx, alice.UserID); !isNotFound(err) {
		t.Fatalf("Alice's record after the killed end: %v; want none yet", err)
	}

	if _, err := s.Tick(ctx, 100); err != nil {
		t.Fatal(err)
	}
	if _, err := st.User(ctx, alice.UserID); !isNotFound(err) {
		t.Fatalf("a tick within the writer's lease counted the game: %v", err)
	}
	clock.Advance(10 * time.Second)
	if _, err := s.Tick(ctx, 100); err != nil {
		t.Fatal(err)
	}
	checkCountedOnce(t, st)
	rec, err := st.Game(ctx, g.ID())
	if err != nil || !rec.RateAt.IsZero() || rec.RateDue != nil {
		t.Fatalf("the game once counted: %+v, %v; want nothing owed", rec, err)
	}
	clock.Advance(time.Minute)
	if _, err := s.Tick(ctx, 100); err != nil {
		t.Fatal(err)
	}
	checkCountedOnce(t, st)
}

// A crash after any of the count's writes: the next try writes only what
// is missing, and nobody's game, rating or line counts twice.
func TestCountKilledMidwayIsMadeOnce(t *testing.T) {
	// The writes: the game's end, its reckoning, then for each player
	// the record, the global line and the group's, then the game again.
	for n := 2; n <= 9; n++ {
		s, clock, st := newTestService(t)
		g := startGame(t, s)
		resignKilled(t, st, clock.Now, g, n)
		clock.Advance(10 * time.Second)
		if _, err := s.Tick(context.Background(), 100); err != nil {
			t.Fatal(err)
		}
		t.Logf("killed after %d writes", n)
		checkCountedOnce(t, st)
	}
}

// Two replicas that both try to count a game (a slow writer and a tick, or
// two ticks) count it once.
func TestCountByTwoReplicasIsMadeOnce(t *testing.T) {
	s, clock, st := newTestService(t)
	g := startGame(t, s)
	resignKilled(t, st, clock.Now, g, 1)
	clock.Advance(10 * time.Second)
	other := New(st, nil, DefaultConfig, clock.Now)
	var wg sync.WaitGroup
	for _, r := range []*Service{s, other} {
		wg.Go(func() {
			if _, err := r.Tick(context.Background(), 100); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	s.count(context.Background(), g.ID()) // the writer, late
	checkCountedOnce(t, st)
}

// near says two ratings are the same but for the last bits of float
// arithmetic: a count adds a change to what is stored.
func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }
