package versus

import (
	"context"
	"strconv"
	"strings"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/bashni/bashni/bot"
	"github.com/bashni/bashni/play"
	"github.com/bashni/bashni/rules"
)

// defaultPauseDays is /versus pause without a number of days.
const defaultPauseDays = 3

// isAdmin reports whether the sender of c administers its group (an
// anonymous administrator writes as the group); the service refuses
// anyone else.
func isAdmin(ctx context.Context, k *bot.Kit, c bot.Command) (bool, error) {
	msg := c.Msg
	if msg.SenderChat != nil && msg.SenderChat.ID == msg.Chat.ID {
		return true, nil
	}
	if msg.From == nil {
		return false, nil
	}
	return k.IsAdmin(ctx, msg.Chat.ID, msg.From.ID)
}

// pause is /versus pause [Nd] (the group's clock stops in its matches)
// and /versus resume (it runs again): each other group is told once, and
// the cards redrawn say the clock is stopped.
func (m *module) pause(ctx context.Context, k *bot.Kit, c bot.Command, arg string, resume bool) error {
	msg, lang := c.Msg, c.Lang
	days := defaultPauseDays
	if arg = strings.TrimSuffix(strings.ToLower(strings.TrimSpace(arg)), "d"); arg != "" {
		n, err := strconv.Atoi(strings.TrimSuffix(arg, "д"))
		if err != nil {
			n = 0 // refused by the service as out of range
		}
		days = n
	}
	admin, err := isAdmin(ctx, k, c)
	if err != nil {
		k.Text(msg.Chat, k.Texts().T(lang, "err_internal"), msg.MessageID)
		return err
	}
	var games []*play.Game
	key := "versus_resumed_other"
	if resume {
		games, err = m.svc.Resume(ctx, msg.Chat.ID, admin)
	} else {
		until, paused, perr := m.svc.Pause(ctx, msg.Chat.ID, admin, days)
		games, err, key = paused, perr, "versus_paused_other"
		if err == nil {
			k.Text(msg.Chat, k.Texts().N(lang, "versus_paused", days, "Days", days, "When", bot.FormatWhen(until)), msg.MessageID)
		}
	}
	if err != nil {
		k.Text(msg.Chat, k.RefusalText(lang, err), msg.MessageID)
		return nil
	}
	if resume {
		k.Text(msg.Chat, k.Texts().N(lang, "versus_resumed", len(games)), msg.MessageID)
	}
	for _, g := range games {
		other, otherLang := opponent(k, g, msg.Chat.ID)
		k.Text(&tgbotapi.Chat{ID: other, Type: "supergroup"}, k.Texts().T(otherLang, key, "Group", msg.Chat.Title,
			"When", bot.FormatWhen(g.HeldUntil(sideColor(g, msg.Chat.ID)))), 0)
		k.RedrawCard(g)
	}
	return nil
}

// opponent is the other group of match g than chat, and its language.
func opponent(k *bot.Kit, g *play.Game, chat int64) (int64, string) {
	l := g.Link()
	if l.MirrorChat == chat {
		return g.ChatID(), k.CardLang(g)
	}
	return l.MirrorChat, l.MirrorLang
}

// sideColor is chat's colour in match g.
func sideColor(g *play.Game, chat int64) rules.Color {
	if g.Team().Sides[0].Chat == chat {
		return rules.White
	}
	return rules.Black
}
