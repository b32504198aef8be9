// Package redistest gives tests a real Redis, for the storage/redis tests and
// for any package (the bot's end-to-end tests) that wants the production
// store in a test.
//
// New returns a private corner of a Redis: with REDIS_URL set, that server
// with a key prefix of the test's own (its keys are deleted afterwards);
// otherwise a throwaway redis-server started from PATH on a free loopback
// port, killed when the test ends. A missing redis-server fails the test
// with instructions rather than skipping it, so storage tests cannot pass by
// testing nothing.
//
// Start always starts a throwaway server; its Stop and Restart take it away
// and bring it back on the same port, for fault tests. With Persistent the
// server writes an append-only file with fsync on every write, so data
// survives even Stop, which kills the process without warning.
package redistest
