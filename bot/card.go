package bot

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/bashni/bashni/bot/telegram/outbox"
	"github.com/bashni/bashni/play"
	"github.com/bashni/bashni/render"
	"github.com/bashni/bashni/rules"
	"github.com/bashni/bashni/texts"
)

// A game is one live card: the board photo, a caption (players, whose move,
// last move, move number) and the move picker for the player to move. It is
// edited in place after each move; edits notify nobody, which is why the
// player to move also gets a notice (notify.go).

// cardView says how to draw a card.
type cardView struct {
	lang     string
	selected *rules.Square // picked tower, highlighted
	targets  []rules.Square
	stage    [][]pickEntry // picker stage; nil = first stage
	thinking bool          // the AI is searching: no picker
	// sent, if set, runs once the card's edit has gone out (not when a
	// newer board replaced it unsent).
	sent func()
	// hold keeps the edit back this long in case a newer board replaces
	// it (outbox.Reply.Delay).
	hold time.Duration
}

// caption writes the card's caption.
func (b *Bot) caption(g *play.Game, v cardView) string {
	lang := v.lang
	lines := []string{b.texts.T(lang, "caption_players", "White", b.texts.PlayerName(lang, g.White()), "Black", b.texts.PlayerName(lang, g.Black()))}
	if p := g.Rules().StartPosition(); p.Variant() != rules.Bashni {
		lines = append(lines, b.rulesLine(lang, p.Variant()))
	}
	if g.Active() {
		c, p := g.ToMove()
		lines = append(lines, b.texts.T(lang, "caption_to_move", "Move", g.MoveNumber(), "Side", b.texts.SideName(lang, c), "Player", b.texts.PlayerName(lang, p)))
	} else {
		lines = append(lines, b.texts.T(lang, "caption_result", "Result", b.resultText(lang, g), "Reason", b.texts.ReasonName(lang, g.Reason())))
	}
	if last := lastPlies(g.Rules(), 2); last != "" {
		lines = append(lines, b.texts.T(lang, "caption_last", "Move", last))
	}
	if line := b.clockLine(lang, g); line != "" {
		lines = append(lines, line)
	}
	if line := b.arenaLine(lang, g); line != "" {
		lines = append(lines, line)
	}
	if g.Active() && g.DrawOfferBy() != 0 {
		name := g.White().Name
		if g.Black().UserID == g.DrawOfferBy() {
			name = g.Black().Name
		}
		lines = append(lines, b.texts.T(lang, "caption_draw_offer", "Player", name))
	}
	if by := g.DrawDeclinedBy(); g.Active() && by != 0 && g.DrawOfferBy() == 0 {
		// The answer to an offer is news for the one who made it: said
		// here, it costs no message (a group's twenty a minute).
		name := g.White().Name
		if g.Black().UserID == by {
			name = g.Black().Name
		}
		lines = append(lines, b.texts.T(lang, "caption_draw_declined", "Player", name))
	}
	if o := b.mods.owned(g); o != nil && o.Caption != nil {
		// A module's lines (a group's vote), within what the caption
		// leaves, less what may follow them.
		lines = append(lines, o.Caption(b.kit(), g, lang, texts.CaptionLimit-texts.TelegramLen(strings.Join(lines, "\n"), "")-captionTail)...)
	}
	if v.thinking {
		lines = append(lines, b.texts.T(lang, "caption_thinking"))
	}
	if v.selected != nil {
		// The picture draws a tower of up to 8 piece by piece, a taller
		// one's top five; the caption spells out the picked one whole.
		pos := g.Position()
		lines = append(lines, b.towerLine(lang, *v.selected, pos.Tower(*v.selected)))
	}
	return strings.Join(lines, "\n")
}

// captionTail is what the caption may add after a module's lines (the AI
// thinking, a picked tower spelt out): kept free of them.
const captionTail = 200

// towerLine lists the tower on s top first, a run of equal pieces as one
// entry: "🔎 c3, top first: ⚪♛ ⚪×2 ⚫×5 (8 pieces)".
func (b *Bot) towerLine(lang string, s rules.Square, t rules.Tower) string {
	return b.texts.T(lang, "caption_tower", "Square", s.String(), "Pieces", towerRuns(t), "Count", b.texts.N(lang, "tower_pieces", t.Height()))
}

