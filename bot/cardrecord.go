package bot

import (
	"context"
	"encoding/json"
	"fmt"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/bashni/bashni/play"
)

// A posted card's message id is what every later edit of the game's card
// needs. It is recorded by whoever sends it (sentrecord.go): the
// sendPhoto is kept in the journal with a Record naming the game, and
// whichever process sends it records the card before the outbox forgets
// the request. A crash before the send has the next process send and
// record it; a crash after Telegram took it, before the record, has it
// sent again (a twin card above, with buttons, whose taps still work:
// they name their game) and recorded then. Never a card posted and
// unrecorded while edits go to the card it replaced.

// sentCard names the game whose card a sent photo is: the game's own, or
// (Mirror) a game's second card, in the mirror's chat, drawn at
// board version Ply (Over: the game had ended; Offer: the player whose
// draw offer it showed). First: the card is a new game's first, and the call
// of its first turn follows it (a module's call, e.g. a first poll; the first
// player's "your move", unless they are Skip): whoever records the card
// stores that call owed in the same write (play.Service.SetFirstCard), so
// neither a crash before the send nor one after the record loses it.
type sentCard struct {
	Game   string `json:"g"`
	Mirror bool   `json:"m,omitempty"`
	Ply    int    `json:"p,omitempty"`
	Over   bool   `json:"o,omitzero"`
	Offer  int64  `json:"d,omitzero"`
	First  bool   `json:"f,omitzero"`
	Skip   int64  `json:"s,omitzero"`
	// Version is a live game's version the card was drawn at: once
	// posted, that board has reached the chat and may start a clock
	// (cardshown.go). 0 for other games, and in records kept before cards
	// said so.
	Version int64 `json:"v,omitzero"`
}

// cardReplyRecord is the outbox.Reply.Record of a card posted for game g, as
// drawn, first (non-nil) when the call of its first turn follows it.
func cardReplyRecord(g *play.Game, first *firstTurn) json.RawMessage {
	c := &sentCard{Game: g.ID(), Ply: g.Ply(), Over: !g.Active(), Offer: g.DrawOfferBy()}
	if g.TimeControl() != "" {
		c.Version = g.Version()
	}
	if first != nil {
		c.First, c.Skip = true, first.skip
	}
	raw, _ := json.Marshal(sentRecord{Card: c}) // strings and numbers always encode
	return raw
}

// firstTurn is what follows a new game's first card: the call of its
// first turn (callFirstTurn); skip is a player who needs no notice (the
// one who just accepted: they are looking).
type firstTurn struct {
	skip int64
}

// firstTurnOf is what follows g's first card, nil for nothing: the call
// of the module that runs g, if it makes one (a group's first poll); for
// a game between people, telling the first player (not skip) at once when
// notices go out at once (otherwise the clock's turn notice does).
func (b *Bot) firstTurnOf(g *play.Game, skip int64) *firstTurn {
	if o := b.mods.owned(g); o != nil {
		if o.FirstTurn != nil && o.FirstTurn(g) {
			return &firstTurn{skip: skip}
		}
		return nil
	}
	if b.noticesNow() {
		return &firstTurn{skip: skip}
	}
	return nil
}

// callFirstTurn makes the call of g's first turn: the module's that runs
// g, or the "your move" of the first player unless they are skip.
func (b *Bot) callFirstTurn(ctx context.Context, g *play.Game, skip int64) {
	if o := b.mods.owned(g); o != nil {
		b.ownedTurn(ctx, o, g)
		return
	}
	if _, p := g.ToMove(); p.UserID != skip {
		b.notifyStart(ctx, g)
	}
}

// mirrorReplyRecord is the outbox.Reply.Record of the second card of
// game id (mirror.go), drawn at board version ply.
func mirrorReplyRecord(id string, ply int) json.RawMessage {
	raw, _ := json.Marshal(sentRecord{Card: &sentCard{Game: id, Mirror: true, Ply: ply}})
	return raw
}

