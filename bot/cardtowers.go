package bot

import (
	"context"
	"unicode/utf8"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/bashni/bashni/bot/telegram/outbox"
	"github.com/bashni/bashni/play"
	"github.com/bashni/bashni/rules"
	"github.com/bashni/bashni/texts"
)

// Any tower on a live card, the opponent's too, can be read in words: a
// "Towers" button under the card answers whoever taps it with an alert
// listing every tower of two or more, top first. An alert is seen by the
// tapper alone and posts nothing, so a group pays no message for it, and
// it needs no tower step in the picker. The board shows the pieces too
// (render draws every piece of a tower of up to 8); the alert is for the
// tallest ones and for a reader who wants the words.

// KindTowers lists the towers of a game in an alert.
const KindTowers = "tw"

// maxAlert is Telegram's limit on a callback answer's text, in characters.
const maxAlert = 200

// towersRow is the "Towers" button row of a live card, or nil when no
// square holds two pieces or more.
func towersRow(words *texts.Catalog, lang string, g *play.Game) []tgbotapi.InlineKeyboardButton {
	if !g.Active() || len(towerSquares(g.Position())) == 0 {
		return nil
	}
	return tgbotapi.NewInlineKeyboardRow(tgbotapi.NewInlineKeyboardButtonData(
		words.T(lang, "btn_towers"), Callback{Kind: KindTowers, ID: g.ID(), Ply: -1}.Encode()))
}

// towerSquares are the squares holding two pieces or more, a1 first.
func towerSquares(p rules.Position) []rules.Square {
	var out []rules.Square
	for s := range rules.Square(rules.NumSquares) {
		if p.Tower(s).Height() > 1 {
			out = append(out, s)
		}
	}
	return out
}

// onTowers answers a tap on "Towers" with an alert of the game's towers
// as they stand now.
func onTowers(b *Bot, ctx context.Context, t tap) error {
	g, err := b.svc.Game(ctx, t.cb.ID)
	if err != nil {
		b.toast(t.q, b.texts.Error(t.lang, err, false))
		return nil
	}
	b.send(outbox.Reply{Req: tgbotapi.NewCallbackWithAlert(t.q.ID, b.towersAlert(t.lang, g.Position(), maxAlert))})
	return nil
}

// towersAlert lists the towers of p, one a line, "c3: ⚪♛ ⚪×2 ⚫×5", in
// at most limit characters, and "…" if some did not fit. Every legal
// position fits an alert (twelve towers of two kings, the most lines
// there can be, take about 140), but the text is cut by construction.
func (b *Bot) towersAlert(lang string, p rules.Position, limit int) string {
	squares := towerSquares(p)
	if len(squares) == 0 {
		return b.texts.T(lang, "towers_none")
	}
	text := b.texts.T(lang, "towers_title")
	const more = "\n…"
	for i, s := range squares {
		line := "\n" + s.String() + ": " + towerRuns(p.Tower(s))
		room := limit
		if i < len(squares)-1 {
			room -= utf8.RuneCountInString(more)
		}
		if utf8.RuneCountInString(text+line) > room {
			return text + more
		}
		text += line
	}
	return text
}
