package miniapp

import (
	"net/http"
	"testing"

	"github.com/bashni/bashni/storage/redis"
	"github.com/bashni/bashni/storage/redis/redistest"
)

var _ Bus = (*redis.Store)(nil)

// Two replicas on one Redis, each with its own connection: a board open on
// one hears a move made through the other.
func TestLiveUpdatesAcrossReplicas(t *testing.T) {
	db := redistest.New(t)
	st1 := redis.New(db.Client(t), sharedClock.Now, redis.WithPrefix(db.Prefix))
	st2 := redis.New(db.Client(t), sharedClock.Now, redis.WithPrefix(db.Prefix))
	h := newHarness(t, st1, st1, st2)
	watch := h.events(h.reps[1], h.initData(h.bob))
	nextState(t, watch, 0)
	var st state
	if code := h.call(h.reps[0], "POST", "/api/games/"+h.gameID+"/move", h.initData(h.alice), `{"ply":0,"move":"c3-d4"}`, &st); code != http.StatusOK {
		t.Fatalf("move on replica 0: %d", code)
	}
	if got := nextState(t, watch, 1); got.Last == nil || got.Last.Text != "c3-d4" {
		t.Errorf("replica 1's board: last %+v; want c3-d4", got.Last)
	}
	// And back: Bob moves on replica 1, Alice's board on replica 0 hears it.
	aliceWatch := h.events(h.reps[0], h.initData(h.alice))
	nextState(t, aliceWatch, 1)
	if code := h.call(h.reps[1], "POST", "/api/games/"+h.gameID+"/move", h.initData(h.bob), `{"ply":1,"move":"f6-g5"}`, &st); code != http.StatusOK {
		t.Fatalf("move on replica 1: %d", code)
	}
	nextState(t, aliceWatch, 2)
	h.waitCard("f6-g5")
}