// recordCard records msg, a card sent for c.Game, as the game's card: the
// card the store named before in that chat loses its buttons. If a newer
// card was recorded first (message ids grow in a chat), this one is the
// old card and loses its own.
func (b *Bot) recordCard(ctx context.Context, c *sentCard, msg *tgbotapi.Message) error {
	if msg.Chat == nil {
		return fmt.Errorf("bot: card of game %s: the answer names no chat", c.Game)
	}
	chatID := msg.Chat.ID
	cur, err := b.svc.Game(ctx, c.Game)
	if err != nil {
		return err
	}
	if c.Mirror {
		return b.recordMirror(ctx, cur, c.Ply, chatID, msg.MessageID)
	}
	old := 0
	if cur.ChatID() == chatID {
		old = cur.MessageID()
	}
	var stored *play.Game
	set := func() (err error) {
		stored, err = b.svc.SetCard(ctx, c.Game, chatID, msg.MessageID, "")
		return err
	}
	if c.First {
		// The call of the first turn is owed in the record's write, shown
		// by this process's bot (play.Detached), or the clock's tick.
		set = func() (err error) {
			stored, err = b.svc.SetFirstCard(play.Detached(ctx), c.Game, chatID, msg.MessageID, c.Skip)
			return err
		}
	}
	if old > msg.MessageID {
		b.stripKeyboard(chatID, msg.MessageID)
		if c.First {
			return set() // the newer card stays; the call is owed all the same
		}
		return nil
	}
	if err := set(); err != nil {
		return err
	}
	b.recordBoardShown(ctx, c.Game, c.Version, chatID)
	if old != 0 && old < msg.MessageID {
		b.stripKeyboard(chatID, old)
	}
	b.editIfMoved(stored, c)
	return nil
}

// editIfMoved redraws g's card, just recorded as c, if the game has moved
// on since it was drawn (a move, its end, a draw offer made or answered):
// the edits of the changes made meanwhile went where the store named the
// card then (the card before, or none), in whichever process made them,
// and nothing else would bring this one up to date. On a card of this
// process still in flight (cardrepost.go) the edit waits for it, as
// theirs did.
func (b *Bot) editIfMoved(g *play.Game, c *sentCard) {
	if g == nil || g.Ply() == c.Ply && (c.Over || g.Active()) && g.DrawOfferBy() == c.Offer {
		return
	}
	v := cardView{lang: cardLang(g), thinking: g.Active() && g.IsAITurn()}
	if v.thinking {
		// This edit replaces, in the chat's lane, the held board that says
		// "thinking" (moves.go), whose sending starts "typing" (typing.go):
		// so this one starts it, or "typing" never shows while the AI
		// thinks.
		v.sent = func() { b.typingIfThinking(g) }
	}
	b.editCard(g, v, "", nil)
}

// recordMirror records messageID, a second card sent for game
// g at board version ply, as Black's card, as recordCard does a game's
// card: the older of two copies (a card sent again after a crash) loses
// its buttons. A card drawn before a move, or the game's end, that it
// could not show (the game's edits skip a second card not yet recorded)
// is edited to the board as it is now.
func (b *Bot) recordMirror(ctx context.Context, g *play.Game, ply int, chatID int64, messageID int) error {
	m, ok := g.Mirrored()
	if !ok || m.ChatID() != chatID {
		return fmt.Errorf("bot: game %s has no second card in chat %d", g.ID(), chatID)
	}
	old := m.MessageID()
	if old > messageID {
		b.stripKeyboard(chatID, messageID)
		return nil
	}
	cur, err := b.svc.SetMirrorCard(ctx, g.ID(), messageID)
	if err != nil {
		return err
	}
	if old != 0 && old < messageID {
		b.stripKeyboard(chatID, old)
	}
	if cur.Ply() != ply || !cur.Active() {
		if mm, ok := cur.Mirrored(); ok {
			b.editCard(mm, cardView{lang: cardLang(mm)}, "", nil)
		}
	}
	return nil
}
