package bot

import (
	"context"
	"errors"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/bashni/bashni/play"
)

// onRematch handles the buttons of a finished game's card: Rematch offers
// a rematch (or accepts the opponent's), the offer's Accept and Decline
// answer it. The card's keyboard shows the offer; a new message in the chat
// tells the opponent, since an edit notifies nobody.
func (b *Bot) onRematch(ctx context.Context, t tap) error {
	q, cb, user, lang := t.q, t.cb, t.user, t.lang
	if cb.Kind == KindRematchNo {
		g, offeredBy, err := b.svc.DeclineRematch(ctx, cb.ID, q.From.ID)
		if err != nil {
			b.toast(q, b.rematchRefusal(lang, err))
			b.refreshRematch(ctx, cb.ID, err)
			return err
		}
		b.toast(q, "")
		b.rematchEnded(chatOf(q, g.ChatID()), g, offeredBy != q.From.ID, displayName(q.From))
		return nil
	}
	rematch := b.svc.Rematch
	if cb.Kind == KindRematchOK {
		rematch = b.svc.AcceptRematch
	}
	out, err := rematch(ctx, cb.ID, q.From.ID)
	if err != nil {
		b.toast(q, b.rematchRefusal(lang, err))
		b.refreshRematch(ctx, cb.ID, err)
		return err
	}
	old := out.Old
	b.editKeyboard(old, b.keyboard(old, cardView{lang: cardLang(old)}))
	if out.Offered {
		b.toast(q, b.texts.T(lang, "rematch_offered_toast", "To", rematchOpponent(old, q.From.ID).Name))
		b.rematchOffer(chatOf(q, old.ChatID()), old, q.From.ID, displayName(q.From))
		return nil
	}
	b.toast(q, "")
	g := out.Game
	if q.InlineMessageID != "" {
		b.onInlineAccept(ctx, q, g) // the rematch takes over the inline message
		return nil
	}
	return b.postCard(chatOf(q, g.ChatID()), g, user.Theme, nil)
}

// showRematchEvent shows ev if it is one of a finished game's rematch
// (an offer, its end, the rematch started), and reports whether it was.
func (b *Bot) showRematchEvent(ctx context.Context, g *play.Game, ev play.GameEvent) bool {
	switch ev.Kind {
	case play.EventRematch:
		b.showRematch(ctx, g, ev)
	case play.EventRematchOffered:
		b.showRematchOffer(g, ev)
	case play.EventRematchDeclined, play.EventRematchWithdrawn:
		b.showRematchEnded(g, ev)
	default:
		return false
	}
	return true
}

// rematchOpponent is the player of finished game g who is not by.
func rematchOpponent(g *play.Game, by int64) play.Player {
	if g.White().UserID == by {
		return g.Black()
	}
	return g.White()
}

// rematchOffer tells the opponent in g's chat that by (named name) offers
// a rematch: a mention, as the draw offer has, since it is the opponent
// who must answer and only a mention tells them. The offer is stored with
// its event (play.EventRematchOffered), so this is also what a redelivered
// tap, or the clock's tick, shows after a crash cut the tap's replies off.
func (b *Bot) rematchOffer(chat *tgbotapi.Chat, g *play.Game, by int64, name string) {
	if g.ChatID() == 0 {
		return
	}
	b.html(chat, b.texts.T(cardLang(g), "rematch_offer", "By", htmlName(name), "To", mention(rematchOpponent(g, by))), nil)
}

// showRematchOffer shows an offer whose tap's replies a crash cut off:
// the card's buttons as stored, and the mention while the offer still
// waits (an offer answered meanwhile needs no more words).
func (b *Bot) showRematchOffer(g *play.Game, ev play.GameEvent) {
	b.editKeyboard(g, b.keyboard(g, cardView{lang: cardLang(g)}))
	if g.RematchID() != "" || g.RematchBy() != ev.By {
		return
	}
	c, ok := g.ColorOf(ev.By)
	if !ok {
		return
	}
	b.rematchOffer(chatOf(nil, g.ChatID()), g, ev.By, g.Player(c).Name)
}

// rematchEnded shows that g's rematch offer ended: the card's buttons
// lose it, and when the opponent declined it (rather than the one who
// offered withdrawing it) the chat is told by whom (named name). The end
// is stored with its event (play.EventRematchDeclined, or
// EventRematchWithdrawn), so this is also what a redelivered tap, or the
// clock's tick, shows after a crash cut the tap's replies off.
func (b *Bot) rematchEnded(chat *tgbotapi.Chat, g *play.Game, declined bool, name string) {
	b.editKeyboard(g, b.keyboard(g, cardView{lang: cardLang(g)}))
	if declined && g.ChatID() != 0 {
		b.text(chat, b.texts.T(cardLang(g), "rematch_declined", "By", name), 0)
	}
}

// showRematchEnded shows an offer's end whose tap's replies a crash cut
// off: the card's buttons as stored, and a refusal's words unless a new
// offer, or the rematch, came since (the end then needs no more words).
func (b *Bot) showRematchEnded(g *play.Game, ev play.GameEvent) {
	declined := ev.Kind == play.EventRematchDeclined && g.RematchBy() == 0 && g.RematchID() == ""
	name := ""
	if c, ok := g.ColorOf(ev.By); ok {
		name = g.Player(c).Name
	}
	b.rematchEnded(chatOf(nil, g.ChatID()), g, declined && name != "", name)
}

// refreshRematch redraws the buttons of a card whose rematch buttons were
// out of date (the offer expired, was answered, or the rematch started),
// so the next tap finds the right ones.
func (b *Bot) refreshRematch(ctx context.Context, id string, err error) {
	if !errors.Is(err, play.ErrNoRematch) && !errors.Is(err, play.ErrRematchStarted) {
		return
	}
	g, gerr := b.svc.Game(ctx, id)
	if gerr != nil || g.Active() {
		return
	}
	if errors.Is(err, play.ErrNoRematch) && g.RematchBy() != 0 {
		g.HideRematchOffer() // expired: the stored offer no longer counts
	}
	b.editKeyboard(g, b.keyboard(g, cardView{lang: cardLang(g)}))
}

// rematchRefusal says why a rematch tap was refused. A game still going on
// is said as such: ErrGameNotOver's own text speaks of the analysis.
func (b *Bot) rematchRefusal(lang string, err error) string {
	if errors.Is(err, play.ErrGameNotOver) {
		return b.texts.T(lang, "err_not_over")
	}
	return b.texts.Error(lang, err, false)
}
