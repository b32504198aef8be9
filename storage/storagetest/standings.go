package storagetest

import (
	"testing"

	"github.com/bashni/bashni/storage"
)

func testStandings(t *testing.T, newStore func(t *testing.T) storage.Store) {
	st := func(id int64, rating float64) storage.Standing {
		return storage.Standing{UserID: id, Name: "p", Rating: rating, Games: int(id)}
	}

	t.Run("Top", func(t *testing.T) {
		s := newStore(t)
		for _, x := range []storage.Standing{
			st(1, 1500), st(2, 1612.5), st(3, 1388), st(4, 1500), st(5, -20), st(12, 1500),
		} {
			checkErr(t, "SetStanding", s.SetStanding(ctxFor(t), -100, x), nil)
		}
		checkErr(t, "SetStanding other scope", s.SetStanding(ctxFor(t), 0, st(9, 3000)), nil)

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
		for _, x := range []storage.Standing{st(1, 1500), st(2, 1400), st(1, 1350)} {
			checkErr(t, "SetStanding", s.SetStanding(ctxFor(t), 7, x), nil)
		}
		got, err := s.Top(ctxFor(t), 7, 10)
		checkErr(t, "Top", err, nil)
		checkDeep(t, "Top after a rating fell", got, []storage.Standing{st(2, 1400), st(1, 1350)})
	})

	t.Run("One", func(t *testing.T) {
		s := newStore(t)
		want := storage.Standing{UserID: 3, Name: "Carol", Rating: 1701.25, Games: 31}
		checkErr(t, "SetStanding", s.SetStanding(ctxFor(t), -100, want), nil)
		got, err := s.Standing(ctxFor(t), -100, 3)
		checkErr(t, "Standing", err, nil)
		checkDeep(t, "Standing", got, want)
		_, err = s.Standing(ctxFor(t), 0, 3)
		checkErr(t, "Standing in another scope", err, storage.ErrNotFound)
		_, err = s.Standing(ctxFor(t), -100, 4)
		checkErr(t, "Standing of another user", err, storage.ErrNotFound)
	})
}