// pieceRun writes n equal pieces: a disc of their colour, a crown for
// kings, "×n" for more than one.
func pieceRun(p rules.Piece, n int) string {
	s := "⚪"
	if p.Color() == rules.Black {
		s = "⚫"
	}
	if p.IsKing() {
		s += "♛"
	}
	if n > 1 {
		s += "×" + strconv.Itoa(n)
	}
	return s
}

// resultText is "White wins (Alice)" or "Draw".
func (b *Bot) resultText(lang string, g *play.Game) string {
	r, _ := g.Rules().Result()
	if r == rules.NoResult {
		return b.texts.T(lang, "result_aborted")
	}
	if w, ok := r.Winner(); ok {
		return g.Result() + ", " + b.texts.T(lang, "result_win", "Winner", b.texts.PlayerName(lang, g.Player(w)))
	}
	return g.Result() + ", " + b.texts.T(lang, "result_draw")
}

// keyboard is the card's buttons (gameKeyboard), and "Open board" under
// them when the Mini App is configured.
func (b *Bot) keyboard(g *play.Game, v cardView) tgbotapi.InlineKeyboardMarkup {
	kb := b.gameKeyboard(g, v)
	if row := b.towersRow(v.lang, g); row != nil {
		kb.InlineKeyboard = append(kb.InlineKeyboard, row)
	}
	return b.withBoardLink(g, v.lang, kb)
}

// gameKeyboard is the card's buttons: the picker while the game goes on (none
// while the AI thinks), Rematch/PDN/Replay once it is over.
func (b *Bot) gameKeyboard(g *play.Game, v cardView) tgbotapi.InlineKeyboardMarkup {
	lang := v.lang
	if !g.Active() {
		files := []tgbotapi.InlineKeyboardButton{
			tgbotapi.NewInlineKeyboardButtonData(b.texts.T(lang, "btn_pdn"), Callback{Kind: KindPDN, ID: g.ID(), Ply: -1}.Encode()),
			tgbotapi.NewInlineKeyboardButtonData(b.texts.T(lang, "btn_replay"), Callback{Kind: KindReplay, ID: g.ID(), Ply: -1}.Encode()),
		}
		analyse := tgbotapi.NewInlineKeyboardRow(b.analyseButton(lang, g.ID()))
		switch {
		case g.RematchID() != "", g.TourLink() != nil: // started, or a tournament pairs them: nothing more to offer
			return tgbotapi.NewInlineKeyboardMarkup(files, analyse)
		case g.RematchBy() != 0: // offered: the opponent answers here
			by := g.White()
			if g.Black().UserID == g.RematchBy() {
				by = g.Black()
			}
			return tgbotapi.NewInlineKeyboardMarkup(tgbotapi.NewInlineKeyboardRow(
				tgbotapi.NewInlineKeyboardButtonData(b.texts.T(lang, "btn_rematch_accept", "By", by.Name), Callback{Kind: KindRematchOK, ID: g.ID(), Ply: -1}.Encode()),
				tgbotapi.NewInlineKeyboardButtonData(b.texts.T(lang, "btn_rematch_decline"), Callback{Kind: KindRematchNo, ID: g.ID(), Ply: -1}.Encode()),
			), files, analyse)
		}
		return tgbotapi.NewInlineKeyboardMarkup(append([]tgbotapi.InlineKeyboardButton{
			tgbotapi.NewInlineKeyboardButtonData(b.texts.T(lang, "btn_rematch"), Callback{Kind: KindRematch, ID: g.ID(), Ply: -1}.Encode()),
		}, files...), analyse)
	}
	if v.thinking || g.IsAITurn() {
		return tgbotapi.InlineKeyboardMarkup{InlineKeyboard: [][]tgbotapi.InlineKeyboardButton{}}
	}
	if o := b.mods.owned(g); o != nil && o.Keyboard != nil {
		return o.Keyboard(b.kit(), g, lang)
	}
	kb := tgbotapi.InlineKeyboardMarkup{InlineKeyboard: [][]tgbotapi.InlineKeyboardButton{}}
	if !waitingCard(g) {
		stage := v.stage
		if stage == nil {
			res, _ := resolvePick(g.Rules().Legal(), nil, wholeMovesFor(g.ChatID()))
			stage = res.keyboard
		}
		kb = b.pickerKeyboard(lang, g.ID(), g.Ply(), stage)
	}
	// In a group anyone may look; a private card's offer is answered only
	// by its reader, so the one who offered is not shown the buttons.
	if g.DrawOfferBy() != 0 && g.DrawOfferBy() != g.ChatID() {
		kb.InlineKeyboard = append(kb.InlineKeyboard, tgbotapi.NewInlineKeyboardRow(
			tgbotapi.NewInlineKeyboardButtonData(b.texts.T(lang, "btn_draw_accept"), Callback{Kind: KindDrawYes, ID: g.ID(), Ply: -1}.Encode()),
			tgbotapi.NewInlineKeyboardButtonData(b.texts.T(lang, "btn_draw_decline"), Callback{Kind: KindDrawNo, ID: g.ID(), Ply: -1}.Encode()),
		))
	}
	return kb
}

