package bot

import (
	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/bashni/bashni/bot/telegram/outbox"
	"github.com/bashni/bashni/play"
)

// editCard redraws the game's card in place (board, caption, keyboard).
// done, if set, runs after the edit is sent.
func (b *Bot) editCard(g *play.Game, v cardView, theme string, done func()) {
	if m, ok := g.Mirrored(); ok && v.selected == nil && v.stage == nil && m.MessageID() != 0 {
		// A tournament game's second card (tournament.go) shows every board
		// too. A done (doing nothing) keeps it out of deferEdit, which
		// holds one edit a game for a /board re-post of the game's card.
		b.editCard(m, cardView{lang: cardLang(m), thinking: v.thinking}, "", func() {})
	}
	if done == nil && b.deferEdit(g, v, theme) {
		return // made on the re-posted card once it is known
	}
	b.locateCard(g, nil)
	switch {
	case g.InlineMessageID() != "":
		b.editInlineBoard(g, v, theme, done)
	case g.MessageID() == 0:
		if done != nil {
			done()
		}
	default:
		b.editChatCard(g, v, theme, done)
	}
}

// editInlineBoard edits a game's inline card: drawn when it is sent where
// it can be (as chat cards are), else now; by URL when the board images
// are served (Telegram fetches what BoardImage draws), else uploaded.
func (b *Bot) editInlineBoard(g *play.Game, v cardView, theme string, done func()) {
	if r, ok := b.lazyEdit(g, v, theme); ok {
		// Drawn when it is sent (cardlazy.go, resolveInline).
		b.send(r)
		if done != nil {
			done()
		}
		return
	}
	var png []byte
	if b.cfg.BoardImageURL == nil && !g.InlineText() { // a text card needs no picture
		var err error
		if png, err = b.boardPNG(g, v, theme); err != nil {
			b.log.Error("drawing the board", "game", g.ID(), "err", err)
			return
		}
	}
	b.editInlineCard(g, v, png)
	if done != nil {
		done()
	}
}

// editChatCard edits a game's card in its chat: drawn when it is sent
// where it can be (cardlazy.go), else drawn now.
func (b *Bot) editChatCard(g *play.Game, v cardView, theme string, done func()) {
	r, ok := b.lazyEdit(g, v, theme)
	if !ok {
		edit, err := b.cardEdit(g, v, theme, g.ChatID(), g.MessageID())
		if err != nil {
			b.log.Error("drawing the board", "game", g.ID(), "err", err)
			return
		}
		// Keyed by the message: while Telegram's pacing holds this edit back, a
		// newer board replaces it rather than queueing behind it.
		r = outbox.Reply{Req: edit, ChatID: g.ChatID(), Group: g.ChatID() < 0, Key: cardKey("card", g), Delay: v.hold,
			// Never older than a board another replica has shown.
			Version: g.Version()}
	}
	if done != nil || v.sent != nil {
		r.Done = func(_ *tgbotapi.Message, err error) {
			if v.sent != nil && err == nil {
				v.sent()
			}
			if done != nil {
				done()
			}
		}
	}
	b.send(r)
}

// editKeyboard changes only the card's buttons.
func (b *Bot) editKeyboard(g *play.Game, kb tgbotapi.InlineKeyboardMarkup) {
	b.locateCard(g, nil)
	switch {
	case g.InlineMessageID() != "":
		b.send(outbox.Reply{Req: tgbotapi.EditMessageReplyMarkupConfig{BaseEdit: tgbotapi.BaseEdit{InlineMessageID: g.InlineMessageID(), ReplyMarkup: &kb}}})
	case g.MessageID() != 0:
		// Keyed apart from the whole card's edits: buttons alone must not
		// replace a waiting board.
		b.send(outbox.Reply{Req: tgbotapi.NewEditMessageReplyMarkup(g.ChatID(), g.MessageID(), kb), ChatID: g.ChatID(), Group: g.ChatID() < 0,
			Key: cardKey("buttons", g)})
	}
}

// cardEdit is the request that redraws the card in chatID's message
// messageID as g stands, seen as v says: board, caption and buttons. It
// only draws; the callers queue it, eagerly (editChatCard) or when the
// outbox sends a lazy edit (resolveCard).
func (b *Bot) cardEdit(g *play.Game, v cardView, theme string, chatID int64, messageID int) (tgbotapi.EditMessageMediaConfig, error) {
	png, err := b.boardPNG(g, v, theme)
	if err != nil {
		return tgbotapi.EditMessageMediaConfig{}, err
	}
	media := tgbotapi.NewInputMediaPhoto(tgbotapi.FileBytes{Name: "board.png", Bytes: png})
	media.Caption = b.caption(g, v)
	kb := b.keyboard(g, v)
	return tgbotapi.EditMessageMediaConfig{
		BaseEdit: tgbotapi.BaseEdit{ChatID: chatID, MessageID: messageID, ReplyMarkup: &kb},
		Media:    media, // a value, not a pointer: tgbotapi drops a pointer's upload
	}, nil
}
