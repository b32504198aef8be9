package bot

import (
	"context"
	"strings"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/bashni/bashni/play"
)

// Routing: an update reaches its handler through two tables, one from a
// button's callback kind and one from a command's name, so adding a
// button or a command is one line here and one handler, and no function
// grows into a switch over every feature. What every update gets whatever
// its kind (marked once, its effects stored with its replies, a loss on
// time settled, errors logged, metrics) is the middleware in handle.go.

// tap is one button tap, as its handler sees it: the query, its decoded
// data, and who tapped in which language.
type tap struct {
	q    *tgbotapi.CallbackQuery
	cb   Callback
	user *play.User
	lang string
}

// command is one typed command: the message, who sent it in which
// language, and the text after the command.
type command struct {
	msg  *tgbotapi.Message
	user *play.User
	lang string
	args string
}

// The handlers take the update's own Bot (whose replies are collected for
// the update's write, see Handle), never one captured when the table was
// built.
type (
	tapHandler     func(b *Bot, ctx context.Context, t tap) error
	commandHandler func(b *Bot, ctx context.Context, c command) error
)

// tapRoutes maps a callback kind to its handler.
var tapRoutes = map[string]tapHandler{
	KindPick:      (*Bot).onPick,
	KindTourJoin:  onTourTap,
	KindTourLeave: onTourTap,
	KindTourPause: onTourTap,
	KindTourSetup: func(b *Bot, ctx context.Context, t tap) error { return b.onTourSetup(ctx, t.q, t.cb, t.lang) },
	KindAccept:    (*Bot).onAccept,
	KindDecline:   (*Bot).onRefuse,
	KindCancel:    (*Bot).onRefuse,
	KindDrawYes:   (*Bot).onDrawAnswer,
	KindDrawNo:    (*Bot).onDrawAnswer,
	KindResign:    (*Bot).onResign,
	KindResignNo:  (*Bot).onResign,
	KindRematch:   (*Bot).onRematch,
	KindRematchOK: (*Bot).onRematch,
	KindRematchNo: (*Bot).onRematch,
	KindPDN:       (*Bot).sendPDN,
	KindReplay:    (*Bot).sendReplay,
	KindMenu:      (*Bot).onMenu,
	KindLevel:     (*Bot).onLevel,
	KindVariant:   (*Bot).onVariant,
	KindColor:     (*Bot).onColor,
	KindLang:      (*Bot).onLang,
	KindSetting:   (*Bot).onSetting,
	KindTowers:    onTowers,
}

func onTourTap(b *Bot, ctx context.Context, t tap) error {
	return b.onTourTap(ctx, t.q, t.cb, t.user, t.lang)
}

// commandRoutes maps a command's name to its handler.
var commandRoutes = map[string]commandHandler{
	"start":      (*Bot).cmdStartLink,
	"help":       func(b *Bot, _ context.Context, c command) error { return b.sendHTML(c, "help") },
	"rules":      func(b *Bot, _ context.Context, c command) error { return b.sendHTML(c, "rules") },
	"play":       (*Bot).cmdPlay,
	"challenge":  (*Bot).cmdChallenge,
	"tournament": func(b *Bot, ctx context.Context, c command) error { return b.cmdTournament(ctx, c.msg, c.lang, c.args) },
	"move":       (*Bot).cmdMove,
	"m":          (*Bot).cmdMove,
	"board":      (*Bot).cmdBoard,
	"moves":      (*Bot).cmdMoves,
	"resign":     (*Bot).cmdResign,
	"draw":       (*Bot).cmdDraw,
	"games":      (*Bot).cmdGames,
	"lang":       (*Bot).cmdLang,
	"settings":   (*Bot).cmdSettings,
}

// onCallback handles a button tap. Every tap is answered (Telegram shows a
// spinner until it is), with a toast when it changed nothing.
func (b *Bot) onCallback(ctx context.Context, q *tgbotapi.CallbackQuery) error {
	private := q.Message != nil && q.Message.Chat != nil && q.Message.Chat.IsPrivate()
	user, lang := b.touch(ctx, q.From, private)
	if !private && q.Message != nil {
		lang = b.groupLang(ctx, q.Message.Chat.ID, lang)
	}
	cb, err := ParseCallback(q.Data)
	handler, known := tapRoutes[cb.Kind]
	mod, isMod := b.mods.taps[cb.Kind]
	if err != nil || !known && !isMod {
		b.toast(q, b.texts.T(lang, "err_stale"))
		return nil // an old or forged button: nothing to do
	}
	if isMod && mod.Scope&tapPlace(q) == 0 || !isMod && !tapAllowed(cb.Kind, q) {
		b.toast(q, b.texts.T(lang, "err_wrong_place"))
		return nil // a button from another kind of chat: forged (scopes.go)
	}
	if isMod {
		return mod.Handle(ctx, b.kit(), Tap{Query: q, Data: cb, User: user, Lang: lang})
	}
	return handler(b, ctx, tap{q: q, cb: cb, user: user, lang: lang})
}

// onCommand handles a command addressed to this bot; unknown ones are
// ignored (a group may have other bots).
func (b *Bot) onCommand(ctx context.Context, msg *tgbotapi.Message, user *play.User, lang string) error {
	args := strings.TrimSpace(msg.CommandArguments())
	if handler, ok := commandRoutes[msg.Command()]; ok {
		return handler(b, ctx, command{msg: msg, user: user, lang: lang, args: args})
	}
	if handler, ok := b.mods.commands[msg.Command()]; ok {
		return handler(ctx, b.kit(), Command{Msg: msg, User: user, Lang: lang, Args: args})
	}
	return nil
}
