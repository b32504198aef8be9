package redis

import (
	"context"
	"fmt"
)

// changesChannel is the pub/sub channel on which "game id changed" goes to
// every replica (the live boards of the Mini App listen to it). Pub/sub
// keeps nothing: a replica that was not listening has missed the news, and
// its boards read the game afresh when they reconnect.
func (s *Store) changesChannel() string { return s.prefix + "changed" }

// Publish announces that game id has changed to every Listen, in every
// process on this Redis.
func (s *Store) Publish(ctx context.Context, gameID string) error {
	if err := s.rdb.Publish(ctx, s.changesChannel(), gameID).Err(); err != nil {
		return fmt.Errorf("redis: publish: %w", err)
	}
	return nil
}

// Listen subscribes to the changes, calls ready once subscribed, then fn
// with each game id announced, until ctx ends. go-redis re-subscribes by
// itself after a lost connection.
func (s *Store) Listen(ctx context.Context, ready func(), fn func(gameID string)) error {
	sub := s.rdb.Subscribe(ctx, s.changesChannel())
	defer sub.Close()
	// Receive waits for the subscription's confirmation, so a Publish made
	// after ready is heard.
	if _, err := sub.Receive(ctx); err != nil {
		return fmt.Errorf("redis: subscribe: %w", err)
	}
	ready()
	ch := sub.Channel()
	for {
		select {
		case <-ctx.Done():
			return nil
		case m, ok := <-ch:
			if !ok {
				return nil
			}
			fn(m.Payload)
		}
	}
}
