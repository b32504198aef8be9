package redis_test

import (
	"strings"
	"testing"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/bashni/bashni/storage"
	"github.com/bashni/bashni/storage/redis"
	"github.com/bashni/bashni/storage/redis/redistest"
	"github.com/bashni/bashni/storage/storagetest"
)

// The whole suite through a Cluster client against a server in cluster
// mode, which refuses any script or transaction spanning hash slots: the
// proof that the key layout is Cluster-ready, not a claim.
func TestConformanceCluster(t *testing.T) {
	t.Parallel()
	srv := redistest.Start(t, redistest.Cluster())

	// Guard: the test is worth something only if the server does refuse.
	c := goredis.NewClusterClient(&goredis.ClusterOptions{Addrs: []string{srv.Addr()}})
	defer c.Close()
	err := c.Eval(t.Context(), "return redis.call('MSET', KEYS[1], 1, KEYS[2], 2)", []string{"{a}x", "{b}y"}).Err()
	if err == nil || !strings.Contains(err.Error(), "CROSSSLOT") {
		t.Fatalf("a cross-slot script on the cluster: got %v, want a CROSSSLOT error", err)
	}

	storagetest.Run(t, func(t *testing.T, now func() time.Time) storage.Store {
		// Several addresses give a Cluster client; the same node twice will do.
		cfg := redis.Config{Addrs: []string{srv.Addr(), srv.Addr()}}
		s, err := redis.OpenConfig(t.Context(), cfg, now, redis.WithPrefix(srv.DB(t).Prefix))
		if err != nil {
			t.Fatalf("OpenConfig(cluster): %v", err)
		}
		t.Cleanup(func() { s.Close() })
		if _, ok := s.Client().(*goredis.ClusterClient); !ok {
			t.Fatalf("OpenConfig with two addresses: got a %T, want a *redis.ClusterClient", s.Client())
		}
		return s
	})
}

// Through Sentinel: the client asks the Sentinel where the master is.
func TestSentinel(t *testing.T) {
	t.Parallel()
	master := redistest.Start(t)
	sentinel := redistest.StartSentinel(t, master, "bashni")
	s, err := redis.OpenConfig(t.Context(), redis.Config{Addrs: []string{sentinel.Addr()}, MasterName: "bashni"}, time.Now)
	if err != nil {
		t.Fatalf("OpenConfig(sentinel): %v", err)
	}
	t.Cleanup(func() { s.Close() })
	check := storagetest.Fill(t, s)
	check(t, s)
	v, err := master.DB(t).Client(t).HGet(t.Context(), "bashni:game:{durable}", "v").Result()
	if err != nil || v != "2" {
		t.Errorf("game version on the master itself: got %q, %v; want \"2\"", v, err)
	}
}
