package tournament

import (
	"context"
	"errors"
	"strconv"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/bashni/bashni/bot"
	"github.com/bashni/bashni/bot/telegram/outbox"
	arena "github.com/bashni/bashni/play/tournament"
	"github.com/bashni/bashni/texts"
)

// show shows what a step of a tournament did: new games' cards in their
// players' private chats, the group's card, the no-shows told, the final
// standings.
func (m *module) show(ctx context.Context, k *bot.Kit, ev *arena.Event) {
	if ev == nil {
		return
	}
	for _, g := range ev.Games {
		k.PostCards(g)
	}
	for _, g := range ev.Again {
		k.PostCardsAgain(g)
	}
	t := ev.T
	if ev.Card && t.MessageID != 0 {
		text, kb := wordsOf(k).tourCard(t)
		edit := tgbotapi.NewEditMessageTextAndMarkup(t.ChatID, t.MessageID, text, kb)
		edit.ParseMode = tgbotapi.ModeHTML
		edit.DisableWebPagePreview = true
		// Keyed: a newer card replaces one still waiting for the group's
		// pace, and never goes out older than one another replica sent.
		k.Send(outbox.Reply{Req: edit, ChatID: t.ChatID, Group: true, Key: "tour:" + strconv.FormatInt(t.ChatID, 10), Version: t.Version})
	}
	for _, p := range ev.NoShow {
		// Paused for a game they never moved in: told why, and how to
		// come back, in their private chat (the group's card shows ⏸).
		k.Send(bot.Message{ChatID: p.UserID, Text: k.Texts().T(texts.Lang(p.Lang), "tour_no_show")}.Reply())
	}
	if ev.Final {
		m.showFinal(ctx, k, ev)
	}
}

// showFinal posts the final standings, committed with their receipt
// straight to the outbox (not among a handled update's replies, which an
// update applied already drops): of the writer's copy and the clock's
// later ones (the domain shows them again until recorded shown) the mark
// lets one go out. They are recorded shown by whichever process sends
// them, once Telegram took them (recorded), never before: a final
// Telegram refused is not recorded shown.
func (m *module) showFinal(ctx context.Context, k *bot.Kit, ev *arena.Event) {
	t := ev.T
	r := bot.Message{ChatID: t.ChatID, Text: wordsOf(k).tourFinal(t), HTML: true, ReplyTo: t.MessageID}.Reply()
	r.Done = func(_ *tgbotapi.Message, err error) {
		var refused *tgbotapi.Error
		if errors.As(err, &refused) && refused.RetryAfter == 0 {
			// Telegram said no: owed again under a new receipt.
			k.Background(func(ctx context.Context) {
				if err := m.tours.FinalRefused(ctx, t.ChatID, t.ID); err != nil {
					k.Log().Warn("refused final standings not recorded", "chat", t.ChatID, "err", err)
				}
			})
		}
	}
	k.Direct().Committed(ctx, ev.Receipt, func(k *bot.Kit) { k.SendRecorded(r, finalRecord(t.ChatID, t.ID)) })
}
