package storagetest

import (
	"testing"

	"github.com/bashni/bashni/storage"
)

func testGames(t *testing.T, newStore func(t *testing.T) storage.Store) {
	t.Run("RoundTrip", func(t *testing.T) {
		full := game("full", -1001, 11, 12)
		full.Moves = []string{"c3-d4", "f6-e5", "d4:f6"}
		full.Position = "W:Wc3,e3:Bf6"
		full.Result, full.Reason = "", ""
		full.MessageID = 77
		full.DrawOfferBy, full.DrawDeclinedBy = 12, 11
		full.RemindAt, full.TimeoutAt = at(60), at(24*60)
		full.Reminders = 2
		full.Notices = map[int64]int{11: 501, 12: 502}
		full.Rated, full.Lang = true, "ru"
		full.DaysPerMove, full.HoldBlack = 3, at(5*24*60) // a pace, Black away
		full.Review = &storage.GameReview{Scores: []int{0, 15, -40, 300}, Best: []string{"c3-d4", "f6-g5", "d4:f6"}, Loss: []int{0, 55, 0}}

		ai := game("ai", 11, 11, 0)
		ai.Black = storage.Player{Name: "Bot", AILevel: 3}

		inline := game("inline", 0, 21, 22)
		inline.InlineMessageID = "AgAAAHk"

		tests := []struct {
			name string
			g    *storage.GameRecord
		}{
			{"minimal", &storage.GameRecord{ID: "min", Status: storage.GameActive}},
			{"every field", full},
			{"against the AI", ai},
			{"inline message", inline},
		}
		s := newStore(t)
		for _, tc := range tests {
			t.Run(tc.name, func(t *testing.T) {
				want := tc.g.Clone()
				want.Version = 1
				mustCreate(t, s, tc.g)
				if tc.g.Version != 1 {
					t.Errorf("version set on the record: got %d, want 1", tc.g.Version)
				}
				checkDeep(t, "stored game", mustGame(t, s, tc.g.ID), want)
			})
		}
	})

	t.Run("NotFound", func(t *testing.T) {
		s := newStore(t)
		_, err := s.Game(ctxFor(t), "nope")
		checkErr(t, "Game(nope)", err, storage.ErrNotFound)
		g := game("nope", 1, 2, 3)
		g.Version = 1
		checkErr(t, "UpdateGame(nope)", s.UpdateGame(ctxFor(t), g), storage.ErrNotFound)
		if g.Version != 1 {
			t.Errorf("version after failed update: got %d, want 1", g.Version)
		}
	})

	t.Run("CreateTakenID", func(t *testing.T) {
		s := newStore(t)
		first := game("dup", 1, 2, 3)
		mustCreate(t, s, first)
		want := first.Clone()
		tests := []struct {
			name string
			g    *storage.GameRecord
		}{
			{"other content", game("dup", 9, 8, 7)},
			{"same content again", first.Clone()},
		}
		for _, tc := range tests {
			t.Run(tc.name, func(t *testing.T) {
				checkErr(t, "CreateGame(dup)", s.CreateGame(ctxFor(t), tc.g), storage.ErrConflict)
				checkDeep(t, "stored game", mustGame(t, s, "dup"), want)
				ids, err := s.ActiveGamesByChat(ctxFor(t), 9)
				checkIDs(t, "ActiveGamesByChat(9)", ids, err)
			})
		}
	})

	t.Run("EmptyID", func(t *testing.T) {
		s := newStore(t)
		if err := s.CreateGame(ctxFor(t), &storage.GameRecord{}); err == nil {
			t.Errorf("CreateGame without id: got no error, want one")
		}
	})

	t.Run("CompareAndSet", func(t *testing.T) {
		s := newStore(t)
		g := game("cas", 1, 2, 3)
		mustCreate(t, s, g)

		moved := g.Clone()
		moved.Moves = []string{"c3-d4"}
		moved.Position = "after c3-d4"
		mustUpdate(t, s, moved)
		if moved.Version != 2 {
			t.Fatalf("version after update: got %d, want 2", moved.Version)
		}
		checkDeep(t, "stored after update", mustGame(t, s, "cas"), moved)

		tests := []struct {
			name    string
			version int64
		}{
			{"stale version", 1},
			{"future version", 3},
			{"zero version", 0},
		}
		for _, tc := range tests {
			t.Run(tc.name, func(t *testing.T) {
				other := moved.Clone()
				other.Version = tc.version
				other.Moves = []string{"e3-f4"}
				checkErr(t, "UpdateGame", s.UpdateGame(ctxFor(t), other), storage.ErrConflict)
				if other.Version != tc.version {
					t.Errorf("version on the rejected record: got %d, want %d", other.Version, tc.version)
				}
				checkDeep(t, "stored after conflict", mustGame(t, s, "cas"), moved)
			})
		}
	})

	t.Run("FinishedStaysFinished", func(t *testing.T) {
		s := newStore(t)
		g := game("fin", 1, 2, 3)
		mustCreate(t, s, g)
		g.Status, g.Result, g.Reason = storage.GameFinished, "1-0", "resign"
		mustUpdate(t, s, g)

		// A finished game may still be written (the result card's message id).
		g.MessageID = 99
		mustUpdate(t, s, g)
		want := g.Clone()

		reopen := g.Clone()
		reopen.Status = storage.GameActive
		checkErr(t, "UpdateGame reopening", s.UpdateGame(ctxFor(t), reopen), storage.ErrConflict)
		checkDeep(t, "stored after reopen attempt", mustGame(t, s, "fin"), want)
		ids, err := s.ActiveGamesByChat(ctxFor(t), 1)
		checkIDs(t, "ActiveGamesByChat(1)", ids, err)
	})
}
