package bot

import (
	"context"
	"errors"
	"slices"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/bashni/bashni/bot/telegram/outbox"
	"github.com/bashni/bashni/play"
	"github.com/bashni/bashni/rules"
)

// A game's change is stored with its event (play/events.go): the bot
// handles an update under the update id as its receipt, and commits the
// replies with the update's mark (Handle). What the change owes is shown
// again only when that commit never happened: Telegram redelivers the
// update after a crash (the change is applied already: showApplied), or
// the game falls due at its ShowAt (showOwed, from the clock's tick on
// any replica). Either way the replies are drawn from the game as stored
// then and committed with the receipt, so one set of them goes out.

// showApplied answers an update that play found applied already (a crash
// cut its replies off): the replies the handler made while being refused
// are dropped, and what the change owes is shown instead.
func (b *Bot) showApplied(ctx context.Context, u tgbotapi.Update, col *collector, err error) bool {
	var ae *play.AppliedError
	if !errors.As(err, &ae) {
		return false
	}
	col.reset()
	if u.CallbackQuery != nil {
		b.toast(u.CallbackQuery, "")
	}
	for _, ev := range ae.Game.Owed() {
		if ev.Receipt == int64(u.UpdateID) {
			b.showEvent(ctx, ae.Game, ev)
		}
	}
	return true
}

// committed runs show, the showing of a change stored under receipt, and
// commits its replies with the receipt's mark, in one write: if the
// receipt is marked already (the writer's replies, or the tick's, went
// out), these are not sent. Without a receipt or a journal, show speaks
// through b as it is.
func (b *Bot) committed(ctx context.Context, receipt int64, show func(b *Bot)) {
	c, ok := b.out.(Committer)
	if !ok || receipt == 0 {
		show(b)
		return
	}
	col := &collector{next: b.out}
	show(&Bot{core: b.core, out: col})
	if _, err := col.commit(ctx, c, receipt); err != nil && !errors.Is(err, outbox.ErrNoJournal) {
		b.log.Warn("change shown but its receipt not marked", "receipt", receipt, "err", err)
	}
}

// showOwed shows the events the clock's tick claimed for g, each
// committed with its receipt: if the writer, or a redelivered update,
// marked the receipt meanwhile, its replies went out and these are not
// sent.
func (b *Bot) showOwed(ctx context.Context, g *play.Game, owed []play.GameEvent) {
	for _, ev := range owed {
		b.committed(ctx, ev.Receipt, func(b *Bot) { b.showEvent(ctx, g, ev) })
	}
	b.log.Info("showed what changes owed after their writer stopped", "game", g.ID(), "events", len(owed))
}

// showEvent makes the replies an event owes, from the game as it is now:
// the card is drawn as stored, never older than the event. The same
// replies as the chat's own commands make: a change made in the Mini App
// (play.Detached) is shown only this way.
func (b *Bot) showEvent(ctx context.Context, g *play.Game, ev play.GameEvent) {
	if b.showRematchEvent(ctx, g, ev) {
		return
	}
	lang := cardLang(g)
	switch {
	case ev.Kind == play.EventEnded:
		if g.Reason() == rules.Timeout.String() {
			// As after the clock's tick: the chat hears who lost on time.
			b.showClockEvents(ctx, []play.ClockEvent{{Game: g, TimedOut: true}})
			return
		}
		b.showGameOver(ctx, g)
	case !g.Active():
		b.editCard(g, cardView{lang: lang}, "", nil) // its end is another event
	case ev.Kind == play.EventStarted:
		b.showStarted(ctx, g)
	case ev.Kind == play.EventFirstTurn:
		b.callFirstTurn(ctx, g, ev.By)
	case ev.Kind == play.EventReminder:
		_, p := g.ToMove()
		b.remind(ctx, g, lang, p)
	case ev.Kind == play.EventNotice:
		b.notifyTurn(ctx, g, lastMoveText(g))
	case ev.Kind == play.EventMoved:
		out := &play.Outcome{Game: g, MoverNotice: ev.Notice}
		out.Move, _ = g.LastMove()
		if c, ok := g.ColorOf(ev.By); ok && ev.By != 0 {
			out.Mover = g.Player(c)
		}
		b.afterMove(ctx, out)
	case ev.Kind == play.EventDrawOffered && g.DrawOfferBy() != 0:
		b.editCard(g, cardView{lang: lang}, "", nil)
		from, to := g.White(), g.Black()
		if g.Black().UserID == g.DrawOfferBy() {
			from, to = g.Black(), g.White()
		}
		b.drawOfferNotice(ctx, g, lang, from.Name, to)
	case ev.Kind == play.EventDrawDeclined:
		b.editCard(g, cardView{lang: lang}, "", nil) // its caption says who declined
	default:
		b.editCard(g, cardView{lang: lang, thinking: g.IsAITurn()}, "", nil)
	}
}

// showStarted shows a game created from a challenge whose writer died
// before its card went out: the card is posted (or, if it was after all,
// or the game is played on an inline message, drawn where it is) and the
// first player told, as an accept does.
func (b *Bot) showStarted(ctx context.Context, g *play.Game) {
	if g.MessageID() != 0 || g.InlineMessageID() != "" || g.ChatID() == 0 {
		b.editCard(g, cardView{lang: cardLang(g)}, "", nil)
		return
	}
	chat := chatOf(nil, g.ChatID())
	if err := b.postCard(chat, g, "", b.firstTurnOf(g, 0)); err != nil {
		b.log.Warn("the card of a started game not posted", "game", g.ID(), "err", err)
	}
}

// showRematch shows a rematch started by a tap whose writer died before
// its replies: the finished game's card loses its Rematch buttons, and the
// rematch game's card, made under the tap's receipt with the card owed, is
// posted (a game on an inline message is made with it as its card, and
// drawn there).
func (b *Bot) showRematch(ctx context.Context, old *play.Game, ev play.GameEvent) {
	b.editKeyboard(old, b.keyboard(old, cardView{lang: cardLang(old)}))
	g, err := b.svc.RematchGame(ctx, old)
	if err != nil {
		b.log.Warn("the rematch of a game not found", "game", old.ID(), "err", err)
		return
	}
	if !slices.ContainsFunc(g.Owed(), func(e play.GameEvent) bool { return e.Kind == play.EventStarted && e.Receipt == ev.Receipt }) {
		return // made by another tap, which showed it
	}
	b.showStarted(ctx, g)
}

// showDetached is the service's OwedFunc: it shows a change made where
// nobody shows it (the Mini App), committed with its receipt.
func (b *Bot) showDetached(ctx context.Context, g *play.Game, ev play.GameEvent) {
	b.committed(ctx, ev.Receipt, func(b *Bot) { b.showEvent(ctx, g, ev) })
}

func lastMoveText(g *play.Game) string {
	if m, ok := g.LastMove(); ok {
		return m.String()
	}
	return ""
}
