package bot

import (
	"context"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/bashni/bashni/texts"
)

// A group has a language of its own (play, chatlang.go): once an
// administrator chose one with /lang, everything the bot says in the
// group follows it, the answers to commands and taps there too; until
// then a game's messages are in its challenger's language and a command
// is answered in its sender's. What goes to one person's private chat
// follows its reader.

// groupLang is the language group chatID chose, else fallback (the
// sender's). A store that does not answer leaves the fallback: the
// update is still handled.
func (b *Bot) groupLang(ctx context.Context, chatID int64, fallback string) string {
	lang, err := b.svc.ChatLang(ctx, chatID)
	if err != nil {
		b.log.Warn("the group's language is unknown; the sender's is used", "chat", chatID, "err", err)
	}
	if lang == "" {
		return fallback
	}
	return texts.Lang(lang)
}

// cmdGroupLang is /lang in a group: its administrators choose the
// group's language; anyone else is told who may.
func (b *Bot) cmdGroupLang(ctx context.Context, msg *tgbotapi.Message, lang, arg string) error {
	code := langArg(arg)
	if code == "" {
		b.html(msg.Chat, b.texts.T(lang, "lang_group_choose"), langKeyboard())
		return nil
	}
	// An anonymous administrator writes as the group itself.
	anonymous := msg.SenderChat != nil && msg.SenderChat.ID == msg.Chat.ID
	if refusal := b.mayChooseLang(ctx, msg.Chat.ID, msg.From.ID, anonymous); refusal != "" {
		b.text(msg.Chat, b.texts.T(lang, refusal), msg.MessageID)
		return nil
	}
	if err := b.setGroupLang(ctx, msg.Chat.ID, code); err != nil {
		b.text(msg.Chat, b.texts.Error(lang, err, false), msg.MessageID)
		return err
	}
	b.text(msg.Chat, b.texts.T(code, "lang_group_set"), msg.MessageID)
	return nil
}

// onGroupLang is a tap on /lang's buttons in a group.
func (b *Bot) onGroupLang(ctx context.Context, q *tgbotapi.CallbackQuery, code, lang string) error {
	if refusal := b.mayChooseLang(ctx, q.Message.Chat.ID, q.From.ID, false); refusal != "" {
		b.toast(q, b.texts.T(lang, refusal))
		return nil
	}
	if err := b.setGroupLang(ctx, q.Message.Chat.ID, code); err != nil {
		b.toast(q, b.texts.Error(lang, err, false))
		return err
	}
	b.toast(q, "")
	b.editText(q.Message, b.texts.T(code, "lang_group_set"), nil)
	return nil
}

// mayChooseLang asks Telegram whether userID administers chatID: "" if
// so, else the id of the text that says why not.
func (b *Bot) mayChooseLang(ctx context.Context, chatID, userID int64, anonymous bool) string {
	if anonymous {
		return ""
	}
	if b.cfg.ChatAdmin == nil {
		return "lang_group_check_failed"
	}
	admin, err := b.cfg.ChatAdmin(ctx, chatID, userID)
	switch {
	case err != nil:
		b.log.Warn("getChatMember failed", "chat", chatID, "user", userID, "err", err)
		return "lang_group_check_failed"
	case !admin:
		return "lang_group_admins_only"
	}
	return ""
}

// setGroupLang stores the group's language (play rewrites it on its
// active games) and tells the modules (Module.ChatLang).
func (b *Bot) setGroupLang(ctx context.Context, chatID int64, code string) error {
	if err := b.svc.SetChatLang(ctx, chatID, code); err != nil {
		return err
	}
	for _, m := range b.mods.list {
		if m.ChatLang != nil {
			if err := m.ChatLang(ctx, b.kit(), chatID, code); err != nil {
				return err
			}
		}
	}
	return nil
}
