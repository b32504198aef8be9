package storagetest

import (
	"testing"

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
			Theme: "wood", Flip: true, Notify: true, Rating: 1612.5, RD: 87.25,
			Stats:     storage.Stats{Games: 10, Wins: 6, Draws: 1, Losses: 3, Streak: -2},
			UpdatedAt: base,
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
