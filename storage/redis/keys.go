package redis

import (
	"strconv"
	"time"
)

// Keys put the part that scopes a multi-key operation in braces, the hash
// tag, so that on a Cluster those keys live in one slot. Only one game's
// key, and one leaderboard's two keys, are ever written by one script or
// transaction; every other key is read and written on its own.

// gameKey is a hash: v (version), a ("1" active, "0" finished), w (token of
// the last write), d (the Game as JSON).
func (s *Store) gameKey(id string) string { return s.prefix + "game:{" + id + "}" }

// chatGamesKey and userGamesKey are sorted sets of active game ids scored by
// creation time in milliseconds. deadlinesKey is a sorted set of active game
// ids scored by deadline in milliseconds. All three are hints: see doc.go.
func (s *Store) chatGamesKey(chat int64) string {
	return s.prefix + "chat:{" + strconv.FormatInt(chat, 10) + "}:games"
}

func (s *Store) userGamesKey(user int64) string {
	return s.prefix + "user:{" + strconv.FormatInt(user, 10) + "}:games"
}

func (s *Store) deadlinesKey() string { return s.prefix + "deadlines" }

// challengeKey is a string (Challenge JSON) that Redis expires itself.
func (s *Store) challengeKey(id string) string { return s.prefix + "challenge:{" + id + "}" }

// userKey is a string: the User as JSON, with its version ("v") and the
// token of the write that stored it ("w"); usernameKey maps a folded
// username to a user id.
func (s *Store) userKey(id int64) string {
	return s.prefix + "user:{" + strconv.FormatInt(id, 10) + "}"
}

func (s *Store) usernameKey(name string) string { return s.prefix + "username:{" + name + "}" }

// rankKey (sorted set: member by negated rating) and linesKey (hash: member
// to Standing JSON, with its version "v" and the token of the write that
// stored it "w") share the scope's tag and change in one script.
func (s *Store) rankKey(scope int64) string {
	return s.prefix + "top:{" + strconv.FormatInt(scope, 10) + "}:rank"
}

func (s *Store) linesKey(scope int64) string {
	return s.prefix + "top:{" + strconv.FormatInt(scope, 10) + "}:lines"
}

// updateKey marks a Telegram update as seen until it expires. It has the
// outbox's hash tag: a mark is written with the replies its update owes
// (outbox.go).
func (s *Store) updateKey(id int64) string {
	return s.prefix + "update:{tg}:" + strconv.FormatInt(id, 10)
}

// receiptKey is a string: the id of the finished game that owes an event
// under a receipt (an update id), a hint EndedGameByReceipt checks against
// the game; it expires after receiptTTL.
func (s *Store) receiptKey(receipt int64) string {
	return s.prefix + "receipt:{" + strconv.FormatInt(receipt, 10) + "}"
}

// pollKey is a string: the id of the game a team-vote poll is for. It
// expires after pollTTL should the bot never delete it (a poll the
// process died before stopping).
func (s *Store) pollKey(id string) string { return s.prefix + "poll:{" + id + "}" }

// member is a user id as a leaderboard member: 16 hex digits of the id with
// the sign bit flipped, so that the lexical order Redis uses among equal
// scores is numeric order.
func member(user int64) string {
	const hex = "0123456789abcdef"
	u := uint64(user) ^ (1 << 63)
	var b [16]byte
	for i := 15; i >= 0; i-- {
		b[i] = hex[u&0xf]
		u >>= 4
	}
	return string(b[:])
}

// ms is the score of a time: milliseconds are exact in a sorted set's
// float64 scores for any date people play on.
func ms(t time.Time) float64 { return float64(t.UnixMilli()) }
