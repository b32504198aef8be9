package slow

import (
	"context"
	"strconv"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/bashni/bashni/bot"
	"github.com/bashni/bashni/play"
)

// KindPace is a pace button under a challenge without a live clock: Arg =
// days per move ("0": the server's timeout, tapped again to undo).
const KindPace = "sp"

// paceRow offers the paces (play.Paces) under a challenge that has no
// live clock (typed as /challenge 5+3: a clock or a pace, not both); the
// chosen one is marked, and tapping it again takes it back.
func paceRow(_ context.Context, k *bot.Kit, c *play.Challenge, lang string) []tgbotapi.InlineKeyboardButton {
	if c.TimeControl != "" {
		return nil
	}
	row := make([]tgbotapi.InlineKeyboardButton, 0, len(play.Paces))
	for _, d := range play.Paces {
		label, arg := k.Texts().N(lang, "btn_pace", d), strconv.Itoa(d)
		if d == c.DaysPerMove {
			label, arg = k.Texts().N(lang, "btn_pace_chosen", d), "0"
		}
		row = append(row, tgbotapi.NewInlineKeyboardButtonData(label, bot.Callback{Kind: KindPace, ID: c.ID, Ply: -1, Arg: arg}.Encode()))
	}
	return row
}

// onPace sets the pace the challenger tapped and redraws the challenge.
func onPace(ctx context.Context, k *bot.Kit, t bot.Tap) error {
	q := t.Query
	days, err := strconv.Atoi(t.Data.Arg)
	if err != nil {
		days = -1 // refused below as any pace out of range
	}
	c, err := k.Service().PaceChallenge(ctx, t.Data.ID, q.From.ID, days)
	if err != nil {
		k.Toast(q, k.RefusalText(t.Lang, err))
		return expected(k, err)
	}
	k.Toast(q, "")
	if q.Message == nil {
		return nil
	}
	lang := k.GroupLang(ctx, q.Message.Chat.ID, c.Lang)
	text, kb := k.ChallengeCard(ctx, c, lang)
	edit := tgbotapi.NewEditMessageTextAndMarkup(q.Message.Chat.ID, q.Message.MessageID, text, kb)
	edit.ParseMode = tgbotapi.ModeHTML
	k.Send(bot.ChatReplyID(q.Message.Chat.ID, edit))
	return nil
}
