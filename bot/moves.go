package bot

import (
	"context"
	"errors"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/bashni/bashni/bot/telegram/outbox"
	"github.com/bashni/bashni/play"
	"github.com/bashni/bashni/texts"
)

// onPick handles a tap on the move picker.
func (b *Bot) onPick(ctx context.Context, t tap) error {
	q, cb, lang := t.q, t.cb, t.lang
	g, err := b.svc.Game(ctx, cb.ID)
	if err != nil {
		b.toast(q, b.texts.Error(lang, err, false))
		return err
	}
	if err := g.MayMove(q.From.ID, cb.Ply); err != nil {
		msg := b.texts.Error(lang, err, false)
		if errors.Is(err, play.ErrNotYourTurn) {
			_, p := g.ToMove()
			msg = b.texts.T(lang, "err_not_your_turn_who", "Player", b.texts.PlayerName(lang, p))
		}
		b.toast(q, msg)
		return err
	}
	b.locateCard(g, q)
	read := g
	// A pick is shown on the card tapped (a mirrored game has two).
	g = tappedCard(g, q)
	code, confirmed := splitConfirm(cb.Arg)
	picked, _ := decodeSquares(code) // ParseCallback checked it
	legal := g.Rules().Legal()
	res, ok := resolvePick(legal, picked, wholeMovesFor(g.ChatID()))
	if !ok {
		b.toast(q, b.texts.T(lang, "err_stale"))
		return nil
	}
	if res.move == nil {
		b.toast(q, "")
		v := cardView{lang: cardLang(g), selected: res.selected, stage: res.keyboard}
		if res.selected == nil {
			// Back to the first stage: only the buttons change.
			b.editKeyboard(g, b.keyboard(g, v))
			return nil
		}
		// The board shows the picked tower and where it can land, and the
		// caption lists the tower piece by piece (the picture draws only
		// the top five of a tower taller than 8). Redrawing costs a PNG,
		// but the edit is one edit either way, which is what Telegram's
		// pacing counts.
		{
			for _, m := range legal {
				if m.From() == *res.selected {
					v.targets = append(v.targets, m.To())
				}
			}
		}
		b.editCard(g, v, "", nil)
		return nil
	}
	if !confirmed && b.mods.confirms(ctx, b.kit(), g, t.user) {
		// The second tap plays it: only the buttons change.
		b.toast(q, "")
		b.editKeyboard(g, b.keyboard(g, cardView{lang: cardLang(g), stage: confirmStage(*res.move)}))
		return nil
	}
	// Decided on the game as read above: one read of the game a tap.
	out, err := b.svc.MoveFrom(ctx, read, q.From.ID, cb.Ply, res.move.String())
	if err != nil {
		b.toast(q, b.texts.Error(lang, err, false))
		return err
	}
	b.toast(q, "")
	b.locateCard(out.Game, q)
	b.afterMove(ctx, out)
	return nil
}

// typedMove plays a move typed in notation by user in chat, in game g.
func (b *Bot) typedMove(ctx context.Context, msg *tgbotapi.Message, g *play.Game, text, lang string) error {
	out, err := b.svc.Move(ctx, g.ID(), msg.From.ID, play.AnyPly, text)
	if err != nil {
		reply := b.texts.Error(lang, err, true)
		if errors.Is(err, play.ErrNotYourTurn) {
			_, p := g.ToMove()
			reply = b.texts.T(lang, "err_not_your_turn_who", "Player", b.texts.PlayerName(lang, p))
		}
		b.refuseTyped(ctx, msg, text, reply)
		return err
	}
	b.afterMove(ctx, out)
	return nil
}

// refusalReaction marks a typed move that was not played.
const refusalReaction = "👎"

