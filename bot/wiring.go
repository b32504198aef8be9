package bot

import (
	"github.com/bashni/bashni/bot/telegram/outbox"
	"github.com/bashni/bashni/play"
)

// The bot, play and the outbox call each other back; none installs its
// callbacks in another. The process's wiring (cmd/bashni, Main.Open) names
// each one: the outbox asks the bot to draw a card edit when it sends it
// (ResolveCard), tells it of an inline card refused (InlineRefused) and of
// a request sent that carries a record (RecordSent) or a board shown
// (CardShown); play asks it to show a change nobody in this process shows
// (ShowDetached). Config.DrawsAtSend tells the bot that its outbox was so
// wired.

// OutboxHooks are the bot's answers to its outbox's questions.
type OutboxHooks struct {
	Resolve outbox.Resolve
	Refused outbox.Refused
	Record  outbox.Recorder
	Shown   outbox.Shown
}

// OutboxHooks returns what an outbox sending for b asks it.
func (b *Bot) OutboxHooks() OutboxHooks {
	return OutboxHooks{Resolve: b.resolveCard, Refused: b.inlineRefused, Record: b.recordSent, Shown: b.CardShown}
}

// Install installs h in o, as Main.Open does (and tests that wire a real
// outbox): card edits are drawn when sent (cardlazy.go), inline cards
// found to be text are edited as text (cardinline.go), records are kept by
// the process that sends them (sentrecord.go), and boards shown start the
// clocks (cardshown.go).
func (h OutboxHooks) Install(o *outbox.Outbox) {
	o.SetResolver(h.Resolve)
	o.SetRefused(h.Refused)
	o.SetRecorder(h.Record)
	o.SetShown(h.Shown)
}

// ShowDetached is what play calls (play.Service.OnOwed) to show a change
// made where nobody shows it: the Mini App, a worker (events.go).
func (b *Bot) ShowDetached() play.OwedFunc { return b.showDetached }
