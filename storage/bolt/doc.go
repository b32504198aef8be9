// Package bolt is the embedded storage.Store: one bbolt file, so a single
// `bashni bot` runs with no database server at all.
//
// bbolt gives serialisable read-write transactions with a single writer, and
// every write here is one transaction: a game and all of its index entries
// change together or not at all, and a crash (or kill -9) at any moment leaves
// the file as of the last committed transaction. The compare-and-set of
// UpdateGame (and PutUser's, SetStanding's, PutPuzzleStats') is therefore a plain
// read-check-write inside that transaction.
//
// Each record kind has its own bucket of JSON values. Indexes are buckets of
// sortable keys with empty values, so listing is a cursor walk in key order.
// The buckets of games, challenges, users and update marks (those of the
// outbox, polls, reviews and each feature are named in their own files):
//
//	games            id                          -> Game JSON
//	chat_games       chat | created ms | id      -> (active games per chat)
//	user_games       user | created ms | id      -> (active games per human)
//	deadlines        deadline | id               -> (active games with a deadline)
//	challenges       id                          -> Challenge JSON
//	challenge_expiry expiry | id                 -> (for sweeping)
//	users            user                        -> User JSON
//	usernames        lower-case username         -> user
//	standings        scope | user                -> Standing JSON
//	ranks            scope | ^rating | user      -> (leaderboard order)
//	updates          update id                   -> expiry
//	update_expiry    expiry | update id          -> (for sweeping)
//	game_expiry      expiry | game id            -> (finished games, for sweeping)
//	receipts         receipt | game id           -> (finished games owing an event under it)
//
// Integers are big-endian with the sign bit flipped and times are seconds
// then nanoseconds, so byte order is numeric order. Expired challenges and
// update marks are treated as absent when read and swept, a bounded number at
// a time, by later writes of the same kind.
//
// bbolt locks the file for one process. Open waits for the lock only for a
// while (one second) and then fails, so a second bot started on the same
// file says so instead of hanging.
package bolt
