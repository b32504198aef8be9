// Package assist is the engine helping a player in a game against the AI:
// /hint draws the engine's move on the board, bounded per game (package
// play). /takeback, against the AI and between people, is bot/manners'.
package assist

import (
	"context"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/bashni/bashni/bot"
	"github.com/bashni/bashni/play"
	"github.com/bashni/bashni/render"
)

// Module is /hint.
func Module() bot.Module {
	return bot.Module{
		Name:     "assist",
		Commands: map[string]bot.CommandFunc{"hint": hint},
		Menu:     []string{"hint"},
	}
}

// hint sends the engine's move for the sender's game against the AI as a
// board with the move drawn on it. The search runs in the background.
func hint(ctx context.Context, k *bot.Kit, c bot.Command) error {
	g, err := k.GameForCommand(ctx, c.Msg, c.Lang)
	if err != nil || g == nil {
		return err
	}
	chat, from, replyTo, lang := c.Msg.Chat, c.Msg.From.ID, c.Msg.MessageID, c.Lang
	k.Send(bot.ChatReply(chat, tgbotapi.NewChatAction(chat.ID, tgbotapi.ChatTyping)))
	k.Background(func(ctx context.Context) {
		h, err := k.Service().Hint(ctx, g.ID(), from, play.AnyPly)
		if err != nil {
			k.SettledOnTime(ctx, err)
			k.Text(chat, k.RefusalText(lang, err), replyTo)
			if !k.Expected(err) {
				k.Log().Warn("hint failed", "game", g.ID(), "err", err)
			}
			return
		}
		png, err := k.Renderer().PNG(h.Game.Position(), hintOptions(h, from))
		if err != nil {
			k.Log().Error("drawing the hint", "game", g.ID(), "err", err)
			return
		}
		photo := tgbotapi.NewPhoto(chat.ID, tgbotapi.FileBytes{Name: "hint.png", Bytes: png})
		photo.Caption = k.Texts().T(lang, "hint_caption", "Move", h.Move.String()) + "\n" + k.Texts().N(lang, "hints_left", h.Left)
		// Not a reply: tgbotapi's photo upload knows only the reply
		// parameters the spec no longer lists, and the caption names the
		// move.
		k.Send(bot.ChatReply(chat, photo))
	})
	return nil
}

// hintOptions draw the hint as the picker draws a choice (the tower
// picked, a marker where it lands), not in the last move's colours: the
// board shows the opponent's last move too, and the two must not be
// mistaken for each other.
func hintOptions(h *play.Hint, from int64) render.Options {
	start := h.Move.From()
	o := render.Options{Selected: &start}
	for i := range h.Move.Len() {
		o.Targets = append(o.Targets, h.Move.Landing(i))
	}
	if last, ok := h.Game.LastMove(); ok {
		o.LastMove = &last
	}
	if c, ok := h.Game.ColorOf(from); ok {
		o.Perspective = c
	}
	return o
}
