package bot

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/bashni/bashni/bot/telegram/outbox"
	"github.com/bashni/bashni/play"
	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"
)

// postCard sends a new card for g to chat and records it as the game's
// card (in whichever process sends it: recordCard); first (if any) is the
// call of the game's first turn, which follows the card: owed in the
// card's record's write (recordCard), or, without a journal, made in the
// background once the card is recorded, in this process.
func (b *Bot) postCard(chat *tgbotapi.Chat, g *play.Game, theme string, first *firstTurn) error {
	var after func(ctx context.Context, g *play.Game)
	if first != nil && !b.recordsSent {
		// Without a journal, the call follows in this process; with one,
		// it is owed by the card's record (cardrecord.go).
		after = func(ctx context.Context, g *play.Game) { b.callFirstTurn(ctx, g, first.skip) }
	}
	// When the AI is to move (it plays first, or a restart left it to
	// move), the card says it is thinking: its move follows.
	v := cardView{lang: cardLang(g), thinking: g.Active() && g.IsAITurn()}
	png, err := b.boardPNG(g, v, theme)
	if err != nil {
		return fmt.Errorf("bot: drawing the board: %w", err)
	}
	photo := tgbotapi.NewPhoto(chat.ID, tgbotapi.FileBytes{Name: "board.png", Bytes: png})
	photo.Caption = b.caption(g, v)
	photo.ReplyMarkup = b.keyboard(g, v)
	r := chatReply(chat, photo)
	b.locateCard(g, nil) // a card posted a moment ago is the old card too
	var olds []int       // earlier cards of the game in this chat
	if g.MessageID() != 0 && g.ChatID() == chat.ID {
		olds = append(olds, g.MessageID())
	}
	// Until Telegram answers, edits of the game's card wait for this one
	// (the game's record may not name even the old card yet).
	rp := b.startRepost(g.ID())
	r.Done = func(msg *tgbotapi.Message, err error) {
		if err != nil || msg == nil {
			b.endRepost(g.ID(), rp) // edits kept meanwhile go to the old card
			if err != nil && !errors.Is(err, outbox.ErrShutdown) && g.Ply() == 0 && g.IsAITurn() {
				// The first card refused (a player who never started the
				// bot): the AI's first move waited for it.
				b.svc.CardRefused(g.ID())
			}
			return
		}
		ref := cardRef{chatID: chat.ID, messageID: msg.MessageID}
		if prev, ok := b.freshCards.Swap(g.ID(), ref); ok {
			// A card sent just before this one (a /board right after the
			// game began) is older than anything the store knew.
			if p := prev.(cardRef); p.chatID == chat.ID {
				olds = append(olds, p.messageID)
			}
		}
		b.endRepost(g.ID(), rp)
		b.background(func(ctx context.Context) {
			defer b.freshCards.CompareAndDelete(g.ID(), ref)
			if !b.recordsSent {
				b.recordPosted(ctx, g.ID(), ref, olds, after)
			}
			// Else recorded by recordCard before the outbox let this
			// run, with what follows owed in the same write.
		})
	}
	if b.recordsSent {
		// The card is recorded as the game's by whichever process sends
		// it (recordCard), before the outbox forgets the request: a crash
		// after the send leaves no card posted and unrecorded.
		r.Record = cardReplyRecord(g, first)
	}
	if err := b.out.Enqueue(r); err != nil {
		b.log.Warn("reply dropped", "chat", r.ChatID, "err", err)
		b.endRepost(g.ID(), rp) // Done never comes: edits go ahead
	}
	return nil
}

// recordPosted records card ref, just posted for game id, as the game's
// in this process (a sender that records nothing: a test's), unless a newer
// card was recorded first; the older cards (olds and the one the store
// named) lose their keyboards; then after runs with the stored game.
func (b *Bot) recordPosted(ctx context.Context, id string, ref cardRef, olds []int, after func(ctx context.Context, g *play.Game)) {
	// The card the store has now may have been recorded since this one
	// was asked for.
	if cur, err := b.svc.Game(ctx, id); err == nil && cur.ChatID() == ref.chatID && cur.MessageID() != 0 {
		if cur.MessageID() > ref.messageID {
			// A newer card (message ids grow in a chat) was recorded
			// first: this one is the old card.
			b.stripKeyboard(ref.chatID, ref.messageID)
			if after != nil {
				after(ctx, cur)
			}
			return
		}
		olds = append(olds, cur.MessageID())
	}
	stored, err := b.svc.SetCard(ctx, id, ref.chatID, ref.messageID, "")
	if err != nil {
		b.log.Warn("card not recorded", "game", id, "err", err)
		return
	}
	slices.Sort(olds)
	for _, old := range slices.Compact(olds) {
		if old < ref.messageID {
			b.stripKeyboard(ref.chatID, old)
		}
	}
	if after != nil {
		after(ctx, stored)
	}
}

// stripKeyboard takes the buttons off an old card: only one live card a
// game.
func (b *Bot) stripKeyboard(chatID int64, messageID int) {
	b.send(outbox.Reply{Req: tgbotapi.NewEditMessageReplyMarkup(chatID, messageID, tgbotapi.InlineKeyboardMarkup{InlineKeyboard: [][]tgbotapi.InlineKeyboardButton{}}), ChatID: chatID})
}

// locateCard fills in where g's card is when the stored record does not say
// yet: a card posted a moment ago whose message id is still being stored,
// or else the message a tap came from.
func (b *Bot) locateCard(g *play.Game, q *tgbotapi.CallbackQuery) {
	if ref, ok := b.freshCards.Load(g.ID()); ok {
		// Newer than what the store says (a /board repost in flight).
		c := ref.(cardRef)
		g.ShowCardAt(c.chatID, c.messageID, "")
		return
	}
	if g.MessageID() != 0 || g.InlineMessageID() != "" {
		return
	}
	if q != nil && q.Message != nil && q.Message.Chat != nil {
		g.ShowCardAt(q.Message.Chat.ID, q.Message.MessageID, "")
		return
	}
	// g was written before its card's message id was stored (a resign
	// just after the card went out), and the card has been stored since:
	// ask the store where it is.
	if cur, err := b.svc.Game(b.bgCtx, g.ID()); err == nil && (cur.MessageID() != 0 || cur.InlineMessageID() != "") {
		g.ShowCardAt(cur.ChatID(), cur.MessageID(), cur.InlineMessageID())
	}
}
