package storagetest

import (
	"testing"
	"time"

	"github.com/bashni/bashni/storage"
)

// testMining: the log of finished games (each game once, at the write that
// finished it, in order, read after a mark and before a time), the
// miner's mark by compare-and-set, and the mined puzzles (added once,
// listed by the order of finding, told by compare-and-set).
func testMining(t *testing.T, newStore clockedStore) {
	t.Run("FinishedLog", func(t *testing.T) {
		s, clock := newStore(t)
		a, b, c := game("ma", -1, 1, 2), game("mb", -1, 1, 2), game("mc", -1, 3, 4)
		mustCreate(t, s, a, b, c)
		finish := func(g *storage.GameRecord) {
			t.Helper()
			clock.Advance(time.Second)
			g.Status, g.Result, g.Reason = storage.GameFinished, "1-0", "resign"
			mustUpdate(t, s, g)
		}
		none, err := s.FinishedGames(ctxFor(t), storage.FinishedGame{}, clock.Now().Add(time.Hour), 10)
		checkErr(t, "FinishedGames of none", err, nil)
		checkIDs(t, "the log before any game finished", finishedIDs(none), nil)
		b.Moves = []string{"c3-d4"}
		mustUpdate(t, s, b) // an active game's write is not logged
		finish(b)
		finish(a)
		cut := clock.Now().Add(time.Second / 2)
		finish(c)
		// Later writes of a finished game leave its entry where it is.
		a.Reason = "resign again"
		clock.Advance(time.Second)
		mustUpdate(t, s, a)

		far := clock.Now().Add(time.Hour)
		all, err := s.FinishedGames(ctxFor(t), storage.FinishedGame{}, far, 10)
		checkIDs(t, "the log", finishedIDs(all), err, "mb", "ma", "mc")
		for i := 1; i < len(all); i++ {
			if !all[i].At.After(all[i-1].At) {
				t.Errorf("entry %d at %v, not after entry %d at %v", i, all[i].At, i-1, all[i-1].At)
			}
		}
		got, err := s.FinishedGames(ctxFor(t), all[0], far, 10)
		checkIDs(t, "after the first entry", finishedIDs(got), err, "ma", "mc")
		got, err = s.FinishedGames(ctxFor(t), storage.FinishedGame{}, cut, 10)
		checkIDs(t, "before the last finish", finishedIDs(got), err, "mb", "ma")
		got, err = s.FinishedGames(ctxFor(t), storage.FinishedGame{}, far, 1)
		checkIDs(t, "one entry", finishedIDs(got), err, "mb")
		got, err = s.FinishedGames(ctxFor(t), all[2], far, 10)
		checkIDs(t, "after the last entry", finishedIDs(got), err)
	})

	// A finishing write refused by compare-and-set may leave an entry (a
	// store that logs before its write), but the game's finish that
	// lands later is where the log has it, once.
	t.Run("FinishRefusedThenMade", func(t *testing.T) {
		s, clock := newStore(t)
		g := game("mr", -1, 1, 2)
		mustCreate(t, s, g)
		stale := *g
		g.Moves = []string{"c3-d4"}
		mustUpdate(t, s, g)
		clock.Advance(time.Second)
		stale.Status, stale.Result, stale.Reason = storage.GameFinished, "1-0", "resign"
		checkErr(t, "a finishing write from a stale version", s.UpdateGame(ctxFor(t), &stale), storage.ErrConflict)
		clock.Advance(time.Second)
		mark := storage.FinishedGame{ID: "mr", At: clock.Now()}
		clock.Advance(time.Second)
		g.Status, g.Result, g.Reason = storage.GameFinished, "0-1", "resign"
		mustUpdate(t, s, g)
		far := clock.Now().Add(time.Hour)
		all, err := s.FinishedGames(ctxFor(t), storage.FinishedGame{}, far, 10)
		checkIDs(t, "the log", finishedIDs(all), err, "mr")
		after, err := s.FinishedGames(ctxFor(t), mark, far, 10)
		checkIDs(t, "the log after the refused write", finishedIDs(after), err, "mr")
	})

	t.Run("MineMark", func(t *testing.T) {
		s, clock := newStore(t)
		m, err := s.MineMark(ctxFor(t))
		checkErr(t, "MineMark never written", err, nil)
		checkDeep(t, "mark never written", *m, storage.MineMark{})
		stale := *m
		m.At, m.Game, m.Holder, m.Until, m.Games = clock.Now().UTC().Round(0), "g1", "run-1", clock.Now().Add(time.Minute).UTC().Round(0), 3
		checkErr(t, "PutMineMark from 0", s.PutMineMark(ctxFor(t), m), nil)
		if m.Version != 1 {
			t.Errorf("version after the first write = %d, want 1", m.Version)
		}
		checkErr(t, "PutMineMark from a stale 0", s.PutMineMark(ctxFor(t), &stale), storage.ErrConflict)
		got, err := s.MineMark(ctxFor(t))
		checkErr(t, "MineMark", err, nil)
		if !got.At.Equal(m.At) || !got.Until.Equal(m.Until) || got.Game != "g1" || got.Holder != "run-1" || got.Games != 3 || got.Version != 1 {
			t.Errorf("mark read back %+v, want %+v", got, m)
		}
	})

	t.Run("MinedPuzzles", func(t *testing.T) {
		s, clock := newStore(t)
		now := clock.Now().UTC().Round(0)
		p1 := &storage.MinedPuzzle{ID: "pz1", Line: "line one", Game: "g1", White: "Ann", Black: "Bob", Found: now, Players: []int64{1, 2}}
		p2 := &storage.MinedPuzzle{ID: "pz2", Line: "line two", Game: "g2", Found: now, Players: []int64{3}}
		checkErr(t, "AddMinedPuzzle 1", s.AddMinedPuzzle(ctxFor(t), p1), nil)
		checkErr(t, "AddMinedPuzzle 2", s.AddMinedPuzzle(ctxFor(t), p2), nil)
		if p1.Version != 1 || p2.Version != 1 || p1.Seq < 1 || p2.Seq <= p1.Seq {
			t.Errorf("after adding: versions %d, %d, seqs %d, %d; want 1, 1 and rising seqs from 1", p1.Version, p2.Version, p1.Seq, p2.Seq)
		}
		again := &storage.MinedPuzzle{ID: "pz1", Line: "another line", Game: "g9", Found: now}
		checkErr(t, "AddMinedPuzzle of a stored id", s.AddMinedPuzzle(ctxFor(t), again), storage.ErrConflict)
		if err := s.AddMinedPuzzle(ctxFor(t), &storage.MinedPuzzle{Line: "x"}); err == nil {
			t.Error("AddMinedPuzzle without an id: no error")
		}

		all, err := s.MinedPuzzles(ctxFor(t), 0, 10)
		checkErr(t, "MinedPuzzles", err, nil)
		checkDeep(t, "mined puzzles", all, []storage.MinedPuzzle{*p1, *p2})
		after, err := s.MinedPuzzles(ctxFor(t), p1.Seq, 10)
		checkErr(t, "MinedPuzzles after the first", err, nil)
		checkDeep(t, "mined puzzles after the first", after, []storage.MinedPuzzle{*p2})
		one, err := s.MinedPuzzles(ctxFor(t), 0, 1)
		checkErr(t, "MinedPuzzles, one", err, nil)
		checkDeep(t, "the first mined puzzle", one, []storage.MinedPuzzle{*p1})

		stale := *p1
		p1.Told = true
		checkErr(t, "UpdateMinedPuzzle", s.UpdateMinedPuzzle(ctxFor(t), p1), nil)
		if p1.Version != 2 {
			t.Errorf("version after telling = %d, want 2", p1.Version)
		}
		checkErr(t, "UpdateMinedPuzzle from a stale version", s.UpdateMinedPuzzle(ctxFor(t), &stale), storage.ErrConflict)
		checkErr(t, "UpdateMinedPuzzle of none", s.UpdateMinedPuzzle(ctxFor(t), &storage.MinedPuzzle{ID: "nope", Version: 1}), storage.ErrNotFound)
		got, err := s.MinedPuzzles(ctxFor(t), 0, 1)
		checkErr(t, "MinedPuzzles after telling", err, nil)
		checkDeep(t, "told puzzle", got, []storage.MinedPuzzle{*p1})
	})
}

func finishedIDs(fs []storage.FinishedGame) []string {
	ids := make([]string, len(fs))
	for i, f := range fs {
		ids[i] = f.ID
	}
	return ids
}
