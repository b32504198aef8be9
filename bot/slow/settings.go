package slow

import (
	"context"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/bashni/bashni/bot"
	"github.com/bashni/bashni/play"
	slowplay "github.com/bashni/bashni/play/slow"
)

// The settings rows are the user's own, shown in their private chat only
// (a group's /settings has no row of theirs to read).

// user is the reader of /settings in chat, if it is a private chat.
func user(ctx context.Context, k *bot.Kit, chat *tgbotapi.Chat) (*play.User, bool) {
	if chat == nil || !chat.IsPrivate() {
		return nil, false
	}
	u, err := k.Service().User(ctx, chat.ID)
	if err != nil {
		u = play.Newcomer(chat.ID)
	}
	return u, true
}

// showAway is the absence's row: where one stands, and a button to go
// away for a week or to come back.
func (m *module) showAway(ctx context.Context, k *bot.Kit, chat *tgbotapi.Chat, lang string) (string, string, bool) {
	u, ok := user(ctx, k, chat)
	if !ok {
		return "", "", false
	}
	line := "\n" + m.status(u, lang, k)
	if _, away := slowplay.IsAway(u, m.svc.Now()); away {
		return line, k.Texts().T(lang, "btn_away_back"), true
	}
	return line, k.Texts().N(lang, "btn_away_go", settingsAwayDays), true
}

func (m *module) toggleAway(ctx context.Context, k *bot.Kit, t bot.Tap) error {
	q := t.Query
	if q.Message == nil || !q.Message.Chat.IsPrivate() {
		k.Toast(q, "")
		return nil
	}
	chat := q.Message.Chat
	u, _ := user(ctx, k, chat)
	var err error
	if _, away := slowplay.IsAway(u, m.svc.Now()); away {
		err = m.back(ctx, k, q.From.ID, chat, 0, t.Lang)
	} else {
		// The tap's message and the row's state name the command: the
		// same tap again (redelivered) is the same absence.
		by := "s" + q.ID
		err = m.away(ctx, k, q.From, settingsAwayDays*24*time.Hour, by, chat, 0, t.Lang)
	}
	k.Toast(q, "")
	k.ShowSettings(ctx, chat, q.From.ID, t.Lang, q.Message.MessageID)
	return err
}

// showConfirm is the confirmation's row: its state, and a button that
// moves it on (the default, always, never).
func (m *module) showConfirm(ctx context.Context, k *bot.Kit, chat *tgbotapi.Chat, lang string) (string, string, bool) {
	u, ok := user(ctx, k, chat)
	if !ok {
		return "", "", false
	}
	state := k.Texts().T(lang, "confirm_"+confirmName(u.Slow.Confirm))
	return "\n" + k.Texts().T(lang, "settings_confirm", "State", state), k.Texts().T(lang, "btn_confirm", "State", state), true
}

func (m *module) toggleConfirm(ctx context.Context, k *bot.Kit, t bot.Tap) error {
	q := t.Query
	cur := ""
	if t.User != nil {
		cur = t.User.Slow.Confirm
	}
	_, err := m.svc.SetConfirm(ctx, q.From.ID, slowplay.NextConfirm(cur))
	if err != nil {
		k.Toast(q, k.RefusalText(t.Lang, err))
		return err
	}
	k.Toast(q, "")
	if q.Message != nil {
		k.ShowSettings(ctx, q.Message.Chat, q.From.ID, t.Lang, q.Message.MessageID)
	}
	return nil
}

// confirmName names a confirmation setting in the texts' keys.
func confirmName(c string) string {
	if c == slowplay.ConfirmAuto {
		return "auto"
	}
	return c
}
