package bot

import (
	"fmt"
	"strings"

	"github.com/bashni/bashni/play"
	"github.com/bashni/bashni/render"
	"github.com/bashni/bashni/rules"
)

// PDN writes a game as a PDN file: the players and the date from the
// record, the rest (moves, result, variant, start) from the rules' own
// writer, rules.PDN.
func PDN(g *play.Game) string {
	tags := map[string]string{
		"Event": "Bashni on Telegram",
		"Site":  "Telegram",
		"Date":  g.CreatedAt().UTC().Format("2006.01.02"),
		"White": g.White().Name,
		"Black": g.Black().Name,
	}
	if g.Result() != "" {
		tags["Result"] = g.Result()
	}
	if g.Reason() != "" {
		tags["Termination"] = g.Reason()
	}
	return (&rules.PDN{Tags: tags, Game: g.Rules()}).String()
}

// replayOptions draws a replay from the side a human played in an AI game.
func replayOptions(g *play.Game) render.Options {
	o := render.Options{Size: 480}
	if g.AgainstAI() && g.White().AILevel > 0 {
		o.Perspective = rules.Black
	}
	return o
}

// lastPlies writes the game's last n plies in record notation, numbered,
// so the card shows both players' last moves: "3. c3-d4 f6-e5", or
// "3... f6-e5 4. d4:f6" when White moved last.
func lastPlies(g *rules.Game, n int) string {
	moves := g.Moves()
	first := max(0, len(moves)-n)
	start := g.StartPosition()
	side := start.SideToMove()
	num := 1
	var b strings.Builder
	for i, m := range moves {
		if i >= first {
			if b.Len() > 0 {
				b.WriteByte(' ')
			}
			switch {
			case side == rules.White:
				fmt.Fprintf(&b, "%d. ", num)
			case i == first:
				fmt.Fprintf(&b, "%d... ", num)
			}
			b.WriteString(m.String())
		}
		if side == rules.Black {
			num++
		}
		side = side.Opponent()
	}
	return b.String()
}
