package storagetest

import (
	"slices"
	"testing"

	"github.com/bashni/bashni/storage"
)

// testVersus: a challenge and a group's record are written only from the
// version read; every group with a record is listed.
func testVersus(t *testing.T, newStore func(t *testing.T) storage.Store) {
	s := newStore(t)
	_, err := s.VersusChallenge(ctxFor(t), "abc")
	checkErr(t, "VersusChallenge never stored", err, storage.ErrNotFound)
	_, err = s.VersusChat(ctxFor(t), -5)
	checkErr(t, "VersusChat never stored", err, storage.ErrNotFound)
	chats, err := s.VersusChats(ctxFor(t))
	checkErr(t, "VersusChats of a new store", err, nil)
	if chats == nil || len(chats) != 0 {
		t.Errorf("VersusChats of a new store = %#v, want an empty list", chats)
	}

	c := &storage.VersusChallenge{Code: "abc", From: storage.VersusSide{Chat: -5, Title: "Club", Lang: "ru"}, By: 7, CreatedAt: at(0), ExpiresAt: at(60)}
	checkErr(t, "PutVersusChallenge", s.PutVersusChallenge(ctxFor(t), c), nil)
	if c.Version != 1 {
		t.Errorf("version after the first write = %d, want 1", c.Version)
	}
	stale := *c
	stale.Version = 0
	checkErr(t, "PutVersusChallenge from no version over one", s.PutVersusChallenge(ctxFor(t), &stale), storage.ErrConflict)
	c.Game = "vsabc"
	checkErr(t, "PutVersusChallenge accepted", s.PutVersusChallenge(ctxFor(t), c), nil)
	got, err := s.VersusChallenge(ctxFor(t), "abc")
	checkErr(t, "VersusChallenge", err, nil)
	checkDeep(t, "stored challenge", got, c)
	if err := s.PutVersusChallenge(ctxFor(t), &storage.VersusChallenge{}); err == nil {
		t.Error("PutVersusChallenge without a code: no error")
	}

	a := &storage.VersusChat{ID: -5, Title: "Club", Rating: 1500, RD: 350, Vol: 0.06, Season: 3, Points: 1.5, Played: 2,
		Last: &storage.VersusSeason{Season: 2, Points: 4, Played: 5, Rating: 1620}, Waiting: at(3),
		History: []storage.VersusMatch{{Game: "g1", Opponent: "Office", Score: 1, At: at(1)}}, Counted: []string{"g1"}}
	checkErr(t, "PutVersusChat", s.PutVersusChat(ctxFor(t), a), nil)
	old := a.Clone()
	a.Points++
	checkErr(t, "PutVersusChat again", s.PutVersusChat(ctxFor(t), a), nil)
	checkErr(t, "PutVersusChat from a stale version", s.PutVersusChat(ctxFor(t), old), storage.ErrConflict)
	b := &storage.VersusChat{ID: -6, Title: "Office"}
	checkErr(t, "PutVersusChat of another group", s.PutVersusChat(ctxFor(t), b), nil)
	gotChat, err := s.VersusChat(ctxFor(t), -5)
	checkErr(t, "VersusChat", err, nil)
	checkDeep(t, "stored group", gotChat, a)
	chats, err = s.VersusChats(ctxFor(t))
	checkErr(t, "VersusChats", err, nil)
	var ids []int64
	for _, c := range chats {
		ids = append(ids, c.ID)
	}
	slices.Sort(ids)
	checkDeep(t, "groups listed", ids, []int64{-6, -5})
}
