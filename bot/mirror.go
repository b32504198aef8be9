package bot

import (
	"context"
	"encoding/json"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/bashni/bashni/bot/telegram/outbox"
	"github.com/bashni/bashni/play"
	"github.com/bashni/bashni/texts"
)

// A game shown in two chats (play/mirror.go): a feature pairs two players
// (an arena) and each gets the game's card in their own private chat
// with the bot, the game's own card in one and its mirror, edited with it,
// in the other; a new message that buzzes their phone when the game
// begins, then edited after each move. Chat against chat may reuse it.

// postCards posts the cards of a game a feature started, those not
// recorded yet (a game posted again by the clock may have one): the
// game's own in its chat, the mirror in its chat.
func (b *Bot) postCards(g *play.Game) {
	if g.MessageID() == 0 {
		own := &tgbotapi.Chat{ID: g.ChatID(), Type: "private"}
		if g.ChatID() < 0 {
			own.Type = "supergroup"
		}
		if err := b.postCard(own, g, "", nil); err != nil {
			b.log.Warn("a paired game's card not posted", "game", g.ID(), "err", err)
		}
	}
	m, ok := g.Mirrored()
	if !ok || m.MessageID() != 0 {
		return
	}
	v := cardView{lang: cardLang(m)}
	png, err := b.boardPNG(m, v, "")
	if err != nil {
		b.log.Error("drawing the board", "game", g.ID(), "err", err)
		return
	}
	photo := tgbotapi.NewPhoto(m.ChatID(), tgbotapi.FileBytes{Name: "board.png", Bytes: png})
	photo.Caption = b.caption(m, v)
	photo.ReplyMarkup = b.keyboard(m, v)
	// Recorded by whichever process sends it (recordMirror), as the
	// game's card is (postCard): one that took the card over from a
	// process that died records it, and the clock does not post it again.
	b.send(b.recorded(chatReplyID(m.ChatID(), photo), mirrorReplyRecord(g.ID(), g.Ply()), "second card"))
}

// recorded is r with record kept with it (outbox.Reply.Record), for
// whichever process sends it to record (recordSent); with a sender that
// records nothing (a test's) it is recorded here once sent. r.Done is
// still told.
func (b *Bot) recorded(r outbox.Reply, record json.RawMessage, what string) outbox.Reply {
	if b.recordsSent {
		r.Record = record
		return r
	}
	done := r.Done
	r.Done = func(msg *tgbotapi.Message, err error) {
		if done != nil {
			done(msg, err)
		}
		if err != nil || msg == nil {
			return
		}
		b.background(func(ctx context.Context) {
			if err := b.recordSent(ctx, record, msg, false); err != nil {
				b.log.Warn(what+" not recorded", "chat", r.ChatID, "err", err)
			}
		})
	}
	return r
}

// mirrorGameOver tells the mirror's chat how a game shown there ended,
// as the game's own chat is told (gameOver).
func (b *Bot) mirrorGameOver(g *play.Game) {
	m, ok := g.Mirrored()
	if !ok {
		return
	}
	lang := cardLang(m)
	text := b.texts.T(lang, "game_over_msg",
		"Result", b.texts.ResultLine(lang, m), "Reason", b.texts.ReasonName(lang, m.Reason()), "Record", m.Rules().Record())
	if o := b.mods.owned(m); o != nil && o.EndNote != nil {
		// The module's word on the end, as the game's own chat has it
		// (a side's voters, in a game between two chats).
		if note := o.EndNote(b.kit(), m, lang, texts.MessageLimit-texts.TelegramLen(text, "")-1); note != "" {
			text += "\n" + note
		}
	}
	b.send(outMessage{chatID: m.ChatID(), text: text, replyTo: m.MessageID()}.reply())
}

// tappedCard returns g as the card a tap came from shows it: a game's
// second card is edited in its own chat.
func tappedCard(g *play.Game, q *tgbotapi.CallbackQuery) *play.Game {
	if q == nil || q.Message == nil || q.Message.Chat == nil {
		return g
	}
	if m, ok := g.Mirrored(); ok && m.ChatID() == q.Message.Chat.ID && m.MessageID() == q.Message.MessageID {
		return m
	}
	return g
}

// postCardsAgain posts again the cards of a game a feature started that
// were not recorded in time, each unless one is recorded in its chat by
// the time it is sent (resolveNewCard): the first may only be waiting for
// Telegram (an outage of half a minute, the outbox trying it again), and
// then only it is posted. Without cards drawn at send time, postCards.
func (b *Bot) postCardsAgain(g *play.Game) {
	if !b.lazyCards {
		b.postCards(g)
		return
	}
	again := func(chat int64, record json.RawMessage) {
		data, err := json.Marshal(lazyCard{Game: g.ID(), Chat: chat, New: true})
		if err != nil {
			return
		}
		r := outbox.Reply{Lazy: data, ChatID: chat, Group: chat < 0, Record: record}
		if chat > 0 {
			r.UserID = chat
		}
		b.send(r)
	}
	if g.MessageID() == 0 {
		again(g.ChatID(), cardReplyRecord(g, nil))
	}
	if m, ok := g.Mirrored(); ok && m.MessageID() == 0 {
		again(m.ChatID(), mirrorReplyRecord(g.ID(), g.Ply()))
	}
}

// resolveNewCard draws, when it is sent, a card postCardsAgain posts:
// nothing (dropped) if one is recorded in its chat by then.
func (b *Bot) resolveNewCard(g *play.Game, lc lazyCard) (tgbotapi.Chattable, int64, error) {
	if m, ok := g.Mirrored(); ok && lc.Chat == m.ChatID() && lc.Chat != g.ChatID() {
		g = m
	}
	if g.ChatID() != lc.Chat || g.MessageID() != 0 {
		return nil, 0, nil
	}
	v := cardView{lang: cardLang(g), thinking: g.Active() && g.IsAITurn()}
	png, err := b.boardPNG(g, v, "")
	if err != nil {
		return nil, 0, err
	}
	photo := tgbotapi.NewPhoto(lc.Chat, tgbotapi.FileBytes{Name: "board.png", Bytes: png})
	photo.Caption = b.caption(g, v)
	photo.ReplyMarkup = b.keyboard(g, v)
	return photo, g.Version(), nil
}