// waitingCard reports whether g's card is in the private chat of a player
// who is not to move: one of a tournament game's two cards, each in its
// player's chat. It shows no picker then: the opponent's moves are not
// the reader's to tap, and a tap on one, or one made just as the board
// turns to the reader's move, is refused with a toast instead of a move,
// while a live game's clock runs.
func waitingCard(g *play.Game) bool {
	if g.ChatID() <= 0 {
		return false
	}
	_, p := g.ToMove()
	return p.UserID != g.ChatID()
}

// boardPNG draws the game's board. In a private chat it follows the
// user's settings (theme; their own side at the bottom unless they chose
// White's); in groups and inline, White is at the bottom, in the classic
// theme unless theme names another.
func (b *Bot) boardPNG(g *play.Game, v cardView, theme string) ([]byte, error) {
	o := render.Options{Selected: v.selected, Targets: v.targets}
	if m, ok := g.LastMove(); ok && v.selected == nil {
		o.LastMove = &m
	}
	if !g.Active() {
		// The final image says so itself: it may be forwarded or saved
		// without its caption.
		o.Caption = b.texts.T(v.lang, "board_game_over", "Result", g.Result(), "Reason", b.texts.ReasonName(v.lang, g.Reason()))
	}
	if g.ChatID() > 0 {
		flip := false
		if u, err := b.svc.User(b.bgCtx, g.ChatID()); err == nil {
			if theme == "" {
				theme = u.Theme
			}
			flip = u.Flip
		}
		if c, ok := g.ColorOf(g.ChatID()); ok && c == rules.Black && !flip {
			o.Perspective = rules.Black
		}
	}
	if theme != "" {
		if t, err := render.ThemeByName(theme); err == nil {
			o.Theme = t
		}
	}
	return b.render.PNG(g.Position(), o)
}

// cardLang is the language a game's card is written in.
func cardLang(g *play.Game) string {
	if g.Lang() != "" {
		return texts.Lang(g.Lang())
	}
	return "en"
}

// postCard sends a new card for g to chat and records it as the game's
// card (in whichever process sends it: recordCard); first (if any) is the
// call of the game's first turn, which follows the card: owed in the
// card's record's write (recordCard), or, without a journal, made in the
// background once the card is recorded, in this process.
func (b *Bot) postCard(chat *tgbotapi.Chat, g *play.Game, theme string, first *firstTurn) error {
	var after func(ctx context.Context, g *play.Game)
	if first != nil && !b.recordsSent {
		// Without a journal, the call follows in this process; with one,
		// it is owed by the card's record (cardrecord.go).
		after = func(ctx context.Context, g *play.Game) { b.callFirstTurn(ctx, g, first.skip) }
	}
	// When the AI is to move (it plays first, or a restart left it to
	// move), the card says it is thinking: its move follows.
	v := cardView{lang: cardLang(g), thinking: g.Active() && g.IsAITurn()}
	png, err := b.boardPNG(g, v, theme)
	if err != nil {
		return fmt.Errorf("bot: drawing the board: %w", err)
	}
	photo := tgbotapi.NewPhoto(chat.ID, tgbotapi.FileBytes{Name: "board.png", Bytes: png})
	photo.Caption = b.caption(g, v)
	photo.ReplyMarkup = b.keyboard(g, v)
	r := chatReply(chat, photo)
	b.cardOf(g, nil) // a card posted a moment ago is the old card too
	var olds []int   // earlier cards of the game in this chat
	if g.MessageID() != 0 && g.ChatID() == chat.ID {
		olds = append(olds, g.MessageID())
	}
	// Until Telegram answers, edits of the game's card wait for this one
	// (the game's record may not name even the old card yet).
	rp := b.startRepost(g.ID())
	r.Done = func(msg *tgbotapi.Message, err error) {
		if err != nil || msg == nil {
			b.endRepost(g.ID(), rp) // edits kept meanwhile go to the old card
			if err != nil && !errors.Is(err, outbox.ErrShutdown) && g.Ply() == 0 && g.IsAITurn() {
				// The first card refused (a player who never started the
				// bot): the AI's first move waited for it.
				b.svc.CardRefused(g.ID())
			}
			return
		}
		ref := cardRef{chatID: chat.ID, messageID: msg.MessageID}
		if prev, ok := b.freshCards.Swap(g.ID(), ref); ok {
			// A card sent just before this one (a /board right after the
			// game began) is older than anything the store knew.
			if p := prev.(cardRef); p.chatID == chat.ID {
				olds = append(olds, p.messageID)
			}
		}
		b.endRepost(g.ID(), rp)
		b.background(func(ctx context.Context) {
			defer b.freshCards.CompareAndDelete(g.ID(), ref)
			if !b.recordsSent {
				b.recordPosted(ctx, g.ID(), ref, olds, after)
			}
			// Else recorded by recordCard before the outbox let this
			// run, with what follows owed in the same write.
		})
	}
	if b.recordsSent {
		// The card is recorded as the game's by whichever process sends
		// it (recordCard), before the outbox forgets the request: a crash
		// after the send leaves no card posted and unrecorded.
		r.Record = cardRecord(g, first)
	}
	if err := b.out.Enqueue(r); err != nil {
		b.log.Warn("reply dropped", "chat", r.ChatID, "err", err)
		b.endRepost(g.ID(), rp) // Done never comes: edits go ahead
	}
	return nil
}

