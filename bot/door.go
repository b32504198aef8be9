package bot

import (
	"context"
	"strconv"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/bashni/bashni/bot/telegram/outbox"
	"github.com/bashni/bashni/texts"
)

// Door is an outbox that keeps each chat's lane bounded at the door
// (*outbox.Outbox, door.go there).
type Door interface {
	Admit(chatID int64) error
}

// admitted refuses an update for a chat whose outgoing lane is full,
// before anything is changed: every change owes the chat replies, and
// once stored they are sent, however long the lane (nothing owed is
// dropped). A tap is answered with a toast (answers do not wait in the
// chat's lane); a command gets one reply, keyed by the chat so that at
// most one such reply waits there however many commands come; other
// messages get nothing. The refusal is counted by the outbox.
func admitted(next updateHandler) updateHandler {
	return func(b *Bot, ctx context.Context, u tgbotapi.Update) (string, error) {
		chat, ok := updateChat(u)
		if !ok || b.door == nil || b.door.Admit(chat.ID) == nil {
			return next(b, ctx, u)
		}
		switch {
		case u.CallbackQuery != nil:
			b.toast(u.CallbackQuery, b.texts.T(langOf(u.CallbackQuery.From), "chat_busy"))
		case u.Message.IsCommand():
			r := outMessage{chatID: chat.ID, text: b.texts.T(langOf(u.Message.From), "chat_busy"), replyTo: u.Message.MessageID}.reply()
			r.Key = "busy:" + strconv.FormatInt(chat.ID, 10)
			b.send(r)
		}
		return "busy", nil
	}
}

// updateChat is the chat whose lane an update's replies join: that of
// the message, or of the message a tap came from (a tap on an inline
// message has none: its replies are the inline message's edits).
func updateChat(u tgbotapi.Update) (*tgbotapi.Chat, bool) {
	switch {
	case u.Message != nil && u.Message.Chat != nil:
		return u.Message.Chat, true
	case u.CallbackQuery != nil && u.CallbackQuery.Message != nil && u.CallbackQuery.Message.Chat != nil:
		return u.CallbackQuery.Message.Chat, true
	}
	return nil, false
}

// langOf is the language of a refusal told to u.
func langOf(u *tgbotapi.User) string {
	if u == nil {
		return texts.Lang("")
	}
	return texts.Lang(u.LanguageCode)
}

var _ Door = (*outbox.Outbox)(nil)

// Admit reports whether work for chatID may be taken on now (the Mini
// App asks it before a change): an error when the chat's outgoing lane is
// full. Nil without an outbox that keeps a bound.
func (b *Bot) Admit(chatID int64) error {
	if b.door == nil {
		return nil
	}
	return b.door.Admit(chatID)
}
