package storagetest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/bashni/bashni/storage"
)

func user(id int64, username string) *storage.User {
	return &storage.User{ID: id, Name: "User " + username, Username: username, Lang: "en", Rating: 1500}
}

func testUsers(t *testing.T, newStore func(t *testing.T) storage.Store) {
	t.Run("RoundTrip", func(t *testing.T) {
		s := newStore(t)
		full := &storage.User{
			ID: 42, Name: "Анна", Username: "Anna_K", Lang: "ru", CanDM: true, Blocked: true,
			Theme: "wood", Flip: true, Notify: true, Rating: 1612.5, RD: 87.25, Vol: 0.0612,
			Stats:     storage.Stats{Games: 10, Wins: 6, Draws: 1, Losses: 3, Streak: -2},
			UpdatedAt: base,
			Slow:      storage.SlowPlay{AwayUntil: at(7 * 24 * 60), AwayBy: "-100.7", Year: 2026, Used: 72 * time.Hour, Confirm: "on"},
		}
		for _, u := range []*storage.User{full, {ID: 7}, user(-5, "neg")} {
			checkErr(t, "PutUser", s.PutUser(ctxFor(t), u), nil)
			got, err := s.User(ctxFor(t), u.ID)
			checkErr(t, "User", err, nil)
			checkDeep(t, "stored user", got, u)
		}
		_, err := s.User(ctxFor(t), 999)
		checkErr(t, "User(999)", err, storage.ErrNotFound)
	})

	t.Run("Upsert", func(t *testing.T) {
		s := newStore(t)
		u := user(1, "ann")
		checkErr(t, "PutUser", s.PutUser(ctxFor(t), u), nil)
		u.Rating, u.Stats.Games, u.CanDM = 1520, 1, true
		checkErr(t, "PutUser again", s.PutUser(ctxFor(t), u), nil)
		got, err := s.User(ctxFor(t), 1)
		checkErr(t, "User", err, nil)
		checkDeep(t, "replaced user", got, u)
	})

	t.Run("ByUsername", func(t *testing.T) {
		s := newStore(t)
		for _, u := range []*storage.User{user(1, "Alice"), user(2, "bob_99"), user(3, "")} {
			checkErr(t, "PutUser", s.PutUser(ctxFor(t), u), nil)
		}
		tests := []struct {
			query  string
			wantID int64 // 0: not found
		}{
			{"Alice", 1},
			{"alice", 1},
			{"ALICE", 1},
			{"@alice", 1},
			{"Bob_99", 2},
			{"bob", 0},
			{"", 0},
			{"@", 0},
			{"carol", 0},
		}
		for _, tc := range tests {
			t.Run(tc.query, func(t *testing.T) {
				got, err := s.UserByUsername(ctxFor(t), tc.query)
				if tc.wantID == 0 {
					checkErr(t, "UserByUsername", err, storage.ErrNotFound)
					return
				}
				checkErr(t, "UserByUsername", err, nil)
				if got.ID != tc.wantID {
					t.Errorf("UserByUsername(%q): got user %d, want %d", tc.query, got.ID, tc.wantID)
				}
			})
		}
	})

	t.Run("Renames", func(t *testing.T) {
		s := newStore(t)
		steps := []struct {
			name  string
			put   *storage.User
			query map[string]int64 // username -> wanted id, 0 = not found
		}{
			{"first name", user(1, "old"), map[string]int64{"old": 1}},
			{"renamed", user(1, "New"), map[string]int64{"old": 0, "new": 1}},
			{"old name taken by another", user(2, "OLD"), map[string]int64{"old": 2, "new": 1}},
			{"name dropped", user(1, ""), map[string]int64{"old": 2, "new": 0}},
			{"name moved to another", user(3, "old"), map[string]int64{"old": 3}},
		}
		for _, st := range steps {
			if stored, err := s.User(ctxFor(t), st.put.ID); err == nil {
				st.put.Version = stored.Version
			}
			checkErr(t, st.name+": PutUser", s.PutUser(ctxFor(t), st.put), nil)
			for q, want := range st.query {
				got, err := s.UserByUsername(ctxFor(t), q)
				if want == 0 {
					checkErr(t, st.name+": UserByUsername("+q+")", err, storage.ErrNotFound)
					continue
				}
				checkErr(t, st.name+": UserByUsername("+q+")", err, nil)
				if got.ID != want {
					t.Errorf("%s: UserByUsername(%q): got user %d, want %d", st.name, q, got.ID, want)
				}
			}
		}
	})
}

