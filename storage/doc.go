// Package storage keeps Bashni's state (games, challenges, users,
// leaderboards, and what the features built on games keep) behind one
// contract, Store, so that nothing above it knows whether the state lives
// in Redis (package storage/redis, for replicas and production) or in a
// single bbolt file (package storage/bolt, the embedded default). Store is
// the whole contract, for the conformance suite and the wiring; a consumer
// names the smaller interfaces it needs (Outbox, Polls, Chats, a feature's
// own port).
//
// The promise every Store keeps is that a game is never lost, never
// half-written and never moved twice:
//
//   - UpdateGame is a compare-and-set on GameRecord.Version. Of any number of
//     writers holding the same version exactly one succeeds; the others get
//     ErrConflict, nothing changes for them, and they reload and decide again.
//     PutUser is the same on User.Version, so two changes to one person
//     (two games counted, a setting and a puzzle) never lose one another,
//     and SetStanding on Standing.Version, so two games of one player
//     counted at once both stay in a leaderboard line.
//   - A game and the indexes that find it (active games per chat and per
//     player, games with a deadline) are written together, so a lookup never
//     misses an active game. How each store achieves that is described in its
//     own package documentation.
//   - A dead or slow backend surfaces as an error wrapping ErrUnavailable, so
//     the bot can tell people to try again shortly instead of guessing.
//
// Records are plain structs stored as JSON, so a field added later is simply
// absent (zero) in older records and no migration is needed. Position and move
// texts are kept as the strings the rules package produces; storage does not
// interpret them.
//
// The conformance suite in storage/storagetest runs against both stores.
package storage
