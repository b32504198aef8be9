package storagetest

import (
	"testing"
	"time"

	"github.com/bashni/bashni/storage"
)

// Fill writes one record of every kind into s, as a store's durability test
// does before a restart, and returns check, which fails t unless a store
// (the same one reopened, or one on the restarted server) holds exactly that.
func Fill(t *testing.T, s storage.Store) (check func(t *testing.T, s storage.Store)) {
	t.Helper()
	g := game("durable", -100, 1, 2)
	g.RemindAt = at(5)
	mustCreate(t, s, g)
	g.Moves = []string{"c3-d4", "f6-e5"}
	mustUpdate(t, s, g)
	done := game("done", -100, 1, 2)
	mustCreate(t, s, done)
	done.Status, done.Result = storage.GameFinished, "1-0"
	mustUpdate(t, s, done)

	c := challenge("durable", later())
	checkErr(t, "PutChallenge", s.PutChallenge(ctxFor(t), c), nil)
	u := user(1, "Durable")
	checkErr(t, "PutUser", s.PutUser(ctxFor(t), u), nil)
	st := storage.Standing{UserID: 1, Name: "d", Rating: 1555, Games: 3}
	checkErr(t, "SetStanding", s.SetStanding(ctxFor(t), -100, &st), nil)
	first, err := s.MarkUpdate(ctxFor(t), 77, time.Hour)
	if err != nil || !first {
		t.Fatalf("MarkUpdate(77): got %v, %v; want true, no error", first, err)
	}
	wantGame, wantDone := g.Clone(), done.Clone()

	return func(t *testing.T, s storage.Store) {
		t.Helper()
		checkDeep(t, "game", mustGame(t, s, "durable"), wantGame)
		checkDeep(t, "finished game", mustGame(t, s, "done"), wantDone)
		ids, err := s.ActiveGamesByChat(ctxFor(t), -100)
		checkIDs(t, "ActiveGamesByChat", ids, err, "durable")
		ids, err = s.ActiveGamesByUser(ctxFor(t), 2)
		checkIDs(t, "ActiveGamesByUser", ids, err, "durable")
		ids, err = s.DueGames(ctxFor(t), at(5), 10)
		checkIDs(t, "DueGames", ids, err, "durable")
		gotC, err := s.Challenge(ctxFor(t), "durable")
		checkErr(t, "Challenge", err, nil)
		checkDeep(t, "challenge", gotC, c)
		gotU, err := s.UserByUsername(ctxFor(t), "durable")
		checkErr(t, "UserByUsername", err, nil)
		checkDeep(t, "user", gotU, u)
		top, err := s.Top(ctxFor(t), -100, 5)
		checkErr(t, "Top", err, nil)
		checkDeep(t, "Top", top, []storage.Standing{st})
		first, err := s.MarkUpdate(ctxFor(t), 77, time.Hour)
		if err != nil || first {
			t.Errorf("MarkUpdate(77) again: got %v, %v; want false, no error", first, err)
		}
	}
}

// AppendMove is what play does with a move: read the game, append the move,
// compare-and-set, and on a conflict read again and retry. Store tests use it
// to show that new writes work after a fault.
func AppendMove(t *testing.T, s storage.Store, id, move string) {
	t.Helper()
	if err := appendMove(t, s, id, move); err != nil {
		t.Fatal(err)
	}
}
