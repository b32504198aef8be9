// Package storagetest is the conformance suite every storage.Store must
// pass. It is the executable form of the contract written on storage.Store:
// round-trips, not-found and conflict errors, indexes that follow a game's
// status and deadline, expiring challenges and update marks, and the races
// that matter in a group chat (many taps on one game at once).
//
// A store's own test calls Run with a constructor that returns a fresh, empty
// store for each subtest; subtests run in parallel, so a store must not share
// state between the instances it hands out.
package storagetest
