package play

import (
	"github.com/bashni/bashni/rules"
	"github.com/bashni/bashni/storage"
)

// A game in which either side has not moved yet is not a game: ending it
// by resignation, agreement or time says nothing of anyone, and rating it
// would let two accounts trade wins at move 0 as fast as a script taps
// (issue 38: 1,000 rated wins in 24 s). Such an end aborts the game, as
// lichess does: it is over, with no result ("*", reason "aborted"), and
// counts in no rating, leaderboard or statistics (owesCount). A
// feature that scores games (an arena) reads Aborted.

// conclude ends g by end (a resignation, a draw agreed, a loss on time),
// or aborts it where a side has not moved yet.
func (g *Game) conclude(end func(r *rules.Game) error) error {
	if g.unplayed() {
		return g.rules.Abort()
	}
	return end(g.rules)
}

// unplayed reports whether a side has not moved yet: fewer than two plies.
func (g *Game) unplayed() bool { return g.rules.Ply() < 2 }

// Aborted reports whether the game ended aborted: before both sides had
// moved, so it has no result and counts nowhere.
func (g *Game) Aborted() bool { return IsAborted(g.rec) }

// IsAborted is Aborted for a stored record, for those that read records
// rather than games.
func IsAborted(rec *storage.GameRecord) bool {
	return rec.Status == storage.GameFinished && rec.Reason == rules.Aborted.String()
}
