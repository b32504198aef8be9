package outbox

import (
	"context"
	"encoding/json"
)

// A board drawn at send time (Reply.Lazy) that Telegram took has reached
// its chat: the moment a live game's clock is fair to start (package
// play, shown.go). The outbox knows no game; it tells whoever asked
// (SetShown) which Lazy reply was taken and at what version it was drawn,
// from the sending goroutine, as soon as Telegram's answer is in.

// Shown is told of a Lazy reply that Telegram took (or found the message
// already showing), with its Lazy description and the version it was
// drawn at (Reply.Version), before the reply is forgotten: in whichever
// process sent it (SetShown). What a board reaching its chat means (a live
// game's clock starting) is the caller's to decide.
type Shown func(ctx context.Context, lazy json.RawMessage, version int64)

// SetShown sets what is told of Lazy replies Telegram took.
func (o *Outbox) SetShown(fn Shown) { o.shown.Store(&fn) }

// tellShown hands a Lazy reply Telegram took to Shown, as recordSent
// hands a Record: at the moment Telegram's answer came, before the next
// message of the chat.
func (o *Outbox) tellShown(ctx context.Context, it *item) {
	fn := o.shown.Load()
	if it.r.Lazy == nil || fn == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), journalTimeout)
	defer cancel()
	o.safely("Shown", func() { (*fn)(ctx, it.r.Lazy, it.r.Version) })
}
