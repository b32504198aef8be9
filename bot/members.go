package bot

import (
	"context"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"
)

// Members says whether a user is a member of a chat, as Telegram says
// (bot/telegram/members.Checker).
type Members interface {
	IsMember(ctx context.Context, chat, user int64) (bool, error)
}

// mayActFor checks that user is a member of group before they act in its
// name (a module's join, a vote in its team game): anyone with a Join
// link or a vote button's data could otherwise (issue 38). A refusal is
// told through refuse, and mayActFor reports false.
func (b *Bot) mayActFor(ctx context.Context, group, user int64, lang string, refuse func(text string)) bool {
	if b.cfg.Members == nil {
		return true
	}
	ok, err := b.cfg.Members.IsMember(ctx, group, user)
	if err != nil {
		b.log.Warn("membership not checked", "chat", group, "user", user, "err", err)
		refuse(b.texts.T(lang, "err_internal"))
		return false
	}
	if !ok {
		refuse(b.texts.T(lang, "err_not_member"))
	}
	return ok
}

// MemberSeer is a Members that also hears chat_member updates.
type MemberSeer interface {
	Saw(chat, user int64, status string, isMember bool)
}

// onChatMember passes a chat_member update (sent where the bot is an
// administrator) to Members, so a member who leaves is refused at once.
func (b *Bot) onChatMember(u *tgbotapi.ChatMemberUpdated) {
	if s, ok := b.cfg.Members.(MemberSeer); ok && u.NewChatMember.User != nil {
		m := u.NewChatMember
		s.Saw(u.Chat.ID, m.User.ID, m.Status, m.IsMember)
	}
}
