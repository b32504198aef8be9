package bolt

import (
	"bytes"
	"encoding/binary"
	"math"
	"time"
)

var (
	bucketGames           = []byte("games")
	bucketChatGames       = []byte("chat_games")
	bucketUserGames       = []byte("user_games")
	bucketDeadlines       = []byte("deadlines")
	bucketChallenges      = []byte("challenges")
	bucketChallengeExpiry = []byte("challenge_expiry")
	bucketUsers           = []byte("users")
	bucketUsernames       = []byte("usernames")
	bucketStandings       = []byte("standings")
	bucketRanks           = []byte("ranks")
	bucketUpdates         = []byte("updates")
	bucketUpdateExpiry    = []byte("update_expiry")
	bucketGameExpiry      = []byte("game_expiry")
	bucketOutbox          = []byte("outbox")
	bucketReviews         = []byte("reviews")
	bucketPolls           = []byte("polls")
	bucketReceipts        = []byte("receipts")

	allBuckets = [][]byte{
		bucketGames, bucketChatGames, bucketUserGames, bucketDeadlines,
		bucketChallenges, bucketChallengeExpiry, bucketUsers, bucketUsernames,
		bucketStandings, bucketRanks, bucketUpdates, bucketUpdateExpiry,
		bucketGameExpiry, bucketOutbox, bucketReviews, bucketPolls,
		bucketReceipts,
	}
)

const (
	intLen  = 8
	timeLen = 12
)

// key concatenates parts into a fresh slice.
func key(parts ...[]byte) []byte { return bytes.Join(parts, nil) }

// intKey encodes v so that byte order is numeric order: big-endian with the
// sign bit flipped.
func intKey(v int64) []byte {
	return binary.BigEndian.AppendUint64(nil, uint64(v)^(1<<63))
}

// timeKey encodes t as seconds then nanoseconds, ordered and valid for any
// year (UnixNano would overflow outside 1678-2262).
func timeKey(t time.Time) []byte {
	return binary.BigEndian.AppendUint32(intKey(t.Unix()), uint32(t.Nanosecond()))
}

// createdKey orders active games by creation to the millisecond, as the
// Redis store does, then by id.
func createdKey(t time.Time) []byte { return intKey(t.UnixMilli()) }

// rankKey orders ratings from highest to lowest: the IEEE bits made
// monotonic (flip all bits of negatives, the sign bit of the rest), then
// inverted.
func rankKey(r float64) []byte {
	bits := math.Float64bits(r)
	if bits>>63 == 1 {
		bits = ^bits
	} else {
		bits |= 1 << 63
	}
	return binary.BigEndian.AppendUint64(nil, ^bits)
}
