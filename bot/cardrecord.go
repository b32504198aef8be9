package bot

import (
	"context"
	"encoding/json"
	"fmt"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"
)

// A posted card's message id is what every later edit of the game's card
// needs. It is recorded as a team poll's id is (teampoll.go): the
// sendPhoto is kept in the journal with a Record naming the game, and
// whichever process sends it records the card before the outbox forgets
// the request. A crash before the send has the next process send and
// record it; a crash after Telegram took it, before the record, has it
// sent again (a twin card above, with buttons, whose taps still work:
// they name their game) and recorded then. Never a card posted and
// unrecorded while edits go to the card it replaced.

// sentCard names the game whose card a sent photo is.
type sentCard struct {
	Game string `json:"g"`
}

// cardRecord is the outbox.Reply.Record of a card posted for game id.
func cardRecord(id string) json.RawMessage {
	raw, _ := json.Marshal(sentRecord{Card: &sentCard{Game: id}}) // strings always encode
	return raw
}

// recordCard records msg, a card sent for c.Game, as the game's card: the
// card the store named before in that chat loses its buttons. If a newer
// card was recorded first (message ids grow in a chat), this one is the
// old card and loses its own.
func (b *Bot) recordCard(ctx context.Context, c *sentCard, msg *tgbotapi.Message) error {
	if msg.Chat == nil {
		return fmt.Errorf("bot: card of game %s: the answer names no chat", c.Game)
	}
	chatID := msg.Chat.ID
	cur, err := b.svc.Game(ctx, c.Game)
	if err != nil {
		return err
	}
	old := 0
	if cur.ChatID() == chatID {
		old = cur.MessageID()
	}
	if old > msg.MessageID {
		b.stripKeyboard(chatID, msg.MessageID)
		return nil
	}
	if _, err := b.svc.SetCard(ctx, c.Game, chatID, msg.MessageID, ""); err != nil {
		return err
	}
	if old != 0 && old < msg.MessageID {
		b.stripKeyboard(chatID, old)
	}
	return nil
}
