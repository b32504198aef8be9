package bot

import (
	"context"
	"encoding/json"
	"log/slog"
	"strings"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/bashni/bashni/bot/telegram/outbox"
	"github.com/bashni/bashni/play"
	"github.com/bashni/bashni/rules"
	"github.com/bashni/bashni/texts"
)

// Kit is the vocabulary a Module speaks to the bot: sending, answering a
// tap, the texts, drawing and posting a game's card. It is bound to the
// update (or the tick) being handled: what a module sends through it is
// committed with the update's mark, exactly as the core's own replies.
// A module holds no *Bot; the core's insides stay the core's.
type Kit struct{ b *Bot }

// kit is b's vocabulary for a module.
func (b *Bot) kit() *Kit { return &Kit{b: b} }

// Service is the game service (the core of play).
func (k *Kit) Service() *play.Service { return k.b.svc }

// Texts is the catalog every text comes from.
func (k *Kit) Texts() *texts.Catalog { return k.b.texts }

// Log is the bot's logger.
func (k *Kit) Log() *slog.Logger { return k.b.log }

// Username is the bot's own @username, for links to it.
func (k *Kit) Username() string { return k.b.cfg.Username }

// Send queues a reply (bot/telegram/outbox).
func (k *Kit) Send(r outbox.Reply) { k.b.send(r) }

// Toast answers a tap with a short notice (empty: just stop the spinner).
func (k *Kit) Toast(q *tgbotapi.CallbackQuery, text string) { k.b.toast(q, text) }

// Text sends a plain message to chat, as a reply to replyTo (0: none).
func (k *Kit) Text(chat *tgbotapi.Chat, text string, replyTo int) { k.b.text(chat, text, replyTo) }

// HTML sends an HTML message (no link preview) with an optional keyboard.
func (k *Kit) HTML(chat *tgbotapi.Chat, text string, kb *tgbotapi.InlineKeyboardMarkup) {
	k.b.html(chat, text, kb)
}

// RefusalText is err as the player reads it in lang (texts.Catalog.Error).
func (k *Kit) RefusalText(lang string, err error) string { return k.b.texts.Error(lang, err, false) }

// Background runs fn off the handler's path, under the bot's background
// context, for shutdown to wait for.
func (k *Kit) Background(fn func(ctx context.Context)) { k.b.background(fn) }

// MayActFor checks that user is a member of group before they act in its
// name; a refusal is told through refuse and MayActFor reports false.
func (k *Kit) MayActFor(ctx context.Context, group, user int64, lang string, refuse func(text string)) bool {
	return k.b.mayActFor(ctx, group, user, lang, refuse)
}

// GroupLang is the language group chatID chose, else fallback.
func (k *Kit) GroupLang(ctx context.Context, chatID int64, fallback string) string {
	return k.b.groupLang(ctx, chatID, fallback)
}

// PostCard posts a new card for g to chat and records it as the game's
// card, as the core does for a game it starts; its first turn is called
// as for any new game, except to skip (a user id, 0: none), who started
// it and needs no call.
func (k *Kit) PostCard(chat *tgbotapi.Chat, g *play.Game, theme string, skip int64) error {
	return k.b.postCard(chat, g, theme, k.b.firstTurnOf(g, skip))
}

// Committed runs show, the showing of a change stored under receipt, and
// commits what it sends with the receipt's mark in one write (events.go).
func (k *Kit) Committed(ctx context.Context, receipt int64, show func(k *Kit)) {
	k.b.committed(ctx, receipt, func(b *Bot) { show(b.kit()) })
}

// Message is a text message a module sends: plain or HTML (no link
// preview), a reply to ReplyTo (0: none), with an optional keyboard.
type Message struct {
	ChatID   int64
	Text     string
	HTML     bool
	ReplyTo  int
	Keyboard *tgbotapi.InlineKeyboardMarkup
}

// Reply is m as the outbox sends it, paced as its chat is.
func (m Message) Reply() outbox.Reply {
	o := outMessage{chatID: m.ChatID, text: m.Text, replyTo: m.ReplyTo, markup: m.Keyboard}
	if m.HTML {
		o.parseMode, o.noPreview = tgbotapi.ModeHTML, true
	}
	return o.reply()
}

