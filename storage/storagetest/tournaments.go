package storagetest

import (
	"errors"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/bashni/bashni/storage"
)

// tournament returns a running tournament of chat with two players.
func tournament(id string, chat int64) *storage.Tournament {
	return &storage.Tournament{
		ID: id, ChatID: chat, Lang: "ru", TimeControl: "3+2", CreatedBy: storage.Player{UserID: 1, Name: "Ann"},
		StartedAt: at(0), EndsAt: at(30), Status: storage.TournamentRunning,
		Players: []storage.TourPlayer{{UserID: 1, Name: "Ann", Results: "WWD", FreeSince: at(1)}, {UserID: 2, Name: "Ben", Game: "g1", Paused: true, Last: 1, Whites: 2}},
		Games:   []storage.TourGame{{ID: "g0", White: 1, Black: 2, Result: "1-0", Posted: at(2)}, {ID: "g1", White: 2, Black: 1, Reposts: 1}},
	}
}

// testTournaments: one tournament a chat at a time, written only from the
// version read, listed while it runs; a finished one is replaced by the
// next, whose versions go on from it.
func testTournaments(t *testing.T, newStore func(t *testing.T) storage.Store) {
	t.Run("CreateReadUpdate", func(t *testing.T) {
		s := newStore(t)
		_, err := s.Tournament(ctxFor(t), -100)
		checkErr(t, "Tournament of a chat without one", err, storage.ErrNotFound)
		checkErr(t, "UpdateTournament of a chat without one", s.UpdateTournament(ctxFor(t), &storage.Tournament{ID: "x", ChatID: -100, Version: 1}), storage.ErrNotFound)
		running, err := s.RunningTournaments(ctxFor(t))
		checkErr(t, "RunningTournaments of a new store", err, nil)
		if running == nil || len(running) != 0 {
			t.Errorf("RunningTournaments of a new store = %#v, want an empty list", running)
		}

		tr := tournament("t1", -100)
		checkErr(t, "CreateTournament", s.CreateTournament(ctxFor(t), tr), nil)
		if tr.Version != 1 {
			t.Errorf("version after create = %d, want 1", tr.Version)
		}
		checkErr(t, "CreateTournament while one runs", s.CreateTournament(ctxFor(t), tournament("t2", -100)), storage.ErrConflict)
		checkErr(t, "CreateTournament in another chat", s.CreateTournament(ctxFor(t), tournament("t3", -7)), nil)
		got, err := s.Tournament(ctxFor(t), -100)
		checkErr(t, "Tournament", err, nil)
		checkDeep(t, "stored tournament", got, tr)

		stale := got.Clone()
		got.Players[0].Results += "L"
		got.CardDirty = true
		checkErr(t, "UpdateTournament", s.UpdateTournament(ctxFor(t), got), nil)
		if got.Version != 2 {
			t.Errorf("version after update = %d, want 2", got.Version)
		}
		checkErr(t, "UpdateTournament from a stale version", s.UpdateTournament(ctxFor(t), stale), storage.ErrConflict)
		again, err := s.Tournament(ctxFor(t), -100)
		checkErr(t, "Tournament", err, nil)
		checkDeep(t, "tournament after a refused write", again, got)

		running, err = s.RunningTournaments(ctxFor(t))
		checkErr(t, "RunningTournaments", err, nil)
		checkDeep(t, "running tournaments", running, []int64{-100, -7})

		// Finished, its final standings still owed: still listed, and no
		// new one may replace it yet.
		again.Status, again.Receipt, again.FinalAt = storage.TournamentFinished, -42, at(31)
		checkErr(t, "UpdateTournament to finished", s.UpdateTournament(ctxFor(t), again), nil)
		running, err = s.RunningTournaments(ctxFor(t))
		checkErr(t, "RunningTournaments", err, nil)
		checkDeep(t, "running tournaments while a final is owed", running, []int64{-100, -7})
		checkErr(t, "CreateTournament while a final is owed", s.CreateTournament(ctxFor(t), tournament("t5", -100)), storage.ErrConflict)
		again.FinalShown = true
		checkErr(t, "UpdateTournament to final shown", s.UpdateTournament(ctxFor(t), again), nil)
		running, err = s.RunningTournaments(ctxFor(t))
		checkErr(t, "RunningTournaments", err, nil)
		checkDeep(t, "running tournaments after one finished", running, []int64{-7})

		// The next tournament replaces the finished one; a writer still
		// holding the old one (version 3) never lands on the new.
		next := tournament("t4", -100)
		checkErr(t, "CreateTournament after the last finished", s.CreateTournament(ctxFor(t), next), nil)
		if next.Version != 5 {
			t.Errorf("version of the next tournament = %d, want 5 (after the finished one's 4)", next.Version)
		}
		old := again.Clone()
		old.Version = 4
		checkErr(t, "UpdateTournament from the finished one", s.UpdateTournament(ctxFor(t), old), storage.ErrConflict)
		got, err = s.Tournament(ctxFor(t), -100)
		checkErr(t, "Tournament", err, nil)
		if got.ID != "t4" || got.Status != storage.TournamentRunning {
			t.Errorf("the chat's tournament is %s (%s), want t4 running", got.ID, got.Status)
		}
	})

	t.Run("OneWriterWins", func(t *testing.T) {
		s := newStore(t)
		tr := tournament("t1", -100)
		checkErr(t, "CreateTournament", s.CreateTournament(ctxFor(t), tr), nil)
		var wins atomic.Int32
		var wg sync.WaitGroup
		for i := range 8 {
			wg.Go(func() {
				c := tr.Clone()
				c.Players[0].Name = string(rune('A' + i))
				switch err := s.UpdateTournament(ctxFor(t), c); {
				case err == nil:
					wins.Add(1)
				case !isConflict(err):
					t.Errorf("UpdateTournament: %v", err)
				}
			})
		}
		wg.Wait()
		if n := wins.Load(); n != 1 {
			t.Errorf("%d of 8 writers from one version won, want 1", n)
		}
		var creators atomic.Int32
		for i := range 8 {
			wg.Go(func() {
				if err := s.CreateTournament(ctxFor(t), tournament("c"+string(rune('a'+i)), -5)); err == nil {
					creators.Add(1)
				} else if !isConflict(err) {
					t.Errorf("CreateTournament: %v", err)
				}
			})
		}
		wg.Wait()
		if n := creators.Load(); n != 1 {
			t.Errorf("%d of 8 creators in one chat won, want 1", n)
		}
	})
}

func isConflict(err error) bool { return errors.Is(err, storage.ErrConflict) }
