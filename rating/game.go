package rating

import (
	"math"
	"strconv"
)

// ProvisionalRD is the deviation above which a rating is provisional:
// lichess's line. A newcomer crosses it after about 11 games against
// settled players (up to 20 against other newcomers), an Elo rating
// carried over after about 6 (up to 12).
const ProvisionalRD = 110

// CarryRD is the deviation an Elo rating is carried over with: wide, as
// an Elo number says nothing of how sure it is, yet narrower than a
// newcomer's, since it did come from games.
const CarryRD = 150

// Game is one game between a and b as a rating period of its own for each,
// a scoring scoreA (1 win, 0.5 draw, 0 loss): the two ratings after it.
func Game(a, b Rating, scoreA float64) (newA, newB Rating) {
	return a.Update(Result{Opponent: b, Score: scoreA}), b.Update(Result{Opponent: a, Score: 1 - scoreA})
}

// FromElo carries an Elo rating over: the same number with a wide
// deviation. Zero (none stored) and start, the Elo start nobody moved
// from, are a newcomer's rating.
func FromElo(elo, start float64) Rating {
	if elo == 0 || elo == start {
		return New(start)
	}
	return Rating{R: elo, RD: CarryRD, Vol: StartVol}.sane()
}

// Provisional reports whether r is still unsure (RD above ProvisionalRD).
func (r Rating) Provisional() bool { return r.RD > ProvisionalRD }

// Shown is r as players read it: whole, with "?" after it while it is
// provisional ("1512?").
func (r Rating) Shown() string {
	s := strconv.FormatFloat(math.Round(r.R), 'f', 0, 64)
	if r.Provisional() {
		s += "?"
	}
	return s
}

// Change is what r became after a game, as deltas that a record changed
// since r was read can take (Apply): a player's two games counted at once
// each add their own.
type Change struct {
	R, RD, Vol float64
}

// Diff is the change from r to after.
func (r Rating) Diff(after Rating) Change {
	return Change{R: after.R - r.R, RD: after.RD - r.RD, Vol: after.Vol - r.Vol}
}

// Apply is r moved by c, kept in bounds.
func (r Rating) Apply(c Change) Rating {
	r = r.sane()
	return r.clamp(r.R+c.R, r.RD+c.RD, r.Vol+c.Vol)
}
