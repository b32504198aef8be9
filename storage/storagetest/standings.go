package storagetest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"github.com/bashni/bashni/storage"
)

func testStandings(t *testing.T, newStore func(t *testing.T) storage.Store) {
	// st is a line as stored by one write.
	st := func(id int64, rating float64) storage.Standing {
		return storage.Standing{UserID: id, Name: "p", Rating: rating, Games: int(id), RD: 60 + float64(id), Vol: 0.06, Version: 1}
	}
	// set writes x as a new line.
	set := func(t *testing.T, s storage.Store, scope int64, x storage.Standing) {
		t.Helper()
		x.Version = 0
		checkErr(t, "SetStanding", s.SetStanding(ctxFor(t), scope, &x), nil)
	}

	t.Run("Top", func(t *testing.T) {
		s := newStore(t)
		for _, x := range []storage.Standing{
			st(1, 1500), st(2, 1612.5), st(3, 1388), st(4, 1500), st(5, -20), st(12, 1500),
		} {
			set(t, s, -100, x)
		}
		set(t, s, 0, st(9, 3000))

		tests := []struct {
			name  string
			scope int64
			n     int
			want  []storage.Standing
		}{
			{"top 3, ties by user id", -100, 3, []storage.Standing{st(2, 1612.5), st(1, 1500), st(4, 1500)}},
			{"more than there are", -100, 10, []storage.Standing{
				st(2, 1612.5), st(1, 1500), st(4, 1500), st(12, 1500), st(3, 1388), st(5, -20),
			}},
			{"none asked", -100, 0, nil},
			{"global scope", 0, 5, []storage.Standing{st(9, 3000)}},
			{"empty scope", 555, 5, nil},
		}
		for _, tc := range tests {
			t.Run(tc.name, func(t *testing.T) {
				got, err := s.Top(ctxFor(t), tc.scope, tc.n)
				checkErr(t, "Top", err, nil)
				if len(got) == 0 && len(tc.want) == 0 {
					return
				}
				checkDeep(t, "Top", got, tc.want)
			})
		}
	})

	t.Run("Replace", func(t *testing.T) {
		s := newStore(t)
		set(t, s, 7, st(1, 1500))
		set(t, s, 7, st(2, 1400))
		fell := st(1, 1350)
		checkErr(t, "SetStanding from version 1", s.SetStanding(ctxFor(t), 7, &fell), nil)
		got, err := s.Top(ctxFor(t), 7, 10)
		checkErr(t, "Top", err, nil)
		checkDeep(t, "Top after a rating fell", got, []storage.Standing{st(2, 1400), fell})
		if fell.Version != 2 {
			t.Errorf("version after the second write: got %d, want 2", fell.Version)
		}
	})

	t.Run("One", func(t *testing.T) {
		s := newStore(t)
		want := storage.Standing{UserID: 3, Name: "Carol", Rating: 1701.25, Games: 31, RD: 92.5, Vol: 0.0601, Counted: []string{"g1"}}
		checkErr(t, "SetStanding", s.SetStanding(ctxFor(t), -100, &want), nil)
		if want.Version != 1 {
			t.Errorf("version after the first write: got %d, want 1", want.Version)
		}
		got, err := s.Standing(ctxFor(t), -100, 3)
		checkErr(t, "Standing", err, nil)
		checkDeep(t, "Standing", got, want)
		_, err = s.Standing(ctxFor(t), 0, 3)
		checkErr(t, "Standing in another scope", err, storage.ErrNotFound)
		_, err = s.Standing(ctxFor(t), -100, 4)
		checkErr(t, "Standing of another user", err, storage.ErrNotFound)
	})
}

