package bot

import (
	"fmt"
	"time"

	"github.com/bashni/bashni/play"
	"github.com/bashni/bashni/rules"
	"github.com/bashni/bashni/texts"
)

// Live play on the card: a challenge says its time control, and a live
// game's caption shows both clocks as they stood when it was drawn (the
// card is edited on moves only; the Mini App's clock ticks).

// timeControlLine is the challenge card's line naming its time control.
func timeControlLine(words *texts.Catalog, lang, control string) string {
	if control == "" {
		return ""
	}
	return "\n" + words.T(lang, "challenge_time_control", "Control", control)
}

// clockLine is "⏱ White 4:32 · Black 5:00 (5+3)" in a live game, the
// pace's line in a game at days per move, or "".
func (b *Bot) clockLine(lang string, g *play.Game) string {
	if g.DaysPerMove() > 0 {
		return b.texts.PaceLine(lang, g, b.svc.Now())
	}
	if g.TimeControl() == "" {
		return ""
	}
	now := b.svc.Now() // the service's clock: the one the game's deadlines follow
	return b.texts.T(lang, "caption_clock", "White", FormatClock(g.Left(rules.White, now)),
		"Black", FormatClock(g.Left(rules.Black, now)), "Control", g.TimeControl())
}

// paceChallengeLine is a challenge card's line naming its pace.
func paceChallengeLine(words *texts.Catalog, lang string, days int) string {
	if days == 0 {
		return ""
	}
	return "\n" + words.N(lang, "challenge_pace", days, "Days", days)
}

// FormatWhen writes a moment as the reminders do, in UTC.
func FormatWhen(t time.Time) string { return texts.FormatWhen(t) }

// FormatClock writes a time left as m:ss (h:mm:ss from an hour up).
func FormatClock(d time.Duration) string {
	if d < 0 {
		d = 0
	}
	s := int(d.Round(time.Second) / time.Second)
	if s >= 3600 {
		return fmt.Sprintf("%d:%02d:%02d", s/3600, s/60%60, s%60)
	}
	return fmt.Sprintf("%d:%02d", s/60, s%60)
}