// refuseTyped tells the player why their typed move was not played. In a
// private chat, a reply. In a group a reply would spend one of the bot's
// 20 messages a minute there and hold the next board back by seconds, so
// a player who has started the bot gets a reaction on their message (not a
// message: see outbox.unpacedMethods) and the reason in their private
// chat; only if that is refused, or they never started the bot, does the
// reason go to the group.
func (b *Bot) refuseTyped(ctx context.Context, msg *tgbotapi.Message, move, reason string) {
	if msg.Chat.IsPrivate() {
		b.text(msg.Chat, reason, msg.MessageID)
		return
	}
	u, err := b.svc.User(ctx, msg.From.ID)
	if err != nil || !u.CanDM || u.Blocked {
		b.text(msg.Chat, reason, msg.MessageID)
		return
	}
	params := tgbotapi.Params{}
	params.AddFirstValid("chat_id", msg.Chat.ID)
	params.AddNonZero("message_id", msg.MessageID)
	params["reaction"] = `[{"type":"emoji","emoji":"` + refusalReaction + `"}]`
	b.send(outbox.Reply{Call: &outbox.Call{Method: "setMessageReaction", Params: params}, ChatID: msg.Chat.ID, Group: true})
	lang := texts.Lang(u.Lang)
	r := outMessage{chatID: msg.From.ID, text: b.texts.T(lang, "refused_in_group", "Chat", msg.Chat.Title, "Move", move) + "\n" + reason}.reply()
	r.Done = func(_ *tgbotapi.Message, err error) {
		if err != nil && isForbidden(err) {
			b.text(msg.Chat, reason, msg.MessageID) // they blocked the bot meanwhile
		}
	}
	b.send(r)
}

// afterMove shows a move: the card is redrawn, the mover's old notice goes,
// the next player is told, and then the game ends or the AI replies.
func (b *Bot) afterMove(ctx context.Context, out *play.Outcome) {
	g := out.Game
	if out.MoverNotice != 0 {
		b.deleteNotice(g, out.Mover.UserID, out.MoverNotice)
	}
	defer b.mods.moved(ctx, b.kit(), out)
	if out.Ended {
		b.showGameOver(ctx, g)
		return
	}
	b.ownedTurn(ctx, b.mods.owned(g), g) // a module's turn (a group's poll closed, or a new one due)
	if g.IsAITurn() {
		// The board with the player's move and "thinking" waits a moment:
		// if the AI answers meanwhile, only the board with its reply is
		// sent. A chat gets about one message a second, and spending it on
		// a board shown for a fraction of one would hold the reply back.
		// The AI's move itself is owed in the store (play's RunAI makes
		// it, and AIHooks shows it); "typing" follows that board once it is
		// sent (typing.go).
		b.thinking(g.ID(), true)
		v := cardView{lang: cardLang(g), thinking: true, hold: aiGrace, sent: func() { b.typingIfThinking(g) }}
		b.editCard(g, v, "", nil)
		return
	}
	b.editCard(g, cardView{lang: cardLang(g)}, "", nil)
	if b.noticesNow() {
		b.notifyTurn(ctx, g, out.Move.String())
	}
}

// aiGrace is how long the AI may take before the board shows the player's
// move with a thinking line (see afterMove).
const aiGrace = 600 * time.Millisecond

// AIHooks shows the AI's moves that play's RunAI makes: the move as any
// move is shown. "typing" is not sent as the search starts but follows
// the board that says "thinking" (typing.go).
func (b *Bot) AIHooks() play.AIHooks {
	return play.AIHooks{
		Thinking: func(_ context.Context, g *play.Game) {
			b.thinking(g.ID(), true)
		},
		// The AI's move is stored with its event under a receipt of its
		// own: what shows it is committed with that receipt.
		Moved: func(ctx context.Context, out *play.Outcome) {
			b.thinking(out.Game.ID(), false) // before the move is queued: no "typing" after it
			b.committed(ctx, play.ReceiptOf(ctx), func(b *Bot) { b.afterMove(ctx, out) })
		},
		// A move refused because the game was lost on time meanwhile:
		// the AI's attempt may be what settled it.
		Failed: func(ctx context.Context, err error) {
			b.committed(ctx, play.ReceiptOf(ctx), func(b *Bot) { b.settledOnTime(ctx, err) })
		},
	}
}
