package bot

import (
	"context"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/bashni/bashni/play"
)

func isNotFound(err error) bool { return play.KindOf(err) == play.NotFound }

// RunClock handles turn notices, reminders and wins on time every interval until ctx
// ends. Several bot instances may run it on one store: each deadline is
// handled by exactly one of them (play.Service.Tick).
func (b *Bot) RunClock(ctx context.Context, interval time.Duration) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		b.ClockTick(ctx)
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// ClockTick handles the deadlines that are due now.
func (b *Bot) ClockTick(ctx context.Context) {
	events, err := b.svc.Tick(ctx, 100)
	if err != nil {
		b.log.Warn("clock tick failed", "err", err)
	}
	for _, ev := range events {
		b.showTicked(ctx, ev)
	}
	b.tournamentTick(ctx)
	for _, m := range b.mods.list {
		if m.Tick != nil {
			m.Tick(ctx, b.kit())
		}
	}
	b.expireResignAsks()
}

// showTicked shows what a tick (or a wake-up) claimed: each change the
// tick made is stored with its event, and its replies are committed with
// the event's receipt (events.go).
func (b *Bot) showTicked(ctx context.Context, ev play.ClockEvent) {
	b.committed(ctx, ev.Receipt, func(b *Bot) { b.showClockEvents(ctx, []play.ClockEvent{ev}) })
}

// Woken shows what game id owes the players, if this replica is the one
// to claim it: a process that shows nothing itself (`bashni worker`)
// stored a change and woke the replicas (play.WithWake). A wake-up this
// replica misses is shown by the clock's next tick on any replica.
func (b *Bot) Woken(ctx context.Context, gameID string) {
	ev, err := b.svc.Wake(ctx, gameID)
	if err != nil {
		b.log.Warn("a wake-up not shown; the clock's tick shows it", "game", gameID, "err", err)
		return
	}
	if ev.Game != nil {
		b.showTicked(ctx, ev)
	}
}

// showClockEvents tells the chats about reminders and wins on time.
func (b *Bot) showClockEvents(ctx context.Context, events []play.ClockEvent) {
	for _, ev := range events {
		g := ev.Game
		lang := cardLang(g)
		c, p := g.ToMove()
		switch {
		case len(ev.Owed) > 0:
			b.showOwed(ctx, g, ev.Owed)
		case ev.TimedOut:
			winner := g.Player(c.Opponent())
			// An aborted game has no winner: its end says why
			// (play/abort.go), as when it ends in the Mini App.
			if g.ChatID() != 0 && !g.Aborted() {
				text := b.texts.T(lang, "timed_out", "Player", htmlName(p.Name), "Winner", htmlName(winner.Name))
				b.send(outMessage{chatID: g.ChatID(), text: text, parseMode: tgbotapi.ModeHTML}.reply())
			}
			b.showGameOver(ctx, g)
		case ev.Played:
			// A feature's deadline played the move (a chat's vote ran its
			// time): shown as any move.
			b.afterMove(ctx, &play.Outcome{Game: g, Move: ev.Move, Mover: g.Player(c.Opponent()), Ended: !g.Active()})
		case ev.Reminder:
			b.remind(ctx, g, lang, p)
		case ev.Notice:
			last := ""
			if m, ok := g.LastMove(); ok {
				last = m.String()
			}
			b.notifyTurn(ctx, g, last)
		}
	}
}

// remind tells the player to move that time is running.
func (b *Bot) remind(ctx context.Context, g *play.Game, lang string, p play.Player) {
	if !p.Human() || g.ChatID() == 0 {
		return
	}
	c, _ := g.ToMove()
	when := g.TimeoutAt().UTC().Format("2006-01-02 15:04 UTC")
	text := b.texts.T(lang, "reminder", "Player", mention(p), "Opponent", htmlName(g.Player(c.Opponent()).Name), "When", when)
	b.send(outMessage{chatID: g.ChatID(), text: text, parseMode: tgbotapi.ModeHTML, replyTo: g.MessageID()}.reply())
}
