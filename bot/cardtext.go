package bot

import (
	"strconv"
	"strings"

	"github.com/bashni/bashni/play"
	"github.com/bashni/bashni/rules"
	"github.com/bashni/bashni/texts"
)

// caption writes the card's caption.
func (b *Bot) caption(g *play.Game, v cardView) string {
	lang := v.lang
	lines := []string{b.texts.T(lang, "caption_players", "White", b.texts.PlayerName(lang, g.White()), "Black", b.texts.PlayerName(lang, g.Black()))}
	if p := g.Rules().StartPosition(); p.Variant() != rules.Bashni {
		lines = append(lines, rulesLine(b.texts, lang, p.Variant()))
	}
	if g.Active() {
		c, p := g.ToMove()
		lines = append(lines, b.texts.T(lang, "caption_to_move", "Move", g.MoveNumber(), "Side", b.texts.SideName(lang, c), "Player", b.texts.PlayerName(lang, p)))
	} else {
		lines = append(lines, b.texts.T(lang, "caption_result", "Result", b.texts.ResultLine(lang, g), "Reason", b.texts.ReasonName(lang, g.Reason())))
	}
	if last := lastPlies(g.Rules(), 2); last != "" {
		lines = append(lines, b.texts.T(lang, "caption_last", "Move", last))
	}
	if line := b.clockLine(lang, g); line != "" {
		lines = append(lines, line)
	}
	lines = append(lines, b.cardLines(lang, g)...)
	if g.Active() && g.DrawOfferBy() != 0 {
		name := g.White().Name
		if g.Black().UserID == g.DrawOfferBy() {
			name = g.Black().Name
		}
		lines = append(lines, b.texts.T(lang, "caption_draw_offer", "Player", name))
	}
	if by := g.DrawDeclinedBy(); g.Active() && by != 0 && g.DrawOfferBy() == 0 {
		// The answer to an offer is news for the one who made it: said
		// here, it costs no message (a group's twenty a minute).
		name := g.White().Name
		if g.Black().UserID == by {
			name = g.Black().Name
		}
		lines = append(lines, b.texts.T(lang, "caption_draw_declined", "Player", name))
	}
	if o := b.mods.owned(g); o != nil && o.Caption != nil {
		// A module's lines (a group's vote), within what the caption
		// leaves, less what may follow them.
		lines = append(lines, o.Caption(b.kit(), g, lang, texts.CaptionLimit-texts.TelegramLen(strings.Join(lines, "\n"), "")-captionTail)...)
	}
	if v.thinking {
		lines = append(lines, b.texts.T(lang, "caption_thinking"))
	}
	if v.selected != nil {
		// The picture draws a tower of up to 8 piece by piece, a taller
		// one's top five; the caption spells out the picked one whole.
		pos := g.Position()
		lines = append(lines, towerLine(b.texts, lang, *v.selected, pos.Tower(*v.selected)))
	}
	return strings.Join(lines, "\n")
}

// captionTail is what the caption may add after a module's lines (the AI
// thinking, a picked tower spelt out): kept free of them.
const captionTail = 200

// towerLine lists the tower on s top first, a run of equal pieces as one
// entry: "🔎 c3, top first: ⚪♛ ⚪×2 ⚫×5 (8 pieces)".
func towerLine(words *texts.Catalog, lang string, s rules.Square, t rules.Tower) string {
	return words.T(lang, "caption_tower", "Square", s.String(), "Pieces", towerRuns(t), "Count", words.N(lang, "tower_pieces", t.Height()))
}

// pieceRun writes n equal pieces: a disc of their colour, a crown for
// kings, "×n" for more than one.
func pieceRun(p rules.Piece, n int) string {
	s := "⚪"
	if p.Color() == rules.Black {
		s = "⚫"
	}
	if p.IsKing() {
		s += "♛"
	}
	if n > 1 {
		s += "×" + strconv.Itoa(n)
	}
	return s
}

// towerRuns writes a tower top first, a run of equal pieces as one entry:
// "⚪♛ ⚪×2 ⚫×5".
func towerRuns(t rules.Tower) string {
	var runs []string
	for i := 0; i < t.Height(); {
		p := t.Piece(i)
		n := 1
		for i+n < t.Height() && t.Piece(i+n) == p {
			n++
		}
		runs = append(runs, pieceRun(p, n))
		i += n
	}
	return strings.Join(runs, " ")
}