// PostCards posts a game a feature started (play.Service.StartGame) where
// its cards are not recorded yet: its own in its chat, and its second
// card in the mirror's chat (play.Game.Mirrored). Each is recorded by
// whichever process sends it, so that one posted again is not doubled.
func (k *Kit) PostCards(g *play.Game) { k.b.postCards(g) }

// PostCardsAgain posts again those cards of such a game that are not
// recorded yet, each only if none is recorded in its chat by the time it
// is sent: one the outbox is still trying is not doubled.
func (k *Kit) PostCardsAgain(g *play.Game) { k.b.postCardsAgain(g) }

// SendRecorded sends r, whose message is recorded as record says
// (SentRecord; Module.Records) by whichever process sends it, or, with a
// sender that records nothing, once it is sent; r.Done is still told.
func (k *Kit) SendRecorded(r outbox.Reply, record json.RawMessage) {
	k.b.send(k.b.recorded(r, record, "a module's message"))
}

// HTMLName is a user's name escaped for an HTML text.
func HTMLName(s string) string { return htmlName(s) }

// Player is what play knows of a Telegram user who acts in a game (a
// voter: their id and the name shown).
func (k *Kit) Player(u *tgbotapi.User) play.Player { return player(u) }

// Variant reads a ruleset's word in a command ("russian", "mp").
func (k *Kit) Variant(word string) (rules.Variant, bool) { return variantWord(word) }

// CardLang is the language of g's card.
func (k *Kit) CardLang(g *play.Game) string { return cardLang(g) }

// ShowMove shows a move as the core shows its own: the card redrawn, the
// next player told, the game's end or the AI's answer. q is the tap that
// made it, if any (its message is the card when the store does not know
// the card yet).
func (k *Kit) ShowMove(ctx context.Context, o *play.Outcome, q *tgbotapi.CallbackQuery) {
	if q != nil {
		k.b.locateCard(o.Game, q)
	}
	k.b.afterMove(ctx, o)
}

// RefuseTyped tells the sender of a typed message (a move, a vote) why it
// was refused, as the core does a typed move: in a group by a reaction
// and a private message where it can.
func (k *Kit) RefuseTyped(ctx context.Context, msg *tgbotapi.Message, typed, reason string) {
	k.b.refuseTyped(ctx, msg, typed, reason)
}

// Direct is k sending straight to the outbox, not among the replies of
// the update being handled, which are dropped if the update was applied
// already: for what a change claimed in the store must send (a poll).
func (k *Kit) Direct() *Kit {
	out := k.b.out
	for c, ok := out.(*collector); ok; c, ok = out.(*collector) {
		out = c.next
	}
	return &Kit{b: &Bot{core: k.b.core, out: out}}
}

// Enqueue queues a reply as Send does, and says if it was dropped (then
// its Done never comes).
func (k *Kit) Enqueue(r outbox.Reply) error { return k.b.out.Enqueue(r) }

// RecordsSent reports whether the outbox records the requests it sends
// with a record (OutboxHooks, SentRecord) itself; if not (a test's
// sender), the module records them with RecordSent once sent.
func (k *Kit) RecordsSent() bool { return k.b.recordsSent }

// RecordSent records msg, the answer to a request sent with record, as
// the outbox does when it records.
func (k *Kit) RecordSent(ctx context.Context, record json.RawMessage, msg *tgbotapi.Message) error {
	return k.b.recordSent(ctx, record, msg, false)
}

// Card draws g's card as the core shows it now, in lang: its caption and
// its keyboard.
func (k *Kit) Card(g *play.Game, lang string) (caption string, kb tgbotapi.InlineKeyboardMarkup) {
	v := cardView{lang: lang}
	return k.b.caption(g, v), k.b.keyboard(g, v)
}

// GameForCommand finds the game a command is about (the card it replies
// to, else the sender's only game there); nil, nil when the sender was
// told there is none or which to choose.
func (k *Kit) GameForCommand(ctx context.Context, msg *tgbotapi.Message, lang string) (*play.Game, error) {
	return k.b.gameForCommand(ctx, msg, lang)
}

// RedrawCard edits g's card to show g as it stands.
func (k *Kit) RedrawCard(g *play.Game) { k.b.editCard(g, cardView{lang: cardLang(g)}, "", nil) }

