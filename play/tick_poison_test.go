package play

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/bashni/bashni/ai"
	"github.com/bashni/bashni/storage"
)

// poisonStore fails every write of one game, as a record the store can no
// longer take would.
type poisonStore struct {
	Store
	id string
}

func (p *poisonStore) UpdateGame(ctx context.Context, g *storage.GameRecord) error {
	if g.ID == p.id {
		return errors.New("storage: the record cannot be written")
	}
	return p.Store.UpdateGame(ctx, g)
}

// A game whose deadline cannot be handled does not hold back the games
// due after it: the tick goes on to them and reports the one that failed
// (before, every tick stopped at it, so the others never timed out).
func TestATickGoesPastAGameItCannotHandle(t *testing.T) {
	_, clock, st := newTestService(t)
	poison := &poisonStore{Store: st}
	s := New(poison, NewEnginePool(1, 1, ai.Limits{Nodes: 2000}), DefaultConfig, clock.Now)
	ctx := t.Context()
	first := startGame(t, s)
	clock.Advance(time.Minute)
	second := startGame(t, s)
	poison.id = first.ID()
	clock.Advance(DefaultConfig.TimeoutAfter + time.Hour)
	evs, err := s.Tick(ctx, 10)
	if err == nil {
		t.Errorf("the tick hid the failure of game %s", first.ID())
	}
	var seen bool
	for _, ev := range evs {
		seen = seen || ev.Game != nil && ev.Game.ID() == second.ID()
	}
	if !seen {
		t.Errorf("events %+v (%v): nothing for game %s, due after the failing one", evs, err, second.ID())
	}
}
