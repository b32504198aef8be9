package manners

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/bashni/bashni/internal/testkit"
	"github.com/bashni/bashni/play"
	"github.com/bashni/bashni/storage/bolt"
	"github.com/bashni/bashni/storage/redis"
	"github.com/bashni/bashni/storage/redis/redistest"
)

var (
	alice = play.Player{UserID: 1, Name: "Alice"}
	bob   = play.Player{UserID: 2, Name: "Bob"}
	robot = play.Player{Name: "Bot", AILevel: 1}
)

// replica is one process: the core's service with Answer wired as its
// move hook, as cmd/bashni wires it.
type replica struct {
	core *play.Service
	*Service
}

func newReplica(st play.Store, now func() time.Time) *replica {
	c := play.New(st, nil, play.DefaultConfig, now)
	s := New(c)
	c.AfterMove(s.Answer)
	return &replica{core: c, Service: s}
}

// stores open a store of each kind for replicas to share.
var stores = map[string]func(t *testing.T, now func() time.Time) play.Store{
	"bolt": func(t *testing.T, now func() time.Time) play.Store {
		st, err := bolt.Open(filepath.Join(t.TempDir(), "bashni.db"), now)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		return st
	},
	"redis": func(t *testing.T, now func() time.Time) play.Store {
		db := redistest.New(t)
		st := redis.New(db.Client(t), now, redis.WithPrefix(db.Prefix))
		t.Cleanup(func() { st.Close() })
		return st
	},
}

// newTestReplica is a replica on a fresh bolt store, its clock starting
// now.
func newTestReplica(t *testing.T) *replica {
	t.Helper()
	clock := testkit.NewClock(time.Now())
	return newReplica(stores["bolt"](t, clock.Now), clock.Now)
}

// start begins a game of white and black in a group, its spec changed by
// with (nil: as is).
func (r *replica) start(t *testing.T, white, black play.Player, with func(*play.GameSpec)) *play.Game {
	t.Helper()
	spec := play.GameSpec{White: white, Black: black, ChatID: -100, Rated: true}
	if with != nil {
		with(&spec)
	}
	g, err := r.core.StartGame(context.Background(), spec)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// move plays text for user in game id, failing the test if refused.
func (r *replica) move(t *testing.T, id string, user int64, text string) *play.Outcome {
	t.Helper()
	o, err := r.core.Move(context.Background(), id, user, play.AnyPly, text)
	if err != nil {
		t.Fatalf("move %s by %d: %v", text, user, err)
	}
	return o
}

// game reads game id as stored.
func (r *replica) game(t *testing.T, id string) *play.Game {
	t.Helper()
	g, err := r.core.Game(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return g
}
