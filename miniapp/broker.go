package miniapp

import (
	"context"
	"log/slog"
	"sync"
)

// Bus carries "game id changed" between replicas (storage/redis: pub/sub).
// Publish sends an id to every listener, this process's too. Listen calls
// ready once it is subscribed, then fn with each id heard, until ctx ends.
type Bus interface {
	Publish(ctx context.Context, gameID string) error
	Listen(ctx context.Context, ready func(), fn func(gameID string)) error
}

// Broker fans "game changed" out to the boards open in this process. With
// a Bus it also carries the news to and from the other replicas.
type Broker struct {
	mu   sync.Mutex
	subs map[string]map[chan struct{}]struct{}
	bus  Bus
	log  *slog.Logger
}

// NewBroker returns a broker; bus may be nil (one process, e.g. on bbolt).
func NewBroker(bus Bus, log *slog.Logger) *Broker {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Broker{subs: map[string]map[chan struct{}]struct{}{}, bus: bus, log: log}
}

// Run listens on the bus until ctx ends; ready (if not nil) is called once
// the subscription is in place. Without a bus it calls ready and waits.
func (b *Broker) Run(ctx context.Context, ready func()) error {
	if ready == nil {
		ready = func() {}
	}
	if b.bus == nil {
		ready()
		<-ctx.Done()
		return nil
	}
	return b.bus.Listen(ctx, ready, b.notifyLocal)
}

// Changed says game id has changed: every open board of it, in every
// replica, reads it again.
func (b *Broker) Changed(ctx context.Context, id string) {
	if b.bus == nil {
		b.notifyLocal(id)
		return
	}
	if err := b.bus.Publish(ctx, id); err != nil {
		// The boards here still hear it; others catch up on reconnect.
		b.log.Warn("miniapp: publishing a change failed", "game", id, "err", err)
		b.notifyLocal(id)
	}
}

// Subscribe returns a channel that receives a value after each change of
// game id, and a function that ends the subscription. The channel holds
// one pending value: changes that come while one waits are merged, since
// the board reads the whole game anyway.
func (b *Broker) Subscribe(id string) (<-chan struct{}, func()) {
	ch := make(chan struct{}, 1)
	b.mu.Lock()
	if b.subs[id] == nil {
		b.subs[id] = map[chan struct{}]struct{}{}
	}
	b.subs[id][ch] = struct{}{}
	b.mu.Unlock()
	return ch, func() {
		b.mu.Lock()
		delete(b.subs[id], ch)
		if len(b.subs[id]) == 0 {
			delete(b.subs, id)
		}
		b.mu.Unlock()
	}
}

func (b *Broker) notifyLocal(id string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for ch := range b.subs[id] {
		select {
		case ch <- struct{}{}:
		default: // one is pending already
		}
	}
}
