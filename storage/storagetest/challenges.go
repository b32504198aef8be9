package storagetest

import (
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/bashni/bashni/storage"
)

// challengeLife is how long the short-lived challenges of the expiry tests
// live by the store's clock, which the tests move past it.
const challengeLife = 10 * time.Minute

func challenge(id string, expires time.Time) *storage.Challenge {
	return &storage.Challenge{
		ID:          id,
		ChatID:      -100,
		MessageID:   5,
		From:        storage.Player{UserID: 1, Name: "Ann"},
		Variant:     "bashni",
		FromColor:   "random",
		DaysPerMove: 2, // a correspondence pace, kept
		CreatedAt:   base,
		ExpiresAt:   expires,
	}
}

// later is an expiry no test outlives, as a UTC time without monotonic
// reading so that round-trips compare equal. Its year is far ahead, so it
// stays in the future of any clock a test starts at the real present.
func later() time.Time { return time.Now().UTC().Round(0).AddDate(100, 0, 0) }

func testChallenges(t *testing.T, newClockedStore clockedStore) {
	newStore := func(t *testing.T) storage.Store {
		s, _ := newClockedStore(t)
		return s
	}
	t.Run("RoundTrip", func(t *testing.T) {
		s := newStore(t)
		direct := challenge("direct", later())
		direct.To = &storage.Player{UserID: 2, Name: "Bob"}
		named := challenge("named", later())
		named.ToName = "bob"
		ai := challenge("ai", later())
		ai.AILevel, ai.FromColor = 4, "white"
		inline := challenge("inline", later())
		inline.ChatID, inline.MessageID, inline.InlineMessageID = 0, 0, "AQAAAGk"
		forever := challenge("forever", time.Time{})

		for _, c := range []*storage.Challenge{challenge("open", later()), direct, named, ai, inline, forever} {
			t.Run(c.ID, func(t *testing.T) {
				if err := s.PutChallenge(ctxFor(t), c); err != nil {
					t.Fatalf("PutChallenge: %v", err)
				}
				got, err := s.Challenge(ctxFor(t), c.ID)
				checkErr(t, "Challenge", err, nil)
				checkDeep(t, "stored challenge", got, c)
			})
		}
	})

	t.Run("Replace", func(t *testing.T) {
		s := newStore(t)
		c := challenge("c", later())
		checkErr(t, "PutChallenge", s.PutChallenge(ctxFor(t), c), nil)
		c.MessageID = 6
		checkErr(t, "PutChallenge again", s.PutChallenge(ctxFor(t), c), nil)
		got, err := s.Challenge(ctxFor(t), "c")
		checkErr(t, "Challenge", err, nil)
		checkDeep(t, "replaced challenge", got, c)
	})

	t.Run("Gone", func(t *testing.T) {
		tests := []struct {
			name   string
			remove func(t *testing.T, s storage.Store)
		}{
			{"never stored", func(t *testing.T, s storage.Store) {}},
			{"deleted", func(t *testing.T, s storage.Store) {
				checkErr(t, "DeleteChallenge", s.DeleteChallenge(ctxFor(t), "c"), nil)
				checkErr(t, "DeleteChallenge again", s.DeleteChallenge(ctxFor(t), "c"), nil)
			}},
			{"taken", func(t *testing.T, s storage.Store) {
				got, err := s.TakeChallenge(ctxFor(t), "c")
				checkErr(t, "TakeChallenge", err, nil)
				if got == nil || got.ID != "c" {
					t.Fatalf("TakeChallenge: got %+v, want challenge c", got)
				}
			}},
			{"expired", func(t *testing.T, s storage.Store) {}}, // the clock moves on
		}
		for _, tc := range tests {
			t.Run(tc.name, func(t *testing.T) {
				t.Parallel()
				s, clock := newClockedStore(t)
				if tc.name != "never stored" {
					c := challenge("c", clock.Now().Add(challengeLife))
					checkErr(t, "PutChallenge", s.PutChallenge(ctxFor(t), c), nil)
				}
				tc.remove(t, s)
				if tc.name == "expired" {
					clock.Advance(challengeLife)
				}
				_, err := s.Challenge(ctxFor(t), "c")
				checkErr(t, "Challenge", err, storage.ErrNotFound)
				_, err = s.TakeChallenge(ctxFor(t), "c")
				checkErr(t, "TakeChallenge", err, storage.ErrNotFound)
			})
		}
	})

	t.Run("AlreadyExpired", func(t *testing.T) {
		s, clock := newClockedStore(t)
		c := challenge("old", clock.Now().Add(-time.Second))
		checkErr(t, "PutChallenge", s.PutChallenge(ctxFor(t), c), nil)
		_, err := s.Challenge(ctxFor(t), "old")
		checkErr(t, "Challenge", err, storage.ErrNotFound)
	})

	t.Run("ExpiryKeepsOthers", func(t *testing.T) {
		t.Parallel()
		s, clock := newClockedStore(t)
		checkErr(t, "PutChallenge(short)", s.PutChallenge(ctxFor(t), challenge("short", clock.Now().Add(challengeLife))), nil)
		long := challenge("long", later())
		checkErr(t, "PutChallenge(long)", s.PutChallenge(ctxFor(t), long), nil)
		clock.Advance(challengeLife)
		// A write after the expiry gives lazy sweepers their chance.
		checkErr(t, "PutChallenge(new)", s.PutChallenge(ctxFor(t), challenge("new", later())), nil)
		_, err := s.Challenge(ctxFor(t), "short")
		checkErr(t, "Challenge(short)", err, storage.ErrNotFound)
		got, err := s.TakeChallenge(ctxFor(t), "long")
		checkErr(t, "TakeChallenge(long)", err, nil)
		checkDeep(t, "long-lived challenge", got, long)
	})

	t.Run("ConcurrentTake", func(t *testing.T) {
		s := newStore(t)
		c := challenge("hot", later())
		checkErr(t, "PutChallenge", s.PutChallenge(ctxFor(t), c), nil)
		const takers = 20
		var (
			wg       sync.WaitGroup
			mu       sync.Mutex
			won      int
			notFound int
			other    []error
		)
		start := make(chan struct{})
		for range takers {
			wg.Go(func() {
				<-start
				got, err := s.TakeChallenge(ctxFor(t), "hot")
				mu.Lock()
				defer mu.Unlock()
				switch {
				case err == nil && got != nil && got.ID == "hot":
					won++
				case errors.Is(err, storage.ErrNotFound):
					notFound++
				default:
					other = append(other, err)
				}
			})
		}
		close(start)
		wg.Wait()
		if won != 1 || notFound != takers-1 || len(other) > 0 {
			t.Errorf("%d takers: got %d winners, %d not found, other errors %v; want 1, %d, none",
				takers, won, notFound, other, takers-1)
		}
	})
}
