package outbox

import (
	"context"
	"encoding/json"
	"strconv"

	"github.com/cespare/xxhash/v2"
	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"
)

// A Lazy reply is drawn at send time: the journal keeps "card of game G",
// and the picture is made when the reply reaches the head of its lane, as
// the game is stored then (Resolve). Drawings of one card that would show
// the same thing go out once (stale): the same version, or the same
// picture, caption and buttons (fingerprint).

// Resolve makes a Lazy reply's request when it is sent, with the version
// of what it shows (Reply.Version). A nil request, or an error, drops the
// reply unsent.
type Resolve func(ctx context.Context, lazy json.RawMessage) (req tgbotapi.Chattable, version int64, err error)

// SetResolver sets what makes Lazy replies' requests (the bot's).
func (o *Outbox) SetResolver(fn Resolve) { o.resolve.Store(&fn) }

// lazyMethod names a Lazy reply until it is resolved: a message (paced).
const lazyMethod = "lazy"

// resolveLazy makes a Lazy reply's request, once, when its turn to be
// sent has come. It reports false when there is nothing to send.
func (o *Outbox) resolveLazy(ctx context.Context, it *item) bool {
	if it.r.Lazy == nil || it.r.Req != nil {
		return true
	}
	fn := o.resolve.Load()
	if fn == nil {
		o.log.Warn("outbox: a lazy reply and no resolver, dropped", "chat", it.r.ChatID)
		return false
	}
	req, version, err := (*fn)(ctx, it.r.Lazy)
	if err != nil || req == nil {
		if err != nil {
			o.log.Warn("outbox: lazy reply not made, dropped", "chat", it.r.ChatID, "err", err)
		}
		return false
	}
	it.r.Req, it.r.Version = req, version
	it.req = describe(req)
	it.fp = fingerprint(req)
	return true
}

// drawing is a board drawn at send time: its version and fingerprint.
type drawing struct {
	version int64
	fp      string
}

// fingerprint names what a card edit shows (picture, caption, buttons),
// so that a drawing equal to the last one shown is not sent again: a
// game's version also moves for what nobody sees (a notice's message id
// stored). "" when it cannot tell.
func fingerprint(req tgbotapi.Chattable) string {
	e, ok := req.(tgbotapi.EditMessageMediaConfig)
	if !ok {
		return ""
	}
	photo, ok := e.Media.(tgbotapi.InputMediaPhoto)
	if !ok {
		return ""
	}
	file, ok := photo.Media.(tgbotapi.FileBytes)
	if !ok {
		return ""
	}
	// xxhash: tens of kilobytes of PNG a card, hashed by every replica
	// the same way (the fingerprint is compared in Redis), at memory speed.
	h := xxhash.New()
	h.Write(file.Bytes)
	h.Write([]byte{0})
	h.Write([]byte(photo.Caption))
	if e.ReplyMarkup != nil {
		kb, err := json.Marshal(e.ReplyMarkup)
		if err != nil {
			return ""
		}
		h.Write([]byte{0})
		h.Write(kb)
	}
	return strconv.FormatUint(h.Sum64(), 36)
}

// stale reports whether another replica has shown a newer version of
// what it shows (Reply.Version).
//
// A board drawn at send time (Reply.Lazy) is stale too when the same
// version was drawn so already: two edits of one card, queued for older
// boards, both drawn as the game stands now.
func (o *Outbox) stale(ctx context.Context, it *item) bool {
	if it.r.Key == "" || it.r.Version <= 0 {
		return false
	}
	lazy := it.r.Lazy != nil
	o.mu.Lock()
	l := it.lane
	if lazy {
		prev, seen := l.drawn[it.r.Key]
		if l.drawn == nil {
			l.drawn = make(map[string]drawing)
		}
		l.drawn[it.r.Key] = drawing{max(prev.version, it.r.Version), it.fp}
		if seen && (prev.version == it.r.Version || it.fp != "" && prev.fp == it.fp) {
			o.mu.Unlock()
			return true
		}
	} else {
		delete(l.drawn, it.r.Key)
	}
	o.mu.Unlock()
	if o.opts.Pacer == nil {
		return false
	}
	var fresh bool
	var err error
	if lazy {
		fresh, err = o.opts.Pacer.Drawn(ctx, it.r.Key, it.r.Version, it.fp)
	} else {
		fresh, err = o.opts.Pacer.Fresh(ctx, it.r.Key, it.r.Version)
	}
	if err != nil {
		return false // sent: an old board now and then beats none
	}
	return !fresh
}