// testUserVersions: PutUser is a compare-and-set on the user's version.
func testUserVersions(t *testing.T, newStore func(t *testing.T) storage.Store) {
	t.Run("Versions", func(t *testing.T) {
		s := newStore(t)
		u := user(1, "ann")
		checkErr(t, "PutUser new", s.PutUser(ctxFor(t), u), nil)
		if u.Version != 1 {
			t.Errorf("version after the first write: got %d, want 1", u.Version)
		}
		got, err := s.User(ctxFor(t), 1)
		checkErr(t, "User", err, nil)
		checkDeep(t, "stored user", got, u)
		u.Stats.Games = 1
		checkErr(t, "PutUser from version 1", s.PutUser(ctxFor(t), u), nil)
		if u.Version != 2 {
			t.Errorf("version after the second write: got %d, want 2", u.Version)
		}
	})

	t.Run("StaleRefused", func(t *testing.T) {
		s := newStore(t)
		u := user(1, "ann")
		checkErr(t, "PutUser", s.PutUser(ctxFor(t), u), nil)
		stale := *u
		u.Rating, u.Stats.Games = 1520, 1
		checkErr(t, "PutUser from version 1", s.PutUser(ctxFor(t), u), nil)
		want := *u

		for _, r := range refusedVersions(stale.Version, u.Version, "user") {
			w := stale
			w.Version, w.Username, w.Lang, w.Stats.Games = r.version, "renamed", "ru", 7
			checkErr(t, "PutUser from "+r.name, s.PutUser(ctxFor(t), &w), storage.ErrConflict)
			if w.Version != r.version {
				t.Errorf("PutUser from %s moved the caller's version to %d", r.name, w.Version)
			}
			got, err := s.User(ctxFor(t), 1)
			checkErr(t, "User", err, nil)
			checkDeep(t, "user after PutUser from "+r.name, got, &want)
			_, err = s.UserByUsername(ctxFor(t), "renamed")
			checkErr(t, "UserByUsername of the refused name", err, storage.ErrNotFound)
			got, err = s.UserByUsername(ctxFor(t), "ann")
			checkErr(t, "UserByUsername of the stored name", err, nil)
			checkDeep(t, "user by name after PutUser from "+r.name, got, &want)
		}
		missing := user(2, "bob")
		missing.Version = 3
		checkErr(t, "PutUser of a user not stored, from version 3", s.PutUser(ctxFor(t), missing), storage.ErrConflict)
		_, err := s.User(ctxFor(t), 2)
		checkErr(t, "User never written", err, storage.ErrNotFound)
		_, err = s.UserByUsername(ctxFor(t), "bob")
		checkErr(t, "UserByUsername never written", err, storage.ErrNotFound)
	})

	// Writers that read, change and write back by compare-and-set, reading
	// again on a conflict, lose no change however they interleave.
	t.Run("CounterRace", func(t *testing.T) {
		s := newStore(t)
		raceIncrements(t, func() error { return incrementGames(t, s, 9) })
		const writers, each = raceWriters, raceEach
		got, err := s.User(ctxFor(t), 9)
		checkErr(t, "User", err, nil)
		if got.Stats.Games != writers*each || got.Version != writers*each {
			t.Errorf("after %d increments: games %d, version %d; want both %d",
				writers*each, got.Stats.Games, got.Version, writers*each)
		}
	})
}

// refusedVersion is a version a compare-and-set must refuse, and which.
type refusedVersion struct {
	name    string
	version int64
}

// refusedVersions are those of a record (kind: "user", "line") stored at
// version stored after one at stale.
func refusedVersions(stale, stored int64, kind string) []refusedVersion {
	return []refusedVersion{
		{"a stale version", stale},
		{"as new over a stored " + kind, 0},
		{"a version not yet stored", stored + 1},
	}
}

// raceWriters writers each make raceEach increments in raceIncrements.
const raceWriters, raceEach = 8, 5

// raceIncrements lets raceWriters goroutines, started at once, call
// increment raceEach times each, reporting the first error of each.
func raceIncrements(t *testing.T, increment func() error) {
	t.Helper()
	var wg sync.WaitGroup
	start := make(chan struct{})
	for range raceWriters {
		wg.Go(func() {
			<-start
			for range raceEach {
				if err := increment(); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	close(start)
	wg.Wait()
}

// incrementGames counts one more game for user id (created if missing) as
// play writes a user: read, change, compare-and-set, again on a conflict.
func incrementGames(t *testing.T, s storage.Store, id int64) error {
	for {
		u, err := s.User(ctxFor(t), id)
		if errors.Is(err, storage.ErrNotFound) {
			u, err = user(id, "counter"), nil
		}
		if err != nil {
			return fmt.Errorf("User(%d): %w", id, err)
		}
		u.Stats.Games++
		err = s.PutUser(ctxFor(t), u)
		if !errors.Is(err, storage.ErrConflict) {
			return err
		}
	}
}

// UnversionedUser checks that a user record stored before users had
// versions reads as version 0 and is written over from version 0 only.
// store writes a record's JSON as the store keeps a user, raw, beside s.
func UnversionedUser(t *testing.T, s storage.Store, store func(id int64, data []byte)) {
	t.Helper()
	old := user(5, "Elder")
	old.Stats.Games = 3
	data, err := json.Marshal(old)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(data, []byte(`"v"`)) {
		t.Fatalf("a record of version 0 is stored with a version: %s", data)
	}
	store(old.ID, data)
	got, err := s.User(ctxFor(t), old.ID)
	checkErr(t, "User stored without a version", err, nil)
	checkDeep(t, "user stored without a version", got, old)
	from1 := *got
	from1.Version = 1
	checkErr(t, "PutUser from version 1", s.PutUser(ctxFor(t), &from1), storage.ErrConflict)
	got.Stats.Games++
	checkErr(t, "PutUser from version 0", s.PutUser(ctxFor(t), got), nil)
	again, err := s.User(ctxFor(t), old.ID)
	checkErr(t, "User", err, nil)
	if again.Version != 1 || again.Stats.Games != 4 {
		t.Errorf("after a write from version 0: version %d, games %d; want 1, 4", again.Version, again.Stats.Games)
	}
}