// testStandingVersions: SetStanding is a compare-and-set on the line's
// version.
func testStandingVersions(t *testing.T, newStore func(t *testing.T) storage.Store) {
	t.Run("StaleRefused", func(t *testing.T) {
		s := newStore(t)
		other := storage.Standing{UserID: 2, Name: "Bob", Rating: 1510}
		checkErr(t, "SetStanding Bob", s.SetStanding(ctxFor(t), -100, &other), nil)
		line := storage.Standing{UserID: 1, Name: "Ann", Rating: 1500, Games: 1, Counted: []string{"g1"}}
		checkErr(t, "SetStanding Ann", s.SetStanding(ctxFor(t), -100, &line), nil)
		stale := line
		line.Rating, line.Games, line.Counted = 1520, 2, []string{"g1", "g2"}
		checkErr(t, "SetStanding from version 1", s.SetStanding(ctxFor(t), -100, &line), nil)
		want := []storage.Standing{line, other}

		for _, r := range refusedVersions(stale.Version, line.Version, "line") {
			// Its rating would move the line below Bob's: the rank must not.
			w := stale
			w.Version, w.Rating, w.Games, w.Counted = r.version, 1400, 7, []string{"g3"}
			checkErr(t, "SetStanding from "+r.name, s.SetStanding(ctxFor(t), -100, &w), storage.ErrConflict)
			if w.Version != r.version {
				t.Errorf("SetStanding from %s moved the caller's version to %d", r.name, w.Version)
			}
			got, err := s.Standing(ctxFor(t), -100, 1)
			checkErr(t, "Standing", err, nil)
			checkDeep(t, "line after SetStanding from "+r.name, got, line)
			top, err := s.Top(ctxFor(t), -100, 5)
			checkErr(t, "Top", err, nil)
			checkDeep(t, "Top after SetStanding from "+r.name, top, want)
		}
		missing := storage.Standing{UserID: 3, Name: "Cid", Rating: 1600, Version: 3}
		checkErr(t, "SetStanding of a line not stored, from version 3", s.SetStanding(ctxFor(t), -100, &missing), storage.ErrConflict)
		_, err := s.Standing(ctxFor(t), -100, 3)
		checkErr(t, "Standing never written", err, storage.ErrNotFound)
		top, err := s.Top(ctxFor(t), -100, 5)
		checkErr(t, "Top", err, nil)
		checkDeep(t, "Top after a refused new line", top, want)
	})

	// Writers that read, change and write back by compare-and-set, reading
	// again on a conflict, lose no change however they interleave.
	t.Run("CounterRace", func(t *testing.T) {
		s := newStore(t)
		raceIncrements(t, func() error { return incrementLine(t, s, -100, 9) })
		got, err := s.Standing(ctxFor(t), -100, 9)
		checkErr(t, "Standing", err, nil)
		if n := raceWriters * raceEach; got.Games != n || got.Version != int64(n) || got.Rating != float64(1500+n) {
			t.Errorf("after %d increments: games %d, rating %v, version %d; want %[1]d, %v, %[1]d",
				n, got.Games, got.Rating, got.Version, 1500+n)
		}
		top, err := s.Top(ctxFor(t), -100, 5)
		checkErr(t, "Top", err, nil)
		checkDeep(t, "Top", top, []storage.Standing{got})
	})
}

// incrementLine counts one more game, a point up, in user id's line
// (created if missing) as play writes a chat's line: read, change,
// compare-and-set, again on a conflict.
func incrementLine(t *testing.T, s storage.Store, scope, id int64) error {
	for {
		line, err := s.Standing(ctxFor(t), scope, id)
		if errors.Is(err, storage.ErrNotFound) {
			line, err = storage.Standing{UserID: id, Name: "counter", Rating: 1500}, nil
		}
		if err != nil {
			return fmt.Errorf("Standing(%d, %d): %w", scope, id, err)
		}
		line.Games++
		line.Rating++
		err = s.SetStanding(ctxFor(t), scope, &line)
		if !errors.Is(err, storage.ErrConflict) {
			return err
		}
	}
}

// UnversionedStanding checks that a line stored before lines had versions
// reads as version 0 and is written over from version 0 only, its rank
// moving with it. store writes a line's JSON and its rank entry as the
// store keeps them, raw, beside s.
func UnversionedStanding(t *testing.T, s storage.Store, store func(scope int64, line storage.Standing, data []byte)) {
	t.Helper()
	old := storage.Standing{UserID: 5, Name: "Elder", Rating: 1600, Games: 3, Counted: []string{"g1"}}
	data, err := json.Marshal(old)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(data, []byte(`"v"`)) {
		t.Fatalf("a line of version 0 is stored with a version: %s", data)
	}
	store(-100, old, data)
	other := storage.Standing{UserID: 6, Name: "Young", Rating: 1550}
	checkErr(t, "SetStanding another", s.SetStanding(ctxFor(t), -100, &other), nil)
	got, err := s.Standing(ctxFor(t), -100, old.UserID)
	checkErr(t, "Standing stored without a version", err, nil)
	checkDeep(t, "line stored without a version", got, old)
	from1 := got
	from1.Version = 1
	checkErr(t, "SetStanding from version 1", s.SetStanding(ctxFor(t), -100, &from1), storage.ErrConflict)
	got.Rating, got.Games = 1500, 4
	checkErr(t, "SetStanding from version 0", s.SetStanding(ctxFor(t), -100, &got), nil)
	top, err := s.Top(ctxFor(t), -100, 5)
	checkErr(t, "Top", err, nil)
	checkDeep(t, "Top after a write from version 0", top, []storage.Standing{other, got})
	if got.Version != 1 {
		t.Errorf("version after a write from version 0: got %d, want 1", got.Version)
	}
}