// SettledOnTime shows a loss on time that refused an action (err a
// play.TimeUpError), as the clock's tick would.
func (k *Kit) SettledOnTime(ctx context.Context, err error) { k.b.settledOnTime(ctx, err) }

// Renderer draws boards.
func (k *Kit) Renderer() Renderer { return k.b.render }

// Expected reports whether err is an everyday refusal, not a fault.
func (k *Kit) Expected(err error) bool { return expected(err) }

// ChatReply wraps a request to a chat as a reply for Send.
func ChatReply(chat *tgbotapi.Chat, req tgbotapi.Chattable) outbox.Reply { return chatReply(chat, req) }

// What a module that shows boards of its own (bot/training) needs.

// BoardURL is the link that opens param on the Mini App's board, or ""
// where there is no Mini App.
func (k *Kit) BoardURL(param string) string {
	if k.b.cfg.BoardURL == nil {
		return ""
	}
	return k.b.cfg.BoardURL(param)
}

// Picker is the game's move picker on a board of a module's (a puzzle)
// in a private chat: for the squares picked so far among legal, the move
// they name whole, or else the keyboard of the next stage, its buttons'
// data of kind with id and ply as a game's picker carries them. ok is
// false for squares that name nothing there (a stale or forged button).
func (k *Kit) Picker(lang, kind, id string, ply int, legal []rules.Move, picked []rules.Square) (kb tgbotapi.InlineKeyboardMarkup, move *rules.Move, ok bool) {
	res, ok := resolvePick(legal, picked, maxWholeMoves)
	if !ok || res.move != nil {
		return tgbotapi.InlineKeyboardMarkup{}, res.move, ok
	}
	kb = k.b.pickerKeyboard(lang, id, ply, res.keyboard)
	for _, row := range kb.InlineKeyboard {
		for i := range row {
			if row[i].CallbackData != nil {
				data := kind + strings.TrimPrefix(*row[i].CallbackData, KindPick)
				row[i].CallbackData = &data
			}
		}
	}
	return kb, nil, true
}

// ShowSettings shows userID's settings in chat (a module's row among
// them) by editing messageID, as after a tap on one of its toggles.
func (k *Kit) ShowSettings(ctx context.Context, chat *tgbotapi.Chat, userID int64, lang string, messageID int) {
	u, err := k.b.svc.User(ctx, userID)
	if err != nil {
		u = &play.User{ID: userID, Notify: true}
	}
	k.b.showSettings(ctx, chat, u, lang, messageID)
}

// ChatReplyID is ChatReply to a chat known by its id only.
func ChatReplyID(chatID int64, req tgbotapi.Chattable) outbox.Reply { return chatReplyID(chatID, req) }

// DisplayName is how a user is called in texts.
func DisplayName(u *tgbotapi.User) string { return displayName(u) }

// EncodeSquares writes squares into callback data, one character each;
// DecodeSquares reads them back.
func EncodeSquares(sq []rules.Square) string { return encodeSquares(sq) }

// DecodeSquares reads what EncodeSquares wrote.
func DecodeSquares(s string) ([]rules.Square, error) { return decodeSquares(s) }

// IsAdmin asks Telegram whether user administers group chat (a module's
// choice only its administrators make); false with no way to ask.
func (k *Kit) IsAdmin(ctx context.Context, chat, user int64) (bool, error) {
	if k.b.cfg.ChatAdmin == nil {
		return false, nil
	}
	return k.b.cfg.ChatAdmin(ctx, chat, user)
}

// EditText edits a text message the bot sent (a module's offer once it
// is taken), with kb (nil: no buttons).
func (k *Kit) EditText(msg *tgbotapi.Message, text string, kb *tgbotapi.InlineKeyboardMarkup) {
	k.b.editText(msg, text, kb)
}

// ChallengeCard is challenge c's card as the core draws it, in lang, with
// the modules' rows under it (a module redrawing it after changing c).
func (k *Kit) ChallengeCard(ctx context.Context, c *play.Challenge, lang string) (string, tgbotapi.InlineKeyboardMarkup) {
	text, kb := k.b.challengeCard(lang, c)
	kb.InlineKeyboard = append(kb.InlineKeyboard, k.b.mods.challengeRows(ctx, k, c, lang)...)
	return text, kb
}
