package bot

import (
	"context"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/bashni/bashni/play"
	"github.com/bashni/bashni/storage"
)

// The live board (package miniapp) is a second face of the same games: a
// move, draw offer or resignation made there is shown on the chat card and
// notified exactly as one made in the chat. These methods are its way in;
// the Mini App declares them as its Cards interface.

// withBoardLink adds the "Open board" button (a URL to the Mini App's
// direct link) under a card's keyboard, when the Mini App is configured.
func (b *Bot) withBoardLink(g *play.Game, lang string, kb tgbotapi.InlineKeyboardMarkup) tgbotapi.InlineKeyboardMarkup {
	if b.cfg.BoardURL == nil {
		return kb
	}
	link := b.cfg.BoardURL(g.ID())
	if link == "" {
		return kb
	}
	rows := append(kb.InlineKeyboard, tgbotapi.NewInlineKeyboardRow(tgbotapi.NewInlineKeyboardButtonURL(b.texts.T(lang, "btn_open_board"), link)))
	return tgbotapi.InlineKeyboardMarkup{InlineKeyboard: rows}
}

// AppMoved shows a move made in the Mini App: card, notices, the AI's
// reply, the end of the game.
func (b *Bot) AppMoved(ctx context.Context, out *play.Outcome) { b.afterMove(ctx, out) }

// AppEnded shows a game ended in the Mini App (resignation, agreed draw).
func (b *Bot) AppEnded(ctx context.Context, g *play.Game) { b.gameOver(ctx, g) }

// AppDrawOffered shows a draw offer made in the Mini App: the card says
// so and the opponent gets the offer with its buttons, as after /draw.
func (b *Bot) AppDrawOffered(ctx context.Context, g *play.Game, by int64) {
	lang := cardLang(g)
	b.editCard(g, cardView{lang: lang}, "", nil)
	from, to := g.White(), g.Black()
	if g.Black().UserID == by {
		from, to = g.Black(), g.White()
	}
	b.drawOfferNotice(g, lang, from.Name, to)
}

// AppDrawDeclined shows a draw offer declined in the Mini App.
func (b *Bot) AppDrawDeclined(ctx context.Context, g *play.Game, by int64) {
	lang := cardLang(g)
	b.editCard(g, cardView{lang: lang}, "", nil)
	if g.ChatID() == 0 {
		return
	}
	name := g.White().Name
	if g.Black().UserID == by {
		name = g.Black().Name
	}
	b.send(outMessage{chatID: g.ChatID(), text: b.texts.T(lang, "draw_declined", "By", name)}.reply())
}

// AppText is text id in lang, from the bot's catalogue.
func (b *Bot) AppText(lang, id string, data ...any) string { return b.texts.T(lang, id, data...) }

// AppError says err to a user in lang, as the chat would.
func (b *Bot) AppError(lang string, err error) string { return b.userMessage(lang, err, false) }

// AppPlayerName names a player (the AI by its level) in lang.
func (b *Bot) AppPlayerName(lang string, p storage.Player) string { return b.playerName(lang, p) }

// AppResult is the result line ("1-0, White wins (Alice)") and the reason
// of a finished game, in lang.
//
// It reads the stored result, not the rules state: a game re-read from the
// store is rebuilt from its moves, which do not say who resigned or lost
// on time.
func (b *Bot) AppResult(lang string, g *play.Game) (result, reason string) {
	switch g.Result() {
	case "1-0":
		result = g.Result() + ", " + b.texts.T(lang, "result_win", "Winner", b.playerName(lang, g.White()))
	case "0-1":
		result = g.Result() + ", " + b.texts.T(lang, "result_win", "Winner", b.playerName(lang, g.Black()))
	default:
		result = g.Result() + ", " + b.texts.T(lang, "result_draw")
	}
	return result, b.reasonText(lang, g.Reason())
}
