package versus

import (
	"context"
	"strconv"
	"strings"
	"time"

	"github.com/bashni/bashni/bot"
	"github.com/bashni/bashni/play/versus"
)

// What a group's administrators choose: the quorum that closes its vote
// before its time runs out, and whether it plays other groups at all.

// adminOnly reports whether the sender of c administers its group,
// telling them otherwise.
func adminOnly(ctx context.Context, k *bot.Kit, c bot.Command) bool {
	msg := c.Msg
	if msg.SenderChat != nil && msg.SenderChat.ID == msg.Chat.ID {
		return true // an anonymous administrator writes as the group
	}
	admin, err := k.IsAdmin(ctx, msg.Chat.ID, msg.From.ID)
	if err != nil {
		k.Text(msg.Chat, k.Texts().T(c.Lang, "err_internal"), msg.MessageID)
		return false
	}
	if !admin {
		k.Text(msg.Chat, k.Texts().T(c.Lang, "versus_admins_only"), msg.MessageID)
	}
	return admin
}

// quorum is /versus quorum N.
func (m *module) quorum(ctx context.Context, k *bot.Kit, c bot.Command, arg string) error {
	msg, lang := c.Msg, c.Lang
	n, err := strconv.Atoi(strings.TrimSpace(arg))
	if err != nil {
		n = 0 // refused below as out of range
	}
	if !adminOnly(ctx, k, c) {
		return nil
	}
	if err := m.svc.SetQuorum(ctx, msg.Chat.ID, n); err != nil {
		k.Text(msg.Chat, k.RefusalText(lang, err), msg.MessageID)
		return nil
	}
	k.Text(msg.Chat, k.Texts().T(lang, "versus_quorum_set", "N", n), msg.MessageID)
	return nil
}

// turn is /versus off and /versus on.
func (m *module) turn(ctx context.Context, k *bot.Kit, c bot.Command, off bool) error {
	msg, lang := c.Msg, c.Lang
	if !adminOnly(ctx, k, c) {
		return nil
	}
	if err := m.svc.SetOff(ctx, msg.Chat.ID, off); err != nil {
		k.Text(msg.Chat, k.RefusalText(lang, err), msg.MessageID)
		return err
	}
	key := "versus_on"
	if off {
		key = "versus_off"
	}
	k.Text(msg.Chat, k.Texts().T(lang, key), msg.MessageID)
	return nil
}

// leave is /versus leave (the group resigns its matches after a grace
// the reply states) and /versus stay (it does not after all).
func (m *module) leave(ctx context.Context, k *bot.Kit, c bot.Command, stay bool) error {
	msg, lang := c.Msg, c.Lang
	if !adminOnly(ctx, k, c) {
		return nil
	}
	at, n, err := m.svc.Leave(ctx, msg.Chat.ID, stay)
	if err != nil {
		k.Text(msg.Chat, k.RefusalText(lang, err), msg.MessageID)
		return nil
	}
	if stay {
		k.Text(msg.Chat, k.Texts().N(lang, "versus_stays", n), msg.MessageID)
		return nil
	}
	k.Text(msg.Chat, k.Texts().N(lang, "versus_leaves", n, "Hours", int(versus.LeaveGrace/time.Hour),
		"When", at.UTC().Format("2006-01-02 15:04 UTC")), msg.MessageID)
	return nil
}
