package bot

import (
	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/bashni/bashni/play"
)

// The live board (package miniapp) is a second face of the same games: a
// move, draw offer or resignation made there goes through play, stored with
// its event (play.Detached), and the bot shows it on the chat card exactly
// as one made in the chat (events.go). The Mini App borrows only the
// bot's texts, through the methods below (its Texts interface).

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

// AppText is text id in lang, from the bot's catalogue.
func (b *Bot) AppText(lang, id string, data ...any) string { return b.texts.T(lang, id, data...) }

// AppError says err to a user in lang, as the chat would.
func (b *Bot) AppError(lang string, err error) string { return b.texts.Error(lang, err, false) }

// AppPlayerName names a player (the AI by its level) in lang.
func (b *Bot) AppPlayerName(lang string, p play.Player) string { return b.texts.PlayerName(lang, p) }
