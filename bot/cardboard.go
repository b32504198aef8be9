package bot

import (
	"github.com/bashni/bashni/play"
	"github.com/bashni/bashni/render"
	"github.com/bashni/bashni/rules"
	"github.com/bashni/bashni/texts"
)

// boardPNG draws the game's board. In a private chat it follows the
// user's settings (theme; their own side at the bottom unless they chose
// White's); in groups and inline, White is at the bottom, in the classic
// theme unless theme names another.
func (b *Bot) boardPNG(g *play.Game, v cardView, theme string) ([]byte, error) {
	o := render.Options{Selected: v.selected, Targets: v.targets}
	if m, ok := g.LastMove(); ok && v.selected == nil {
		o.LastMove = &m
	}
	if !g.Active() {
		// The final image says so itself: it may be forwarded or saved
		// without its caption.
		o.Caption = finalBoardCaption(b.texts, v.lang, g)
	}
	if g.ChatID() > 0 {
		flip := false
		if u, err := b.svc.User(b.bgCtx, g.ChatID()); err == nil {
			if theme == "" {
				theme = u.Theme
			}
			flip = u.Flip
		}
		if c, ok := g.ColorOf(g.ChatID()); ok && c == rules.Black && !flip {
			o.Perspective = rules.Black
		}
	}
	if theme != "" {
		if t, err := render.ThemeByName(theme); err == nil {
			o.Theme = t
		}
	}
	return b.render.PNG(g.Position(), o)
}

// finalBoardCaption is the line drawn on a finished game's board ("Game
// over · 1-0 · timeout"): the result as scored, not the result line
// (texts.Catalog.ResultLine), which names the winner under the picture.
func finalBoardCaption(c *texts.Catalog, lang string, g *play.Game) string {
	return c.T(lang, "board_game_over", "Result", g.Result(), "Reason", c.ReasonName(lang, g.Reason()))
}
