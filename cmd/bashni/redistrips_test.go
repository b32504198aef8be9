package main

import (
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
	goredis "github.com/redis/go-redis/v9"

	"github.com/bashni/bashni/storage/redis/redistest"
)

// A command is one round trip under its name, a pipeline one under
// "pipeline" and its first command's name, whatever it holds.
func TestRedisTripsCountRoundTrips(t *testing.T) {
	// One connection: a second one's HELLO would be a round trip too.
	client := goredis.NewClient(&goredis.Options{Addr: redistest.Start(t).Addr(), PoolSize: 1})
	t.Cleanup(func() { _ = client.Close() })
	reg := prometheus.NewRegistry()
	trips := newRedisTrips(reg)
	client.AddHook(trips)
	ctx := t.Context()
	key := "k"
	client.Set(ctx, key, "1", 0) // dials first: a connection's HELLO is counted too
	count := func(command string) float64 { return testutil.ToFloat64(trips.trips.WithLabelValues(command)) }
	before := map[string]float64{}
	for _, c := range []string{"set", "get", "pipeline get", "incr"} {
		before[c] = count(c)
	}
	client.Set(ctx, key, "1", 0)
	client.Get(ctx, key)
	client.Get(ctx, key)
	pipe := client.Pipeline()
	pipe.Get(ctx, key)
	pipe.Incr(ctx, key)
	if _, err := pipe.Exec(ctx); err != nil {
		t.Fatal(err)
	}
	for command, want := range map[string]float64{"set": 1, "get": 2, "pipeline get": 1, "incr": 0} {
		if got := count(command) - before[command]; got != want {
			t.Errorf("%s: %v round trips, want %v", command, got, want)
		}
	}
}
