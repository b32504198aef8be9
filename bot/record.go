package bot

import (
	"fmt"
	"strings"

	"github.com/bashni/bashni/play"
	"github.com/bashni/bashni/render"
	"github.com/bashni/bashni/rules"
)

// PDN writes a game in Portable Draughts Notation: tag pairs, then the
// numbered moves and the result. Bashni has no official GameType number, so
// the Variant tag names it, and a non-standard start is given as FEN in the
// project's position format.
func PDN(g *play.Game) string {
	var b strings.Builder
	tag := func(k, v string) { fmt.Fprintf(&b, "[%s %q]\n", k, v) }
	tag("Event", "Bashni on Telegram")
	tag("Site", "Telegram")
	tag("Date", g.CreatedAt.UTC().Format("2006.01.02"))
	tag("White", g.White.Name)
	tag("Black", g.Black.Name)
	result := g.Result
	if result == "" {
		result = "*"
	}
	tag("Result", result)
	tag("Variant", g.Variant)
	if start := g.Rules().StartPosition(); start.String() != rules.StartText {
		tag("FEN", start.String())
	}
	if g.Reason != "" {
		tag("Termination", g.Reason)
	}
	b.WriteByte('\n')
	rec := g.Rules().Record()
	if !g.Active() && !strings.HasSuffix(rec, result) {
		rec += " " + result
	}
	if g.Active() {
		rec += " *"
	}
	b.WriteString(strings.TrimSpace(rec))
	b.WriteByte('\n')
	return b.String()
}

// replayOptions draws a replay from the side a human played in an AI game.
func replayOptions(g *play.Game) render.Options {
	o := render.Options{Size: 480}
	if g.AgainstAI() && g.White.AILevel > 0 {
		o.Perspective = rules.Black
	}
	return o
}
