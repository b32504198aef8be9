package main

import (
	"context"

	"github.com/prometheus/client_golang/prometheus"
	goredis "github.com/redis/go-redis/v9"
)

// redisTrips counts the round trips this process makes to Redis, by
// command (a script by "evalsha", a pipeline or MULTI block as
// "pipeline" and its first command's name): what a move costs the shared store, seen from the client.
// Redis's own INFO commandstats counts the commands its scripts call too,
// so it cannot tell a round trip from a script's inner GET.
type redisTrips struct {
	trips *prometheus.CounterVec
}

var _ goredis.Hook = redisTrips{}

func newRedisTrips(reg prometheus.Registerer) redisTrips {
	t := redisTrips{trips: prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "bashni_redis_round_trips_total", Help: "Round trips to Redis, by command (a pipeline or MULTI block as pipeline and its first command).",
	}, []string{"command"})}
	reg.MustRegister(t.trips)
	return t
}

func (t redisTrips) DialHook(next goredis.DialHook) goredis.DialHook { return next }

func (t redisTrips) ProcessHook(next goredis.ProcessHook) goredis.ProcessHook {
	return func(ctx context.Context, cmd goredis.Cmder) error {
		t.trips.WithLabelValues(cmd.Name()).Inc()
		return next(ctx, cmd)
	}
}

func (t redisTrips) ProcessPipelineHook(next goredis.ProcessPipelineHook) goredis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []goredis.Cmder) error {
		name := "pipeline"
		if len(cmds) > 0 {
			name += " " + cmds[0].Name() // "pipeline client": a new connection's setup
		}
		t.trips.WithLabelValues(name).Inc()
		return next(ctx, cmds)
	}
}

// countTrips adds the round-trip counter to the store's client, if the
// store is Redis.
func countTrips(store Store, reg prometheus.Registerer) {
	if c, ok := store.(interface {
		Client() goredis.UniversalClient
	}); ok {
		c.Client().AddHook(newRedisTrips(reg))
	}
}
