package texts

import (
	"strconv"

	"github.com/bashni/bashni/play"
	"github.com/bashni/bashni/rules"
)

// The names both doors give to the things of a game: levels, players,
// sides, rulesets, results and the reasons a game ended.

// LevelName is AI level's name in lang ("Club player", "Клубный игрок").
func (c *Catalog) LevelName(lang string, level int) string {
	id := "ai_level_" + strconv.Itoa(level)
	if s, err := c.render(lang, id, nil, nil); err == nil {
		return s
	}
	return "AI " + strconv.Itoa(level)
}

// PlayerName names a player to people reading lang: a person by their
// name, the AI by its level in their language (the stored name is the
// English one).
func (c *Catalog) PlayerName(lang string, p play.Player) string {
	if p.AILevel > 0 {
		return "🤖 " + c.LevelName(lang, p.AILevel) + " (" + strconv.Itoa(p.AILevel) + ")"
	}
	return p.Name
}

// SideName is a colour's name in lang.
func (c *Catalog) SideName(lang string, side rules.Color) string {
	if side == rules.White {
		return c.T(lang, "side_white")
	}
	return c.T(lang, "side_black")
}

// VariantName is a ruleset's name in lang.
func (c *Catalog) VariantName(lang string, v rules.Variant) string {
	return c.T(lang, "rules_name_"+v.String())
}

// ReasonName says why a game ended ("resignation", "no legal moves"), by
// the stored reason.
func (c *Catalog) ReasonName(lang, reason string) string {
	return c.T(lang, "reason_"+reason)
}

// Result is a finished game's result line ("1-0, White wins (Alice)", or
// "1/2-1/2, draw") and the reason it ended, in lang.
//
// It reads the stored result, not the rules state: a game re-read from the
// store is rebuilt from its moves, which do not say who resigned or lost
// on time.
func (c *Catalog) Result(lang string, g *play.Game) (result, reason string) {
	return c.ResultLine(lang, g), c.ReasonName(lang, g.Reason())
}

// ResultLine is Result's first part: "1-0, White wins (Alice)", "1/2-1/2,
// draw", or for an aborted game that it was aborted and counts nowhere.
// It is the one result line: the card's caption, the end-of-game message,
// the analysis and the Mini App all write a finished game's result with it.
func (c *Catalog) ResultLine(lang string, g *play.Game) string {
	switch {
	case g.Aborted():
		return c.T(lang, "result_aborted")
	case g.Result() == "1-0":
		return g.Result() + ", " + c.T(lang, "result_win", "Winner", c.PlayerName(lang, g.White()))
	case g.Result() == "0-1":
		return g.Result() + ", " + c.T(lang, "result_win", "Winner", c.PlayerName(lang, g.Black()))
	}
	return g.Result() + ", " + c.T(lang, "result_draw")
}
