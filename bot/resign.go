package bot

import (
	"context"
	"strconv"
	"strings"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/bashni/bashni/play"
)

// /resign asks first: a resignation is the one command that ends a game
// for good, and it sits in the command menu a slip away from /board. The
// question is a pair of buttons on the card (or, when the command came
// from another chat than the card's, on a reply there); the confirmation
// names the player who asked, the board's version and a deadline, so it
// expires after resignWindow, after any move, and in anyone else's hands.

// resignWindow is how long a resignation may be confirmed.
const resignWindow = 30 * time.Second

// resignAsk is a pending question "resign?" shown on a card.
type resignAsk struct {
	by    int64
	until time.Time
	lang  string // the asker's: the buttons are theirs alone (not encoded)
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

// resignRow is the question's buttons for game g.
func (b *Bot) resignRow(g *play.Game, a resignAsk) []tgbotapi.InlineKeyboardButton {
	lang := a.lang
	return tgbotapi.NewInlineKeyboardRow(
		tgbotapi.NewInlineKeyboardButtonData(b.texts.T(lang, "btn_resign_confirm"), Callback{Kind: KindResign, ID: g.ID(), Ply: g.Ply(), Arg: a.encode()}.Encode()),
		tgbotapi.NewInlineKeyboardButtonData(b.texts.T(lang, "btn_resign_cancel"), Callback{Kind: KindResignNo, ID: g.ID(), Ply: g.Ply(), Arg: a.encode()}.Encode()),
	)
}

// cmdResign asks the player to confirm.
func (b *Bot) cmdResign(ctx context.Context, msg *tgbotapi.Message, lang string) error {
	g, err := b.gameForCommand(ctx, msg, lang)
	if err != nil || g == nil {
		return err
	}
	if _, ok := g.ColorOf(msg.From.ID); !ok || !g.Active() {
		b.text(msg.Chat, b.texts.Error(lang, play.ErrNotAPlayer, false), msg.MessageID)
		return nil
	}
	a := resignAsk{by: msg.From.ID, until: b.svc.Now().Add(resignWindow), lang: lang}
	b.cardOf(g, nil)
	if g.ChatID() == msg.Chat.ID && g.MessageID() != 0 {
		v := cardView{lang: cardLang(g), resign: &a}
		b.editKeyboard(g, b.keyboard(g, v))
		return nil
	}
	// The card is elsewhere (a group game asked about in a private chat,
	// a game on an inline message): the question is asked here.
	kb := tgbotapi.NewInlineKeyboardMarkup(b.resignRow(g, a))
	b.send(outMessage{chatID: msg.Chat.ID, text: b.texts.T(lang, "resign_ask", "Seconds", int(resignWindow.Seconds())), replyTo: msg.MessageID, markup: &kb}.reply())
	return nil
}

// onResign answers the question's buttons.
func (b *Bot) onResign(ctx context.Context, q *tgbotapi.CallbackQuery, cb Callback, lang string) error {
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
	onCard := q.Message == nil || q.Message.Photo != nil
	b.cardOf(g, q)
	closeQuestion := func(text string) {
		if onCard {
			if g.Active() {
				b.editKeyboard(g, b.keyboard(g, cardView{lang: cardLang(g)}))
			}
			return
		}
		b.editText(q.Message, text, nil)
	}
	switch {
	case !g.Active():
		b.toast(q, b.texts.Error(lang, play.ErrGameOver, false))
		closeQuestion(b.texts.T(lang, "err_game_over"))
		return nil
	case cb.Kind == KindResignNo:
		b.toast(q, b.texts.T(lang, "resign_kept"))
		closeQuestion(b.texts.T(lang, "resign_kept"))
		return nil
	case !b.svc.Now().Before(a.until) || cb.Ply != g.Ply():
		// Too late, or the game has moved on: ask again if still meant.
		b.toast(q, b.texts.T(lang, "resign_expired"))
		closeQuestion(b.texts.T(lang, "resign_expired"))
		return nil
	}
	out, err := b.svc.Resign(ctx, g.ID(), q.From.ID)
	if err != nil {
		b.toast(q, b.texts.Error(lang, err, false))
		return err
	}
	b.toast(q, "")
	if !onCard {
		b.editText(q.Message, b.texts.T(lang, "resign_done"), nil)
	}
	b.gameOver(ctx, out.Game) // deletes every turn notice, theirs too
	return nil
}
