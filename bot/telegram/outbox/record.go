package outbox

import (
	"context"
	"encoding/json"
	"log/slog"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"
)

// Done dies with the process that enqueued a reply, so what a sent or
// refused reply means to the bot is told by callbacks set on the outbox
// (SetRecorder, SetRefused), from what the journal kept, by whichever
// process sends the reply: its own, or the heir of one that crashed.

// Recorder records a message sent for a Reply with a Record (see
// Reply.Record), before the reply is forgotten. again is true when this
// process took the reply over from one whose lease ended: that one may
// have sent it already (Telegram took it and the answer was lost with the
// process), so the message may now be in the chat twice.
type Recorder func(ctx context.Context, record json.RawMessage, msg *tgbotapi.Message, again bool) error

// Refused is told of a Lazy reply that Telegram refused for good (a Bad
// Request), with its Lazy description and the refusal, before the reply
// is forgotten: in whichever process sent it, this one or one that took
// it over after a crash (SetRefused). What the refusal means, and what to
// send in its place, is then decided from what the journal kept, not by a
// Done that died with the process that enqueued the reply.
type Refused func(ctx context.Context, lazy json.RawMessage, err error)

// SetRecorder sets what records the messages of replies with a Record
// (the bot's).
func (o *Outbox) SetRecorder(fn Recorder) { o.record.Store(&fn) }

// SetRefused sets what is told of refused Lazy replies (the bot's).
func (o *Outbox) SetRefused(fn Refused) { o.refused.Store(&fn) }

// recordSent hands a sent reply's Record and message to the Recorder,
// before finish lets the journal forget the reply: a crash before this
// point has the reply sent again (and recorded then), never sent and
// unrecorded. It runs on the chat's sending goroutine, which waits for
// the store's write as it waits for Telegram.
func (o *Outbox) recordSent(ctx context.Context, it *item, msg *tgbotapi.Message, log func() *slog.Logger) {
	if it.r.Record == nil {
		return
	}
	fn := o.record.Load()
	if fn == nil || msg == nil {
		log().Warn("outbox: a sent message not recorded", "recorder", fn != nil)
		return
	}
	// Also while draining: the message is out, its record must follow.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), journalTimeout)
	defer cancel()
	o.safely("Recorder", func() {
		if err := (*fn)(ctx, it.r.Record, msg, it.again); err != nil {
			log().Warn("outbox: a sent message not recorded", "err", err)
		}
	})
}

// tellRefused hands a refused Lazy reply's description to Refused, as
// recordSent hands a Record, before finish lets the journal forget it: a
// crash before this point has the reply sent again, and refused and told
// then, by the next process.
func (o *Outbox) tellRefused(ctx context.Context, it *item, err error) {
	fn := o.refused.Load()
	if it.r.Lazy == nil || fn == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), journalTimeout)
	defer cancel()
	o.safely("Refused", func() { (*fn)(ctx, it.r.Lazy, err) })
}