// recordPosted records card ref, just posted for game id, as the game's
// in this process (a sender that records nothing: a test's), unless a newer
// card was recorded first; the older cards (olds and the one the store
// named) lose their keyboards; then after runs with the stored game.
func (b *Bot) recordPosted(ctx context.Context, id string, ref cardRef, olds []int, after func(ctx context.Context, g *play.Game)) {
	// The card the store has now may have been recorded since this one
	// was asked for.
	if cur, err := b.svc.Game(ctx, id); err == nil && cur.ChatID() == ref.chatID && cur.MessageID() != 0 {
		if cur.MessageID() > ref.messageID {
			// A newer card (message ids grow in a chat) was recorded
			// first: this one is the old card.
			b.stripKeyboard(ref.chatID, ref.messageID)
			if after != nil {
				after(ctx, cur)
			}
			return
		}
		olds = append(olds, cur.MessageID())
	}
	stored, err := b.svc.SetCard(ctx, id, ref.chatID, ref.messageID, "")
	if err != nil {
		b.log.Warn("card not recorded", "game", id, "err", err)
		return
	}
	slices.Sort(olds)
	for _, old := range slices.Compact(olds) {
		if old < ref.messageID {
			b.stripKeyboard(ref.chatID, old)
		}
	}
	if after != nil {
		after(ctx, stored)
	}
}

// stripKeyboard takes the buttons off an old card: only one live card a
// game.
func (b *Bot) stripKeyboard(chatID int64, messageID int) {
	b.send(outbox.Reply{Req: tgbotapi.NewEditMessageReplyMarkup(chatID, messageID, tgbotapi.InlineKeyboardMarkup{InlineKeyboard: [][]tgbotapi.InlineKeyboardButton{}}), ChatID: chatID})
}

// cardOf fills in where g's card is when the stored record does not say
// yet: a card posted a moment ago whose message id is still being stored,
// or else the message a tap came from.
func (b *Bot) cardOf(g *play.Game, q *tgbotapi.CallbackQuery) {
	if ref, ok := b.freshCards.Load(g.ID()); ok {
		// Newer than what the store says (a /board repost in flight).
		c := ref.(cardRef)
		g.ShowCardAt(c.chatID, c.messageID, "")
		return
	}
	if g.MessageID() != 0 || g.InlineMessageID() != "" {
		return
	}
	if q != nil && q.Message != nil && q.Message.Chat != nil {
		g.ShowCardAt(q.Message.Chat.ID, q.Message.MessageID, "")
		return
	}
	// g was written before its card's message id was stored (a resign
	// just after the card went out), and the card has been stored since:
	// ask the store where it is.
	if cur, err := b.svc.Game(b.bgCtx, g.ID()); err == nil && (cur.MessageID() != 0 || cur.InlineMessageID() != "") {
		g.ShowCardAt(cur.ChatID(), cur.MessageID(), cur.InlineMessageID())
	}
}

