package storagetest

import (
	"slices"
	"testing"
	"time"

	"github.com/bashni/bashni/storage"
)

func testDeadlines(t *testing.T, newStore func(t *testing.T) storage.Store) {
	// remind: RemindAt only; timeout: TimeoutAt only; both: the earlier
	// (TimeoutAt) counts; none: never due; late: due last.
	setup := func(t *testing.T) storage.Store {
		t.Helper()
		s := newStore(t)
		remind := game("remind", 1, 1, 2)
		remind.RemindAt = at(20)
		timeout := game("timeout", 1, 3, 4)
		timeout.TimeoutAt = at(10)
		both := game("both", 1, 5, 6)
		both.RemindAt, both.TimeoutAt = at(40), at(30)
		none := game("none", 1, 7, 8)
		late := game("late", 1, 9, 10)
		late.RemindAt = at(600)
		done := game("done", 1, 1, 2)
		done.Status, done.RemindAt = storage.GameFinished, at(1)
		mustCreate(t, s, remind, timeout, both, none, late, done)
		return s
	}

	t.Run("Due", func(t *testing.T) {
		s := setup(t)
		tests := []struct {
			name  string
			now   time.Time
			limit int
			want  []string
		}{
			{"before all", at(0), 10, nil},
			{"at the first deadline", at(10), 10, []string{"timeout"}},
			{"between", at(25), 10, []string{"timeout", "remind"}},
			{"earliest of the two times", at(35), 10, []string{"timeout", "remind", "both"}},
			{"limit", at(35), 2, []string{"timeout", "remind"}},
			{"all", at(1000), 10, []string{"timeout", "remind", "both", "late"}},
		}
		for _, tc := range tests {
			t.Run(tc.name, func(t *testing.T) {
				ids, err := s.DueGames(ctxFor(t), tc.now, tc.limit)
				checkIDs(t, "DueGames", ids, err, tc.want...)
			})
		}
	})

	t.Run("FollowUpdates", func(t *testing.T) {
		tests := []struct {
			name   string
			id     string
			change func(g *storage.GameRecord)
			want   []string // due at at(35)
		}{
			{"later reminder leaves", "timeout", func(g *storage.GameRecord) {
				g.TimeoutAt = at(100)
			}, []string{"remind", "both"}},
			{"earlier reminder moves up", "late", func(g *storage.GameRecord) {
				g.RemindAt = at(5)
			}, []string{"late", "timeout", "remind", "both"}},
			{"new deadline joins", "none", func(g *storage.GameRecord) {
				g.TimeoutAt = at(15)
			}, []string{"timeout", "none", "remind", "both"}},
			{"cleared deadline leaves", "remind", func(g *storage.GameRecord) {
				g.RemindAt = time.Time{}
			}, []string{"timeout", "both"}},
			{"one of two cleared", "both", func(g *storage.GameRecord) {
				g.TimeoutAt = time.Time{}
			}, []string{"timeout", "remind"}},
			{"finished leaves", "remind", func(g *storage.GameRecord) {
				g.Status, g.Result = storage.GameFinished, "1/2-1/2"
			}, []string{"timeout", "both"}},
			{"what a change owes joins at ShowAt", "none", func(g *storage.GameRecord) {
				g.Owed, g.ShowAt = []storage.GameEvent{{Kind: storage.EventMoved, Version: 2, Receipt: 7}}, at(11)
			}, []string{"timeout", "none", "remind", "both"}},
			{"a finished game owing its end stays due", "remind", func(g *storage.GameRecord) {
				g.Status, g.Result = storage.GameFinished, "1-0"
				g.Owed, g.ShowAt = []storage.GameEvent{{Kind: storage.EventEnded, Version: 2, Receipt: 7}}, at(12)
			}, []string{"timeout", "remind", "both"}},
			{"a team vote's closing joins", "none", func(g *storage.GameRecord) {
				g.Team = &storage.TeamGame{Window: time.Minute, ClosesAt: at(12), Ballots: []storage.Ballot{{UserID: 1, Move: "c3-d4"}}}
			}, []string{"timeout", "none", "remind", "both"}},
			{"a closed team vote leaves", "none", func(g *storage.GameRecord) {
				g.Team = &storage.TeamGame{Window: time.Minute, Turns: []storage.TeamTurn{{Move: "c3-d4"}}}
			}, []string{"timeout", "remind", "both"}},
		}
		for _, tc := range tests {
			t.Run(tc.name, func(t *testing.T) {
				s := setup(t)
				g := mustGame(t, s, tc.id)
				tc.change(g)
				mustUpdate(t, s, g)
				ids, err := s.DueGames(ctxFor(t), at(35), 10)
				checkIDs(t, "DueGames(at 35)", ids, err, tc.want...)
			})
		}
	})

	t.Run("SameDeadline", func(t *testing.T) {
		s := newStore(t)
		for _, id := range []string{"z", "m", "a"} {
			g := game(id, 1, 1, 2)
			g.RemindAt = at(5)
			mustCreate(t, s, g)
		}
		ids, err := s.DueGames(ctxFor(t), at(5), 10)
		checkIDs(t, "DueGames", ids, err, "a", "m", "z")
	})

	t.Run("FinishedOwingThenShown", func(t *testing.T) {
		s := setup(t)
		g := mustGame(t, s, "remind")
		g.Status, g.Result = storage.GameFinished, "1-0"
		g.Owed, g.ShowAt = []storage.GameEvent{{Kind: storage.EventEnded, Version: 2, Receipt: -3}}, at(50)
		mustUpdate(t, s, g)
		ids, err := s.DueGames(ctxFor(t), at(50), 10)
		checkIDs(t, "DueGames(at 50) owing", ids, err, "timeout", "both", "remind")
		active, err := s.ActiveGamesByChat(ctxFor(t), 1)
		if err != nil || slices.Contains(active, "remind") {
			t.Fatalf("ActiveGamesByChat = %v, %v: a finished game owing its end is not active", active, err)
		}
		g.Owed, g.ShowAt = nil, time.Time{}
		mustUpdate(t, s, g)
		ids, err = s.DueGames(ctxFor(t), at(50), 10)
		checkIDs(t, "DueGames(at 50) shown", ids, err, "timeout", "both")
	})

	// A finished game is found by the receipt of an event it owes, and by
	// no other, until it has shown what it owes; an active one is found
	// by its indexes, not this way.
	t.Run("EndedByReceipt", func(t *testing.T) {
		s := setup(t)
		_, err := s.EndedGameByReceipt(ctxFor(t), 77)
		checkErr(t, "EndedGameByReceipt before any end", err, storage.ErrNotFound)
		g := mustGame(t, s, "remind")
		g.Owed, g.ShowAt = []storage.GameEvent{{Kind: storage.EventMoved, Version: 2, Receipt: 77}}, at(50)
		mustUpdate(t, s, g)
		_, err = s.EndedGameByReceipt(ctxFor(t), 77)
		checkErr(t, "EndedGameByReceipt of an active game", err, storage.ErrNotFound)
		g.Status, g.Result = storage.GameFinished, "1-0"
		g.Owed = append(g.Owed, storage.GameEvent{Kind: storage.EventEnded, Version: 3, Receipt: 78})
		mustUpdate(t, s, g)
		for _, r := range []int64{77, 78} {
			id, err := s.EndedGameByReceipt(ctxFor(t), r)
			if err != nil || id != "remind" {
				t.Errorf("EndedGameByReceipt(%d) = %q, %v; want the game it ended", r, id, err)
			}
		}
		_, err = s.EndedGameByReceipt(ctxFor(t), 79)
		checkErr(t, "EndedGameByReceipt of another receipt", err, storage.ErrNotFound)
		g.Owed, g.ShowAt = nil, time.Time{}
		mustUpdate(t, s, g)
		_, err = s.EndedGameByReceipt(ctxFor(t), 78)
		checkErr(t, "EndedGameByReceipt once shown", err, storage.ErrNotFound)
	})

	// The events and receipts a change owes are part of its one write: a
	// write that loses the compare-and-set leaves none of them behind.
	t.Run("OwedWithTheChange", func(t *testing.T) {
		s := setup(t)
		g := mustGame(t, s, "none")
		stale := g.Clone()
		g.Moves = append(g.Moves, "c3-d4")
		g.Owed, g.ShowAt, g.Receipts = []storage.GameEvent{{Kind: storage.EventMoved, Version: 2, Receipt: 41, By: 1}}, at(3), []int64{41}
		mustUpdate(t, s, g)
		stale.Moves = append(stale.Moves, "a3-b4")
		stale.Owed, stale.ShowAt, stale.Receipts = []storage.GameEvent{{Kind: storage.EventMoved, Version: 2, Receipt: 42, By: 2}}, at(1), []int64{42}
		checkErr(t, "UpdateGame(stale)", s.UpdateGame(ctxFor(t), stale), storage.ErrConflict)
		got := mustGame(t, s, "none")
		checkDeep(t, "Owed", got.Owed, g.Owed)
		checkDeep(t, "Receipts", got.Receipts, []int64{41})
		if !got.ShowAt.Equal(at(3)) {
			t.Fatalf("ShowAt = %v, want %v", got.ShowAt, at(3))
		}
		ids, err := s.DueGames(ctxFor(t), at(2), 10)
		checkIDs(t, "DueGames(at 2)", ids, err)
	})
}
