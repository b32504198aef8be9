package team

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/bashni/bashni/ai"
	"github.com/bashni/bashni/internal/testkit"
	"github.com/bashni/bashni/play"
	"github.com/bashni/bashni/storage"
	"github.com/bashni/bashni/storage/bolt"
	"github.com/bashni/bashni/storage/redis"
	"github.com/bashni/bashni/storage/redis/redistest"
)

var (
	alice = storage.Player{UserID: 1, Name: "Alice"}
	bob   = storage.Player{UserID: 2, Name: "Bob"}
	carol = storage.Player{UserID: 3, Name: "Carol"}
)

// testStore is what a test's service runs on: the core's store and the
// polls'.
type testStore interface {
	play.Store
	Store
}

// core names the core's service, so that testService can embed it beside
// this package's.
type core = play.Service

// testService is one replica: the core's service with the votes wired in
// as cmd/bashni wires them (CloseDue as the core's deadline), and the
// store, both of whose methods the tests call.
type testService struct {
	*Service
	*core
	store testStore
}

// newReplica wires a replica on st.
func newReplica(st testStore, thinker play.Thinker, now func() time.Time) *testService {
	c := play.New(st, thinker, play.DefaultConfig, now)
	s := New(c, st, nil)
	c.AddDeadline(s.CloseDue)
	return &testService{Service: s, core: c, store: st}
}

// newTestService is a replica on a fresh bolt store, with a small engine,
// its clock starting now.
func newTestService(t *testing.T) (*testService, *testkit.Clock, testStore) {
	t.Helper()
	clock := testkit.NewClock(time.Now())
	st, err := bolt.Open(filepath.Join(t.TempDir(), "bashni.db"), clock.Now)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return newReplica(st, play.NewEnginePool(1, 1, ai.Limits{Nodes: 2000}), clock.Now), clock, st
}

// replicaStores open a store of each kind for replicas to share.
var replicaStores = map[string]func(t *testing.T, now func() time.Time) testStore{
	"bolt": func(t *testing.T, now func() time.Time) testStore {
		st, err := bolt.Open(filepath.Join(t.TempDir(), "bashni.db"), now)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		return st
	},
	"redis": func(t *testing.T, now func() time.Time) testStore {
		db := redistest.New(t)
		st := redis.New(db.Client(t), now, redis.WithPrefix(db.Prefix))
		t.Cleanup(func() { st.Close() })
		return st
	},
}

// startGame opens a challenge from alice (White) to anyone, accepted by
// bob: a game not played by vote.
func startGame(t *testing.T, s *testService) *play.Game {
	t.Helper()
	ctx := context.Background()
	c, err := s.Challenge(ctx, play.ChallengeRequest{ChatID: -100, From: alice, Color: play.ColorWhite})
	if err != nil {
		t.Fatal(err)
	}
	g, err := s.Accept(ctx, c.ID, bob, "bob")
	if err != nil {
		t.Fatal(err)
	}
	return g
}
