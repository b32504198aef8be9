package tournament

import (
	"context"
	"strconv"
	"strings"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/bashni/bashni/bot"
	"github.com/bashni/bashni/bot/telegram/outbox"
	"github.com/bashni/bashni/play"
	arena "github.com/bashni/bashni/play/tournament"
)

// Choices offered by /tournament alone.
var (
	tourControls  = []string{"1+0", "3+2", "5+3"}
	tourDurations = []string{"15m", "30m", "1h"}
)

// cmdTournament: "/tournament 5+3 30m" starts one at once; "/tournament"
// alone asks for the time control and the length with buttons.
func (m *module) cmdTournament(ctx context.Context, k *bot.Kit, c bot.Command) error {
	msg, lang := c.Msg, c.Lang
	if msg.Chat.IsPrivate() {
		k.Text(msg.Chat, k.Texts().T(lang, "tour_usage"), msg.MessageID)
		return nil
	}
	fields := strings.Fields(c.Args)
	if len(fields) == 0 {
		if t, err := m.tours.Current(ctx, msg.Chat.ID); err == nil && t.Status != arena.Finished {
			k.Text(msg.Chat, k.RefusalText(lang, arena.ErrRuns), msg.MessageID)
			return nil
		}
		kb := tourChoices(tourControls, func(tc string) string { return tc })
		k.Send(bot.Message{ChatID: msg.Chat.ID, Text: k.Texts().T(lang, "tour_choose_control"), Keyboard: &kb}.Reply())
		return nil
	}
	if len(fields) != 2 {
		k.Text(msg.Chat, k.Texts().T(lang, "tour_usage"), msg.MessageID)
		return nil
	}
	return m.start(ctx, k, msg.Chat.ID, msg.From, lang, fields[0], fields[1], 0, msg.MessageID)
}

// tourChoices is a row of setup buttons, one a choice.
func tourChoices(choices []string, arg func(string) string) tgbotapi.InlineKeyboardMarkup {
	var row []tgbotapi.InlineKeyboardButton
	for _, c := range choices {
		row = append(row, tgbotapi.NewInlineKeyboardButtonData(c, bot.Callback{Kind: KindTourSetup, Ply: -1, Arg: arg(c)}.Encode()))
	}
	return tgbotapi.NewInlineKeyboardMarkup(row)
}

// start starts a tournament and posts its card: as a new message, or in
// place of the setup question (setupID).
func (m *module) start(ctx context.Context, k *bot.Kit, chatID int64, from *tgbotapi.User, lang, control, length string, setupID, replyTo int) error {
	refuse := func(err error) error {
		k.Send(bot.Message{ChatID: chatID, Text: k.RefusalText(lang, err), ReplyTo: replyTo}.Reply())
		return err
	}
	if !play.IsTimeControl(control) {
		return refuse(play.ErrBadTimeControl)
	}
	d, err := arena.ParseDuration(length)
	if err != nil {
		return refuse(err)
	}
	t, err := m.tours.Start(ctx, arena.Request{ChatID: chatID, By: k.Player(from), TimeControl: control, Duration: d, Lang: lang})
	if err != nil {
		return refuse(err)
	}
	text, kb := wordsOf(k).tourCard(t)
	var r outbox.Reply
	if setupID != 0 {
		edit := tgbotapi.NewEditMessageTextAndMarkup(chatID, setupID, text, kb)
		edit.ParseMode = tgbotapi.ModeHTML
		edit.DisableWebPagePreview = true
		r = outbox.Reply{Req: edit, ChatID: chatID, Group: true}
		if err := m.tours.Attach(ctx, chatID, t.ID, setupID); err != nil {
			k.Log().Warn("tournament card not recorded", "chat", chatID, "err", err)
		}
	} else {
		r = bot.Message{ChatID: chatID, Text: text, HTML: true, Keyboard: &kb}.Reply()
		r.Done = func(msg *tgbotapi.Message, err error) {
			if err != nil || msg == nil {
				return
			}
			k.Background(func(ctx context.Context) {
				if err := m.tours.Attach(ctx, chatID, t.ID, msg.MessageID); err != nil {
					k.Log().Warn("tournament card not recorded", "chat", chatID, "err", err)
				}
			})
		}
	}
	k.Send(r)
	return nil
}

