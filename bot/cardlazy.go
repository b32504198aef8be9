package bot

import (
	"context"
	"encoding/json"
	"fmt"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/bashni/bashni/bot/telegram/outbox"
	"github.com/bashni/bashni/play"
)

// A card edit that shows the game as it stands (no tower picked, no
// question asked) is not drawn when it is decided but when the outbox
// sends it (outbox.Reply.Lazy): what the outbox keeps in the store until
// Telegram answers is "the card of game G in message M", not a picture;
// the board is drawn from the game as stored at the moment of sending, so
// an edit sent late (after a crash, or after waiting for the chat's pace)
// never shows an older board than one already shown, and the edits that
// waited together for the pace cost one drawing.

// lazyCard is a lazy card edit as the outbox keeps it: of the card in a
// chat's message, or on an inline message (Inline; as text when the
// offer was posted as text, Text: the game knew it when the edit was
// queued, or Telegram refused the edit as a photo, inlineRefused).
type lazyCard struct {
	Game    string `json:"g"`
	Chat    int64  `json:"c"`
	Message int    `json:"m"`
	Inline  string `json:"i,omitempty"`
	Text    bool   `json:"t,omitempty"`
	// Live: the game has clocks, whose start waits for the edit to be
	// taken (cardshown.go); other cards' edits cost no read when taken.
	Live bool `json:"l,omitempty"`
}

// lazyEdit is the lazy form of editCard's edit, if v shows the game as it
// stands (as resolveCard draws it) and the outbox makes lazy replies.
func (b *Bot) lazyEdit(g *play.Game, v cardView, theme string) (outbox.Reply, bool) {
	if !b.lazyCards || theme != "" || v.selected != nil || v.targets != nil || v.stage != nil ||
		v.thinking != (g.Active() && g.IsAITurn()) {
		return outbox.Reply{}, false
	}
	if id := g.InlineMessageID(); id != "" {
		r, err := lazyInline(lazyCard{Game: g.ID(), Inline: id, Text: g.InlineText(), Live: g.TimeControl() != ""})
		r.Delay, r.Version = v.hold, g.Version()
		return r, err == nil
	}
	data, err := json.Marshal(lazyCard{Game: g.ID(), Chat: g.ChatID(), Message: g.MessageID(), Live: g.TimeControl() != ""})
	if err != nil {
		return outbox.Reply{}, false
	}
	return outbox.Reply{Lazy: data, ChatID: g.ChatID(), Group: g.ChatID() < 0, Key: cardKey("card", g), Delay: v.hold, Version: g.Version()}, true
}

// lazyInline is the lazy edit lc of an inline card: queued and paced as
// the inline message's, and keyed by it, so that the edits waiting for its
// pace become one, drawn when it is sent.
func lazyInline(lc lazyCard) (outbox.Reply, error) {
	data, err := json.Marshal(lc)
	// By game too: a rematch is played on the same message, its versions
	// counted afresh.
	key := "card:i:" + lc.Inline + ":" + lc.Game
	if lc.Text {
		key = "text:i:" + lc.Inline + ":" + lc.Game // not the same showing as the photo's that failed
	}
	return outbox.Reply{Lazy: data, InlineMessageID: lc.Inline, Key: key}, err
}

// resolveCard draws a lazy card edit from the game as stored now.
func (b *Bot) resolveCard(ctx context.Context, raw json.RawMessage) (tgbotapi.Chattable, int64, error) {
	var lc lazyCard
	if err := json.Unmarshal(raw, &lc); err != nil {
		return nil, 0, fmt.Errorf("bot: a lazy card edit: %w", err)
	}
	g, err := b.svc.Game(ctx, lc.Game)
	if err != nil {
		return nil, 0, err
	}
	if lc.Inline != "" {
		req := b.resolveInline(ctx, g, lc)
		return req, g.Version(), nil
	}
	if m, ok := g.Mirrored(); ok && lc.Chat == m.ChatID() && lc.Chat != g.ChatID() {
		// A tournament game's second card, in Black's chat and language.
		g = m
	}
	v := cardView{lang: cardLang(g), thinking: g.Active() && g.IsAITurn()}
	edit, err := b.cardEdit(g, v, "", lc.Chat, lc.Message)
	if err != nil {
		return nil, 0, err
	}
	return edit, g.Version(), nil
}
