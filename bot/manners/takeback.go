package manners

import (
	"context"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/bashni/bashni/bot"
	"github.com/bashni/bashni/play"
	"github.com/bashni/bashni/play/manners"
)

// takeback takes the sender's last move back against the AI (the core's
// Takeback, bounded per game), and between people asks their opponent,
// who answers on the card.
func (m module) takeback(ctx context.Context, k *bot.Kit, c bot.Command) error {
	g, err := k.GameForCommand(ctx, c.Msg, c.Lang)
	if err != nil || g == nil {
		return err
	}
	if g.AgainstAI() {
		out, err := k.Service().Takeback(ctx, g.ID(), c.Msg.From.ID, play.AnyPly)
		if err != nil {
			return refuse(k, c, err)
		}
		k.RedrawCard(out.Game)
		k.Text(c.Msg.Chat, k.Texts().T(c.Lang, "takeback_done", "Left", play.TakebacksPerGame-out.Game.Takebacks()), c.Msg.MessageID)
		return nil
	}
	asked, err := m.s.AskTakeback(ctx, g.ID(), c.Msg.From.ID)
	if err != nil {
		return refuse(k, c, err)
	}
	k.RedrawCard(asked)
	k.Text(c.Msg.Chat, k.Texts().T(c.Lang, "takeback_asked"), c.Msg.MessageID)
	return nil
}

// cardRow is the opponent's answer to a takeback asked for, on the card.
func cardRow(k *bot.Kit, lang string, g *play.Game) []tgbotapi.InlineKeyboardButton {
	if manners.TakebackAsked(g) == 0 {
		return nil
	}
	return tgbotapi.NewInlineKeyboardRow(
		tgbotapi.NewInlineKeyboardButtonData(k.Texts().T(lang, "btn_takeback_accept"), bot.Callback{Kind: KindTakebackYes, ID: g.ID(), Ply: g.Ply()}.Encode()),
		tgbotapi.NewInlineKeyboardButtonData(k.Texts().T(lang, "btn_takeback_decline"), bot.Callback{Kind: KindTakebackNo, ID: g.ID(), Ply: g.Ply()}.Encode()),
	)
}

// answerTakeback is the opponent's tap on the card: the board goes back
// a move, or the question goes; the card shows either, and the chat is
// told (a new message, so that the asker hears of it).
func (m module) answerTakeback(accept bool) bot.TapFunc {
	return func(ctx context.Context, k *bot.Kit, t bot.Tap) error {
		g, err := m.s.AnswerTakeback(ctx, t.Data.ID, t.Query.From.ID, t.Data.Ply, accept)
		if err != nil {
			k.Toast(t.Query, k.RefusalText(t.Lang, err))
			if k.Expected(err) {
				return nil
			}
			return err
		}
		k.Toast(t.Query, "")
		k.RedrawCard(g)
		if msg := t.Query.Message; msg != nil {
			lang := k.CardLang(g)
			key := "takeback_declined"
			if accept {
				key = "takeback_accepted"
			}
			k.Text(msg.Chat, k.Texts().T(lang, key, "Player", bot.DisplayName(t.Query.From)), 0)
		}
		return nil
	}
}
