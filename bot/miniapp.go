package bot

import (
	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/bashni/bashni/play"
)

// The live board (package miniapp) is a second face of the same games: a
// move, draw offer or resignation made there goes through play, stored with
// its event (play.Detached), and the bot shows it on the chat card exactly
// as one made in the chat (events.go). The app never calls into the bot:
// both take their words from package texts.

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
