package storagetest

import (
	"testing"

	"github.com/bashni/bashni/storage"
)

func testIndexes(t *testing.T, newStore func(t *testing.T) storage.Store) {
	// Chat 100 has three games, created out of id order; chat 200 one; user 1
	// plays in both chats; the AI game indexes only its human; a game that
	// starts finished is indexed nowhere; an inline game (no chat) only by user.
	setup := func(t *testing.T) storage.Store {
		t.Helper()
		s := newStore(t)
		a := game("a", 100, 1, 2)
		a.CreatedAt = at(3)
		b := game("b", 100, 3, 1)
		b.CreatedAt = at(1)
		c := game("c", 100, 4, 5)
		c.CreatedAt = at(2)
		d := game("d", 200, 1, 6)
		ai := game("ai", 7, 7, 0)
		ai.Black = storage.Player{Name: "Bot", AILevel: 2}
		self := game("self", 8, 8, 8)
		done := game("done", 100, 1, 2)
		done.Status, done.Result = storage.GameFinished, "0-1"
		inline := game("inline", 0, 1, 9)
		inline.CreatedAt = at(10)
		mustCreate(t, s, a, b, c, d, ai, self, done, inline)
		return s
	}

	t.Run("AfterCreate", func(t *testing.T) {
		s := setup(t)
		chats := []struct {
			chat int64
			want []string
		}{
			{100, []string{"b", "c", "a"}},
			{200, []string{"d"}},
			{7, []string{"ai"}},
			{0, nil},
			{999, nil},
		}
		for _, tc := range chats {
			ids, err := s.ActiveGamesByChat(ctxFor(t), tc.chat)
			checkIDs(t, "ActiveGamesByChat", ids, err, tc.want...)
		}
		users := []struct {
			user int64
			want []string
		}{
			{1, []string{"d", "b", "a", "inline"}}, // d, created at base, first
			{2, []string{"a"}},
			{7, []string{"ai"}},
			{0, nil}, // the AI is not a user
			{8, []string{"self"}},
			{999, nil},
		}
		for _, tc := range users {
			ids, err := s.ActiveGamesByUser(ctxFor(t), tc.user)
			checkIDs(t, "ActiveGamesByUser", ids, err, tc.want...)
		}
	})

	t.Run("FollowStatus", func(t *testing.T) {
		tests := []struct {
			name     string
			change   func(g *storage.GameRecord)
			chat100  []string
			user1    []string
			user2    []string
			finished bool
		}{
			{
				name:    "a move keeps the game listed",
				change:  func(g *storage.GameRecord) { g.Moves = append(g.Moves, "c3-d4") },
				chat100: []string{"b", "c", "a"},
				user1:   []string{"d", "b", "a", "inline"},
				user2:   []string{"a"},
			},
			{
				name: "finishing removes it everywhere",
				change: func(g *storage.GameRecord) {
					g.Status, g.Result, g.Reason = storage.GameFinished, "1-0", "no moves"
				},
				chat100: []string{"b", "c"},
				user1:   []string{"d", "b", "inline"},
				user2:   nil,
			},
		}
		for _, tc := range tests {
			t.Run(tc.name, func(t *testing.T) {
				s := setup(t)
				g := mustGame(t, s, "a")
				tc.change(g)
				mustUpdate(t, s, g)
				ids, err := s.ActiveGamesByChat(ctxFor(t), 100)
				checkIDs(t, "ActiveGamesByChat(100)", ids, err, tc.chat100...)
				ids, err = s.ActiveGamesByUser(ctxFor(t), 1)
				checkIDs(t, "ActiveGamesByUser(1)", ids, err, tc.user1...)
				ids, err = s.ActiveGamesByUser(ctxFor(t), 2)
				checkIDs(t, "ActiveGamesByUser(2)", ids, err, tc.user2...)
			})
		}
	})

	t.Run("ConflictLeavesIndexes", func(t *testing.T) {
		s := setup(t)
		g := mustGame(t, s, "a")
		stale := g.Clone()
		g.Moves = []string{"c3-d4"}
		mustUpdate(t, s, g)
		stale.Status = storage.GameFinished
		checkErr(t, "UpdateGame(stale finish)", s.UpdateGame(ctxFor(t), stale), storage.ErrConflict)
		ids, err := s.ActiveGamesByChat(ctxFor(t), 100)
		checkIDs(t, "ActiveGamesByChat(100)", ids, err, "b", "c", "a")
		ids, err = s.ActiveGamesByUser(ctxFor(t), 2)
		checkIDs(t, "ActiveGamesByUser(2)", ids, err, "a")
	})
}
