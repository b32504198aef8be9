package bot

import (
	"context"
	"strconv"
	"strings"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/bashni/bashni/play"
	"github.com/bashni/bashni/texts"
)

// /resign asks first: a resignation is the one command that ends a game
// for good, and it sits in the command menu a slip away from /board. The
// question is a reply to the command, where the asker typed it (the card
// may be far up the chat, and in a group a row of buttons on it would not
// say whose it is): it names the asker and their opponent, and its confirm
// button names the asker. A reply is one message, as the row on the card
// was one edit, and the question goes by deletion, which spends none of a
// group's twenty messages a minute (outbox: deletions are not paced). The
// confirmation names the player who asked, the board's version and a
// deadline, so it is refused after resignWindow, after any move, and in
// anyone else's hands; the question itself is deleted when it is answered
// and when the clock passes its deadline (expireResignAsks).

// resignWindow is how long a resignation may be confirmed.
const resignWindow = 30 * time.Second

// resignAsk is a pending question "resign?".
type resignAsk struct {
	by    int64
	until time.Time
}

// encode writes the question as a button's Arg: deadline and player, in
// base 36 to stay well inside the 64 bytes of callback data.
func (a resignAsk) encode() string {
	return strconv.FormatInt(a.until.Unix(), 36) + "." + strconv.FormatInt(a.by, 36)
}

func parseResignAsk(arg string) (resignAsk, bool) {
	until, by, ok := strings.Cut(arg, ".")
	if !ok {
		return resignAsk{}, false
	}
	u, err1 := strconv.ParseInt(until, 36, 64)
	p, err2 := strconv.ParseInt(by, 36, 64)
	if err1 != nil || err2 != nil {
		return resignAsk{}, false
	}
	return resignAsk{by: p, until: time.Unix(u, 0)}, true
}

// resignRow is the question's buttons for game g, in lang, the
// confirmation naming the asker.
func resignRow(words *texts.Catalog, g *play.Game, a resignAsk, lang, asker string) []tgbotapi.InlineKeyboardButton {
	return tgbotapi.NewInlineKeyboardRow(
		tgbotapi.NewInlineKeyboardButtonData(words.T(lang, "btn_resign_confirm_by", "Player", asker), Callback{Kind: KindResign, ID: g.ID(), Ply: g.Ply(), Arg: a.encode()}.Encode()),
		tgbotapi.NewInlineKeyboardButtonData(words.T(lang, "btn_resign_cancel"), Callback{Kind: KindResignNo, ID: g.ID(), Ply: g.Ply(), Arg: a.encode()}.Encode()),
	)
}

// cmdResign asks the player to confirm, in a reply to their command.
func (b *Bot) cmdResign(ctx context.Context, cm command) error {
	msg, lang := cm.msg, cm.lang
	g, err := b.gameForCommand(ctx, msg, lang)
	if err != nil || g == nil {
		return err
	}
	c, ok := g.ColorOf(msg.From.ID)
	if !ok || !g.Active() {
		b.text(msg.Chat, b.texts.Error(lang, play.ErrNotAPlayer, false), msg.MessageID)
		return nil
	}
	a := resignAsk{by: msg.From.ID, until: b.svc.Now().Add(resignWindow)}
	asker := displayName(msg.From)
	kb := tgbotapi.NewInlineKeyboardMarkup(resignRow(b.texts, g, a, lang, asker))
	text := b.texts.T(lang, "resign_ask_by", "Player", asker, "Opponent", b.texts.PlayerName(lang, g.Player(c.Opponent())),
		"Seconds", int(resignWindow.Seconds()))
	r := outMessage{chatID: msg.Chat.ID, text: text, replyTo: msg.MessageID, markup: &kb}.reply()
	r.Done = func(sent *tgbotapi.Message, err error) {
		if err == nil && sent != nil {
			b.resignAsks.Store(cardRef{chatID: msg.Chat.ID, messageID: sent.MessageID}, a.until)
		}
	}
	b.send(r)
	return nil
}

// onResign answers the question's buttons.
func (b *Bot) onResign(ctx context.Context, t tap) error {
	q, cb, lang := t.q, t.cb, t.lang
	a, ok := parseResignAsk(cb.Arg)
	if !ok {
		b.toast(q, b.texts.T(lang, "err_stale"))
		return nil
	}
	if q.From.ID != a.by {
		b.toast(q, b.texts.T(lang, "err_resign_not_yours"))
		return nil
	}
	g, err := b.svc.Game(ctx, cb.ID)
	if err != nil {
		b.toast(q, b.texts.Error(lang, err, false))
		return err
	}
	// A card's row: asked before the question became a reply.
	onCard := q.Message == nil || q.Message.Photo != nil
	b.locateCard(g, q)
	closeQuestion := func() {
		if !onCard {
			b.dropResignAsk(q.Message.Chat.ID, q.Message.MessageID)
			return
		}
		if g.Active() {
			b.editKeyboard(g, b.keyboard(g, cardView{lang: cardLang(g)}))
		}
	}
	switch {
	case !g.Active():
		b.toast(q, b.texts.Error(lang, play.ErrGameOver, false))
		closeQuestion()
		return nil
	case cb.Kind == KindResignNo:
		b.toast(q, b.texts.T(lang, "resign_kept"))
		closeQuestion()
		return nil
	case !b.svc.Now().Before(a.until) || cb.Ply != g.Ply():
		// Too late, or the game has moved on: ask again if still meant.
		b.toast(q, b.texts.T(lang, "resign_expired"))
		closeQuestion()
		return nil
	}
	out, err := b.svc.Resign(ctx, g.ID(), q.From.ID)
	if err != nil {
		b.toast(q, b.texts.Error(lang, err, false))
		return err
	}
	b.toast(q, "") // the result follows in the chat
	closeQuestion()
	b.showGameOver(ctx, out.Game) // deletes every turn notice, theirs too
	return nil
}

// dropResignAsk deletes the question in message messageID of chat: a
// deletion, which spends none of a group's pace.
func (b *Bot) dropResignAsk(chatID int64, messageID int) {
	b.resignAsks.Delete(cardRef{chatID: chatID, messageID: messageID})
	b.send(chatReplyID(chatID, tgbotapi.NewDeleteMessage(chatID, messageID)))
}

// expireResignAsks deletes the questions whose deadline the clock has
// passed: the buttons would refuse a tap by then, and a question left in
// the chat would look as if it still stood. The questions are this
// process's (docs/runtime.md): one asked on a process that stopped stays,
// and its buttons refuse a tap and delete it.
func (b *Bot) expireResignAsks() {
	now := b.svc.Now()
	b.resignAsks.Range(func(k, v any) bool {
		if until := v.(time.Time); !now.Before(until) {
			ref := k.(cardRef)
			b.dropResignAsk(ref.chatID, ref.messageID)
		}
		return true
	})
}