// editCard redraws the game's card in place (board, caption, keyboard).
// done, if set, runs after the edit is sent.
func (b *Bot) editCard(g *play.Game, v cardView, theme string, done func()) {
	if m, ok := g.Mirrored(); ok && v.selected == nil && v.stage == nil && m.MessageID() != 0 {
		// A tournament game's second card (tournament.go) shows every board
		// too. A done (doing nothing) keeps it out of deferEdit, which
		// holds one edit a game for a /board re-post of the game's card.
		b.editCard(m, cardView{lang: cardLang(m), thinking: v.thinking}, "", func() {})
	}
	if done == nil && b.deferEdit(g, v, theme) {
		return // made on the re-posted card once it is known
	}
	b.cardOf(g, nil)
	switch {
	case g.InlineMessageID() != "":
		b.editInlineBoard(g, v, theme, done)
	case g.MessageID() == 0:
		if done != nil {
			done()
		}
	default:
		b.editChatCard(g, v, theme, done)
	}
}

// editInlineBoard edits a game's inline card: drawn when it is sent where
// it can be (as chat cards are), else now; by URL when the board images
// are served (Telegram fetches what BoardImage draws), else uploaded.
func (b *Bot) editInlineBoard(g *play.Game, v cardView, theme string, done func()) {
	if r, ok := b.lazyEdit(g, v, theme); ok {
		// Drawn when it is sent (lazycard.go, resolveInline).
		b.send(r)
		if done != nil {
			done()
		}
		return
	}
	var png []byte
	if b.cfg.BoardImageURL == nil && !g.InlineText() { // a text card needs no picture
		var err error
		if png, err = b.boardPNG(g, v, theme); err != nil {
			b.log.Error("drawing the board", "game", g.ID(), "err", err)
			return
		}
	}
	b.editInlineCard(g, v, png)
	if done != nil {
		done()
	}
}

// editChatCard edits a game's card in its chat: drawn when it is sent
// where it can be (lazycard.go), else drawn now.
func (b *Bot) editChatCard(g *play.Game, v cardView, theme string, done func()) {
	r, ok := b.lazyEdit(g, v, theme)
	if !ok {
		png, err := b.boardPNG(g, v, theme)
		if err != nil {
			b.log.Error("drawing the board", "game", g.ID(), "err", err)
			return
		}
		media := tgbotapi.NewInputMediaPhoto(tgbotapi.FileBytes{Name: "board.png", Bytes: png})
		media.Caption = b.caption(g, v)
		kb := b.keyboard(g, v)
		edit := tgbotapi.EditMessageMediaConfig{
			BaseEdit: tgbotapi.BaseEdit{ChatID: g.ChatID(), MessageID: g.MessageID(), ReplyMarkup: &kb},
			Media:    media, // a value, not a pointer: tgbotapi drops a pointer's upload
		}
		// Keyed by the message: while Telegram's pacing holds this edit back, a
		// newer board replaces it rather than queueing behind it.
		r = outbox.Reply{Req: edit, ChatID: g.ChatID(), Group: g.ChatID() < 0, Key: cardKey("card", g), Delay: v.hold,
			// Never older than a board another replica has shown.
			Version: g.Version()}
	}
	if done != nil || v.sent != nil {
		r.Done = func(_ *tgbotapi.Message, err error) {
			if v.sent != nil && err == nil {
				v.sent()
			}
			if done != nil {
				done()
			}
		}
	}
	b.send(r)
}

// editKeyboard changes only the card's buttons.
func (b *Bot) editKeyboard(g *play.Game, kb tgbotapi.InlineKeyboardMarkup) {
	b.cardOf(g, nil)
	switch {
	case g.InlineMessageID() != "":
		b.send(outbox.Reply{Req: tgbotapi.EditMessageReplyMarkupConfig{BaseEdit: tgbotapi.BaseEdit{InlineMessageID: g.InlineMessageID(), ReplyMarkup: &kb}}})
	case g.MessageID() != 0:
		// Keyed apart from the whole card's edits: buttons alone must not
		// replace a waiting board.
		b.send(outbox.Reply{Req: tgbotapi.NewEditMessageReplyMarkup(g.ChatID(), g.MessageID(), kb), ChatID: g.ChatID(), Group: g.ChatID() < 0,
			Key: cardKey("buttons", g)})
	}
}

// cardKey keys the edits of what of a game's card message (see
// outbox.Reply.Key).
func cardKey(what string, g *play.Game) string {
	return what + ":" + strconv.FormatInt(g.ChatID(), 10) + ":" + strconv.Itoa(g.MessageID())
}
