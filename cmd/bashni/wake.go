package main

import (
	"context"
	"log/slog"
	"time"

	"github.com/bashni/bashni/bot"
	"github.com/bashni/bashni/play"
	redisstore "github.com/bashni/bashni/storage/redis"
)

// A `bashni worker` makes the AI moves that bot replicas left owed (their
// claim ran out: a crash, or no worker to think for them) and shows
// nothing itself: it stores each move with its event due at once and
// wakes the bot replicas on a Redis channel; the replica whose claim of
// the event wins shows it (bot.Woken). The stored event is the truth: a
// wake-up missed (a replica starting, Redis reconnecting) is shown by the
// clock's next tick. On bbolt there is no worker: the store is one
// process's file, and `bashni worker` refuses to run without Redis.

// owedBus is the store's wake-up channel (storage/redis).
type owedBus interface {
	PublishOwed(ctx context.Context, gameID string) error
	ListenOwed(ctx context.Context, ready func(), fn func(gameID string)) error
}

var _ owedBus = (*redisstore.Store)(nil)

// wakeReplicas is the worker's play.WithWake: each change it stores is
// announced to the bot replicas.
func wakeReplicas(bus owedBus, logger *slog.Logger) play.Option {
	return play.WithWake(func(ctx context.Context, gameID string) {
		ctx, cancel := context.WithTimeout(ctx, 3*time.Second)
		defer cancel()
		if err := bus.PublishOwed(ctx, gameID); err != nil {
			logger.Warn("bot replicas not woken; their clock shows the move", "game", gameID, "err", err)
		}
	})
}

// listenOwed hears the workers' wake-ups and has b show what each game
// owes, until ctx ends. A subscription that fails (Redis away) is tried
// again; go-redis itself re-subscribes after a lost connection.
func listenOwed(ctx context.Context, bus owedBus, b *bot.Bot, logger *slog.Logger) {
	for wait := time.Second; ctx.Err() == nil; wait = min(2*wait, 30*time.Second) {
		err := bus.ListenOwed(ctx, func() { wait = time.Second }, func(id string) { b.Woken(ctx, id) })
		if err == nil || ctx.Err() != nil {
			return
		}
		logger.Warn("not hearing the workers' wake-ups; the clock shows their moves", "err", err, "retry_in", wait)
		select {
		case <-ctx.Done():
		case <-time.After(wait):
		}
	}
}
