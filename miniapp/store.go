package miniapp

import (
	"context"

	"github.com/bashni/bashni/play"
	"github.com/bashni/bashni/storage"
)

// watchedStore is a play.Store that tells the broker after every write of
// a game, whoever made it: a move in the app, a tap on the picker, a typed
// move, the AI, a draw offer, a win on time.
type watchedStore struct {
	play.Store
	broker *Broker
}

// WatchStore wraps st so that each successful UpdateGame is announced by
// broker. The service must be built over the wrapped store.
func WatchStore(st play.Store, broker *Broker) play.Store {
	return watchedStore{Store: st, broker: broker}
}

func (s watchedStore) UpdateGame(ctx context.Context, g *storage.GameRecord) error {
	if err := s.Store.UpdateGame(ctx, g); err != nil {
		return err
	}
	// Not cancelled with the caller: the write is done, and the boards
	// should hear of it even if the request that made it has gone.
	s.broker.Changed(context.WithoutCancel(ctx), g.ID)
	return nil
}
