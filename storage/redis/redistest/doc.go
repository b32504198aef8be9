// Package redistest gives tests a real Redis, for the storage/redis tests and
// for any package (the bot's end-to-end tests) that wants the production
// store in a test:
//
//	db := redistest.New(t)
//	st := redis.New(db.Client(t), redis.WithPrefix(db.Prefix)) // storage/redis
//
// New returns a private corner of a Redis: with REDIS_URL set, that server
// with a key prefix of the test's own (its keys are deleted afterwards);
// otherwise a throwaway redis-server started from PATH on a free loopback
// port, killed when the test ends. A missing redis-server fails the test
// with instructions rather than skipping it, so tests cannot pass by testing
// nothing. DB.Fresh hands out another prefix on the same server, so many
// subtests can share one server and each start empty.
//
// Start always starts a throwaway server. Its Stop and Restart take it away
// and bring it back on the same port, for fault tests; with Persistent the
// server writes an append-only file synced on every write, so data survives
// even Stop, which kills the process without warning. Cluster starts a
// one-node Redis Cluster, and StartSentinel a Sentinel watching a server,
// so that both topologies can be tested for real.
package redistest
