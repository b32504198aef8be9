package texts

import (
	"time"

	"github.com/bashni/bashni/play"
	"github.com/bashni/bashni/rules"
)

// The lines of a game at days per move, in one place for the chat's card
// and the Mini App's board, so both say the same of the same clock.

// FormatWhen writes a moment as the reminders do, in UTC.
func FormatWhen(t time.Time) string { return t.UTC().Format("2006-01-02 15:04 UTC") }

// PaceLine is a game at days per move's line ("" without a pace): the
// pace, and the time the player to move has left at now (and until when),
// or that their clock is stopped.
func (c *Catalog) PaceLine(lang string, g *play.Game, now time.Time) string {
	days := g.DaysPerMove()
	if days == 0 {
		return ""
	}
	side, _ := g.ToMove()
	switch {
	case !g.Active() || g.TimeoutAt().IsZero():
		return c.N(lang, "caption_pace_over", days, "Days", days)
	case g.Held(side, now):
		return c.N(lang, "caption_pace_held", days, "Days", days, "Until", FormatWhen(g.HeldUntil(side)))
	}
	left := max(g.TimeoutAt().Sub(now), 0).Round(time.Minute)
	return c.N(lang, "caption_pace", days, "Days", days, "Hours", int(left/time.Hour), "Minutes", int(left%time.Hour/time.Minute),
		"Until", FormatWhen(g.TimeoutAt()))
}

// AwayLines name each player of an active game at a pace whose clock is
// held at now (away), and until when.
func (c *Catalog) AwayLines(lang string, g *play.Game, now time.Time) []string {
	if !g.Active() || g.DaysPerMove() == 0 {
		return nil
	}
	var lines []string
	for _, side := range []rules.Color{rules.White, rules.Black} {
		if g.Held(side, now) {
			lines = append(lines, c.T(lang, "card_away", "Player", g.Player(side).Name, "Until", FormatWhen(g.HeldUntil(side))))
		}
	}
	return lines
}
