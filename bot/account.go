package bot

import (
	"context"
	"strings"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/bashni/bashni/play"
	"github.com/bashni/bashni/render"
	"github.com/bashni/bashni/texts"
)

func langKeyboard() *tgbotapi.InlineKeyboardMarkup {
	kb := tgbotapi.NewInlineKeyboardMarkup(tgbotapi.NewInlineKeyboardRow(
		tgbotapi.NewInlineKeyboardButtonData("English", Callback{Kind: KindLang, Ply: -1, Arg: "en"}.Encode()),
		tgbotapi.NewInlineKeyboardButtonData("Русский", Callback{Kind: KindLang, Ply: -1, Arg: "ru"}.Encode()),
	))
	return &kb
}

func (b *Bot) onLang(ctx context.Context, t tap) error {
	q, code, tapLang := t.q, t.cb.Arg, t.lang
	lang := texts.Lang(code)
	if q.Message != nil && q.Message.Chat != nil && !q.Message.Chat.IsPrivate() {
		return b.onGroupLang(ctx, q, lang, tapLang) // the group's, not the tapper's
	}
	if _, err := b.svc.UpdateUser(ctx, q.From.ID, func(u *play.User) { u.Lang = lang }); err != nil {
		b.toast(q, b.texts.Error(texts.Lang(q.From.LanguageCode), err, false))
		return err
	}
	b.toast(q, b.texts.T(lang, "lang_set"))
	if q.Message != nil {
		b.editText(q.Message, b.texts.T(lang, "lang_set"), nil)
	}
	return nil
}

// showSettings shows the user's settings with toggles; with messageID it
// edits that message instead of sending a new one.
func (b *Bot) showSettings(ctx context.Context, chat *tgbotapi.Chat, u *play.User, lang string, messageID int) {
	theme := u.Theme
	if theme == "" {
		theme = render.ThemeNames()[0]
	}
	view := b.texts.T(lang, "settings_view_own")
	if u.Flip {
		view = b.texts.T(lang, "settings_view_white")
	}
	notify := b.texts.T(lang, "on")
	if !u.Notify {
		notify = b.texts.T(lang, "off")
	}
	theme = themeName(b.texts, lang, theme)
	text := b.texts.T(lang, "settings", "Theme", theme, "View", view, "Notify", notify)
	kb := tgbotapi.NewInlineKeyboardMarkup(
		tgbotapi.NewInlineKeyboardRow(tgbotapi.NewInlineKeyboardButtonData(b.texts.T(lang, "btn_theme", "Theme", theme), Callback{Kind: KindSetting, Ply: -1, Arg: "theme"}.Encode())),
		tgbotapi.NewInlineKeyboardRow(tgbotapi.NewInlineKeyboardButtonData(b.texts.T(lang, "btn_view", "View", view), Callback{Kind: KindSetting, Ply: -1, Arg: "view"}.Encode())),
		tgbotapi.NewInlineKeyboardRow(tgbotapi.NewInlineKeyboardButtonData(b.texts.T(lang, "btn_notify", "Notify", notify), Callback{Kind: KindSetting, Ply: -1, Arg: "notify"}.Encode())),
	)
	for _, s := range b.mods.settings { // the modules' own rows (Module.Settings)
		if line, label, ok := s.Show(ctx, b.kit(), chat, lang); ok {
			text += line
			kb.InlineKeyboard = append(kb.InlineKeyboard, tgbotapi.NewInlineKeyboardRow(
				tgbotapi.NewInlineKeyboardButtonData(label, Callback{Kind: KindSetting, Ply: -1, Arg: s.name}.Encode())))
		}
	}
	if messageID != 0 {
		e := tgbotapi.NewEditMessageTextAndMarkup(chat.ID, messageID, text, kb)
		b.send(chatReply(chat, e))
		return
	}
	b.send(outMessage{chatID: chat.ID, text: text, markup: &kb}.reply())
}

// coreSettings are the user's own settings, the core's rows in /settings.
var coreSettings = map[string]bool{"theme": true, "view": true, "notify": true}

func (b *Bot) onSetting(ctx context.Context, t tap) error {
	q, which, lang := t.q, t.cb.Arg, t.lang
	if s, ok := b.mods.setting(which); ok {
		return s.Toggle(ctx, b.kit(), Tap{Query: q, Data: t.cb, User: t.user, Lang: lang})
	}
	u, err := b.svc.UpdateUser(ctx, q.From.ID, func(u *play.User) {
		switch which {
		case "theme":
			names := render.ThemeNames()
			next := names[0]
			for i, n := range names {
				if n == u.Theme || (u.Theme == "" && i == 0) {
					next = names[(i+1)%len(names)]
				}
			}
			u.Theme = next
		case "view":
			u.Flip = !u.Flip
		case "notify":
			u.Notify = !u.Notify
		}
	})
	if err != nil {
		b.toast(q, b.texts.Error(lang, err, false))
		return err
	}
	b.toast(q, "") // the message itself shows the new setting
	if q.Message != nil {
		b.showSettings(ctx, q.Message.Chat, u, lang, q.Message.MessageID)
	}
	return nil
}

// themeName is a board theme's name in lang, or its own name when the
// texts do not know it.
func themeName(words *texts.Catalog, lang, theme string) string {
	id := "theme_" + theme
	if s := words.T(lang, id); s != id {
		return s
	}
	return theme
}

// cmdLang sets the language given as the argument ("/lang ru"), or asks.
func (b *Bot) cmdLang(ctx context.Context, c command) error {
	msg, lang, arg := c.msg, c.lang, c.args
	if !msg.Chat.IsPrivate() {
		return b.cmdGroupLang(ctx, msg, lang, arg) // the group's, not the sender's
	}
	code := langArg(arg)
	if code == "" {
		b.html(msg.Chat, b.texts.T(lang, "lang_choose"), langKeyboard())
		return nil
	}
	if _, err := b.svc.UpdateUser(ctx, msg.From.ID, func(u *play.User) { u.Lang = code }); err != nil {
		b.text(msg.Chat, b.texts.Error(lang, err, false), msg.MessageID)
		return err
	}
	b.text(msg.Chat, b.texts.T(code, "lang_set"), msg.MessageID)
	return nil
}

// langArg reads a language named in /lang's argument: a code or the
// language's own name; "" when there is none it knows.
func langArg(arg string) string {
	switch strings.ToLower(strings.TrimSpace(arg)) {
	case "en", "eng", "english", "английский":
		return "en"
	case "ru", "rus", "russian", "русский", "ру":
		return "ru"
	}
	return ""
}

// cmdSettings is /settings: the sender's settings, in a new message.
func (b *Bot) cmdSettings(ctx context.Context, c command) error {
	b.showSettings(ctx, c.msg.Chat, c.user, c.lang, 0)
	return nil
}
