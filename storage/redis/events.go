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

// owedChannel is the pub/sub channel on which "game id owes the players
// what a change stored" goes to the bot replicas, from a process that shows
// nothing itself (`bashni worker`, play.WithWake). Only a wake-up: the
// event is stored with the game, and a replica's clock tick shows what a
// lost message did not.
func (s *Store) owedChannel() string { return s.prefix + "owed" }

// Publish announces that game id has changed to every Listen, in every
// process on this Redis.
func (s *Store) Publish(ctx context.Context, gameID string) error {
	return s.publish(ctx, s.changesChannel(), gameID)
}

// Listen subscribes to the changes, calls ready once subscribed, then fn
// with each game id announced, until ctx ends. go-redis re-subscribes by
// itself after a lost connection.
func (s *Store) Listen(ctx context.Context, ready func(), fn func(gameID string)) error {
	return s.listen(ctx, s.changesChannel(), ready, fn)
}

// PublishOwed wakes every ListenOwed: game id owes the players what a
// change stored.
func (s *Store) PublishOwed(ctx context.Context, gameID string) error {
	return s.publish(ctx, s.owedChannel(), gameID)
}

// ListenOwed is Listen for the wake-ups of PublishOwed.
func (s *Store) ListenOwed(ctx context.Context, ready func(), fn func(gameID string)) error {
	return s.listen(ctx, s.owedChannel(), ready, fn)
}

func (s *Store) publish(ctx context.Context, channel, gameID string) error {
	if err := s.rdb.Publish(ctx, channel, gameID).Err(); err != nil {
		return fmt.Errorf("redis: publish: %w", err)
	}
	return nil
}

func (s *Store) listen(ctx context.Context, channel string, ready func(), fn func(gameID string)) error {
	sub := s.rdb.Subscribe(ctx, channel)
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
