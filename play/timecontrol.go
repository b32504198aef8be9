package play

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/bashni/bashni/rules"
	"github.com/bashni/bashni/storage"
)

// Live play. A challenge may carry a time control, "minutes+seconds": each
// side starts with the minutes and gets the seconds back after each of its
// moves (Fischer increment). The side to move's flag falls at TurnStart plus
// its time left; that moment is the game's TimeoutAt, the same deadline the
// store already keeps for correspondence games, so Tick ends a game on time
// exactly once across replicas. Correspondence (no time control) stays the
// default. TurnStart is when the board reached the player, at the latest
// the move's time plus Config.ShowGrace (shown.go).

// ParseTimeControl reads "M+S": M minutes (1..180) each, S seconds (0..60)
// added per move.
func ParseTimeControl(s string) (base, inc time.Duration, err error) {
	m, sec, ok := strings.Cut(strings.TrimSpace(s), "+")
	if !ok {
		return 0, 0, fmt.Errorf("%w: %q", ErrBadTimeControl, s)
	}
	mi, err1 := strconv.Atoi(m)
	si, err2 := strconv.Atoi(sec)
	if err1 != nil || err2 != nil || mi < 1 || mi > 180 || si < 0 || si > 60 {
		return 0, 0, fmt.Errorf("%w: %q", ErrBadTimeControl, s)
	}
	return time.Duration(mi) * time.Minute, time.Duration(si) * time.Second, nil
}

// IsTimeControl reports whether s is a time control ParseTimeControl reads.
func IsTimeControl(s string) bool {
	_, _, err := ParseTimeControl(s)
	return err == nil
}

// startClock sets a new game's clocks: both sides' full time, White's
// turn beginning when the first card reaches them, at the latest after
// twice the grace (shown.go): in a group the accept costs two messages,
// the challenge's edit and the new card, each waiting for the pace.
func startClock(rec *storage.GameRecord, control string, now time.Time, grace time.Duration) {
	base, _, _ := ParseTimeControl(control) // checked when the challenge was made
	rec.TimeControl = control
	rec.WhiteLeft, rec.BlackLeft = base, base
	rec.TurnStart, rec.TurnVersion = now.Add(2*grace), rec.Version+1
}

// Left is the time c has left at now: its stored time, less the running
// turn's if c is to move. Zero or less once its flag has fallen.
func (g *Game) Left(c rules.Color, now time.Time) time.Duration {
	left := g.rec.WhiteLeft
	if c == rules.Black {
		left = g.rec.BlackLeft
	}
	if toMove, _ := g.ToMove(); c == toMove && g.rec.Active() && !g.rec.TurnStart.IsZero() {
		left -= max(now.Sub(g.rec.TurnStart), 0) // not started: the board has not reached them
	}
	return left
}

// chargeMove books a move by c made at now: the time it took comes off
// c's clock (none if its board had not reached c yet), the increment goes
// on, and the other side's turn begins when this move's board reaches
// them, at the latest after grace (shown.go).
func chargeMove(g *Game, c rules.Color, now time.Time, grace time.Duration) {
	_, inc, _ := ParseTimeControl(g.rec.TimeControl)
	spent := max(now.Sub(g.rec.TurnStart), 0)
	if c == rules.White {
		g.rec.WhiteLeft += inc - spent
	} else {
		g.rec.BlackLeft += inc - spent
	}
	g.rec.Spent = append(g.rec.Spent, spent)
	// The version this write makes shows the move first.
	g.rec.TurnStart, g.rec.TurnVersion = now.Add(grace), g.rec.Version+1
}

// flagDeadline makes the side to move's flag fall the game's deadline.
func flagDeadline(g *Game) {
	c, _ := g.ToMove()
	left := g.rec.WhiteLeft
	if c == rules.Black {
		left = g.rec.BlackLeft
	}
	g.rec.RemindAt = timeZero
	g.rec.TimeoutAt = g.rec.TurnStart.Add(left)
}