// onSetup answers the setup buttons of /tournament alone.
func (m *module) onSetup(ctx context.Context, k *bot.Kit, tp bot.Tap) error {
	q, lang := tp.Query, tp.Lang
	if q.Message == nil || q.Message.Chat == nil {
		k.Toast(q, k.Texts().T(lang, "err_stale"))
		return nil
	}
	chat := q.Message.Chat
	control, length, both := strings.Cut(tp.Data.Arg, " ")
	if !both {
		if !play.IsTimeControl(control) {
			k.Toast(q, k.RefusalText(lang, play.ErrBadTimeControl))
			return nil
		}
		k.Toast(q, "")
		kb := tourChoices(tourDurations, func(d string) string { return control + " " + d })
		edit := tgbotapi.NewEditMessageTextAndMarkup(chat.ID, q.Message.MessageID, k.Texts().T(lang, "tour_choose_length", "Control", control), kb)
		k.Send(outbox.Reply{Req: edit, ChatID: chat.ID, Group: !chat.IsPrivate()})
		return nil
	}
	if t, err := m.tours.Current(ctx, chat.ID); err == nil && t.Status != arena.Finished {
		k.Toast(q, k.RefusalText(lang, arena.ErrRuns))
		return nil
	}
	if _, err := arena.ParseDuration(length); err != nil || !play.IsTimeControl(control) {
		k.Toast(q, k.Texts().T(lang, "err_stale"))
		return nil
	}
	k.Toast(q, "")
	return m.start(ctx, k, chat.ID, q.From, lang, control, length, q.Message.MessageID, 0)
}

// onTap answers Join, Leave and Pause on the group's card: a toast says
// what happened (Telegram does not count toasts against the group), and
// the card shows it at its next edit.
func (m *module) onTap(ctx context.Context, k *bot.Kit, tp bot.Tap) error {
	q, cb, user, lang := tp.Query, tp.Data, tp.User, tp.Lang
	if q.Message == nil || q.Message.Chat == nil {
		k.Toast(q, k.Texts().T(lang, "err_stale"))
		return nil
	}
	chatID := q.Message.Chat.ID
	var ev *arena.Event
	var err error
	var toast string
	switch cb.Kind {
	case KindTourJoin:
		if !user.CanDM || user.Blocked {
			// Their games come in their private chat with the bot, which
			// it may not write to before they start it: the toast's link
			// opens it, and /start with it joins them.
			k.Send(outbox.Reply{Req: tgbotapi.CallbackConfig{CallbackQueryID: q.ID, Text: k.Texts().T(lang, "tour_start_bot_first"),
				URL: joinLink(k.Username(), chatID, cb.ID)}})
			return nil
		}
		ev, err = m.tours.Join(ctx, chatID, cb.ID, k.Player(q.From), user.Lang)
		toast = k.Texts().T(lang, "tour_joined")
	case KindTourLeave:
		ev, err = m.tours.Leave(ctx, chatID, cb.ID, q.From.ID)
		toast = k.Texts().T(lang, "tour_left")
	case KindTourPause:
		var paused bool
		ev, paused, err = m.tours.Pause(ctx, chatID, cb.ID, q.From.ID)
		toast = k.Texts().T(lang, "tour_resumed")
		if paused {
			toast = k.Texts().T(lang, "tour_paused")
		}
	}
	if err != nil {
		k.Toast(q, k.RefusalText(lang, err))
		return err
	}
	k.Toast(q, toast)
	m.show(ctx, k, ev)
	return nil
}

// startJoin handles /start tj<chat>_<id>: a player who had not started the
// bot tapped Join and came here by its link; now the bot may write to them.
func (m *module) startJoin(ctx context.Context, k *bot.Kit, c bot.Command) error {
	msg, lang := c.Msg, c.Lang
	chatText, id, ok := strings.Cut(c.Args, "_")
	chatID, err := strconv.ParseInt(chatText, 10, 64)
	if !ok || err != nil || id == "" || !msg.Chat.IsPrivate() {
		k.Text(msg.Chat, k.Texts().T(lang, "err_stale"), msg.MessageID)
		return nil
	}
	if !k.MayActFor(ctx, chatID, msg.From.ID, lang, func(text string) { k.Text(msg.Chat, text, msg.MessageID) }) {
		return nil
	}
	ev, err := m.tours.Join(ctx, chatID, id, k.Player(msg.From), c.User.Lang)
	if err != nil {
		k.Text(msg.Chat, k.RefusalText(lang, err), msg.MessageID)
		return err
	}
	k.Text(msg.Chat, k.Texts().T(lang, "tour_joined"), msg.MessageID)
	m.show(ctx, k, ev)
	return nil
}
