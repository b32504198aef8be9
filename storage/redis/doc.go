// Package redis is the production storage.Store: Redis through go-redis v9's
// UniversalClient, so one code path serves a plain server, Sentinel and
// Cluster, and any number of bot replicas can share the state.
//
// # Games: one key, one script
//
// A game is one hash, bashni:game:{id}, holding its version, whether it is
// active, the token of the last write and the Game as JSON. CreateGame and
// UpdateGame are Lua scripts on that one key: the update checks the stored
// version, refuses to reopen a finished game, and writes the new version and
// JSON, all in one atomic step. A script touches keys of one hash slot only,
// so it runs unchanged on a Cluster.
//
// Every write carries a random token stored with the game. go-redis resends
// a command whose reply was lost (a read timeout on a slow server); the
// script recognises its own token and answers "done" instead of "conflict",
// so a retried write is neither applied twice nor reported as lost. Taking a
// challenge and marking an update carry tokens for the same reason.
//
// # Indexes: hints that never miss
//
// The per-chat and per-player lists of active games and the deadline index
// are sorted sets in other slots than the games, so on a Cluster no script
// can change them together with a game. Rather than pretend otherwise (or
// put every key in one slot and lose what a Cluster is for), the indexes
// are hints with two guarantees, and every reader checks them against the
// games:
//
//   - Before a game is written, its entries are added (ZADD NX) and its
//     deadline entry only ever lowered (ZADD LT). Entries are removed only
//     after the game has been written finished, which is final. Hence an
//     index never misses an active game, and a deadline entry is never later
//     than the game's deadline. A crash between the two steps leaves at most
//     an entry too many or too early.
//
//   - ActiveGamesByChat, ActiveGamesByUser and DueGames load the games their
//     entries name and return only those that really belong: active, in that
//     chat, with that player, due. They delete entries of finished or moved
//     games, and move a too-early deadline entry to the game's real deadline
//     with a compare-and-set on the entry's score, so a reader never undoes a
//     newer writer's entry.
//
//   - A finished game that owes the players events is also hinted by each
//     of their receipts (receipt:{id}, a string that expires after a day),
//     set before the write; EndedGameByReceipt checks the game it names.
//
// The one remaining gap: a writer lowers the deadline entry, writes the game
// and then re-asserts the entry; if that process dies between the write and
// the re-assertion while a reader happens to move the same entry later, the
// entry can end up later than the game's deadline until the game is next
// written. Reindex, run when a bot or worker starts, closes it by re-adding
// the hints of every active game.
//
// The price is a few round trips per move (hints, script, hints) and one
// read per listed game; the indexes are small and the reads pipelined.
//
// # The rest
//
// Challenges are strings with Redis's own expiry (SET PXAT); a take is a
// script (get, delete, leave a receipt for a retry). Users are strings of
// JSON carrying their version ("v") and write token ("w"); PutUser's
// compare-and-set is a script that decodes the stored one (cjson), writes
// the new one and returns the old username, and the username index,
// another slot, is then pointed at the user: a hint checked on lookup. A
// leaderboard's rank (a sorted set, scored by negated rating with the user
// id as a member in sortable hex, so ties fall in id order) and its lines (a
// hash of JSON with the line's version and write token, as a user's) share
// the scope's hash tag and change together in SetStanding's compare-and-set
// script. Update marks
// are SET NX PX in a script.
//
// # Faults
//
// Open and OpenConfig set dial, read and write timeouts (2s, 1s, 1s by
// default) and allow a single retry, so calls to a dead server fail within
// about a second with an error wrapping storage.ErrUnavailable; the client
// reconnects on its own once the server is back, and scripts are reloaded
// automatically (EVALSHA falls back to EVAL). Redis 6.2 or newer is needed
// (ZADD LT, SET PXAT).
package redis
