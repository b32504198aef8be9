package bot

import (
	"context"
	"errors"
	"strconv"
	"strings"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/bashni/bashni/bot/telegram/outbox"
	"github.com/bashni/bashni/play"
	"github.com/bashni/bashni/rules"
	"github.com/bashni/bashni/texts"
)

// onDrawAnswer accepts or declines a draw offer from its buttons.
func (b *Bot) onDrawAnswer(ctx context.Context, t tap) error {
	q := t.q
	out, err := b.svc.AnswerDraw(ctx, t.cb.ID, q.From.ID, t.cb.Kind == KindDrawYes)
	if err != nil {
		b.toast(q, b.texts.Error(t.lang, err, false))
		return err
	}
	b.toast(q, "")
	if q.Message != nil && q.Message.Photo == nil {
		// The offer message loses its buttons.
		b.send(chatReply(q.Message.Chat, tgbotapi.NewEditMessageReplyMarkup(q.Message.Chat.ID, q.Message.MessageID, tgbotapi.InlineKeyboardMarkup{InlineKeyboard: [][]tgbotapi.InlineKeyboardButton{}})))
	}
	if out.Ended {
		b.showGameOver(ctx, out.Game)
		return nil
	}
	// The card says who declined (caption): no message of its own.
	b.editCard(out.Game, cardView{lang: cardLang(out.Game)}, "", nil)
	return nil
}

// onLevel answers the AI menu's level step: a band of levels ("b1": the
// levels from 1; "b0": back to the bands), or a level, which asks for the
// colour next.
func (b *Bot) onLevel(_ context.Context, t tap) error {
	q, lang := t.q, t.lang
	if band, ok := strings.CutPrefix(t.cb.Arg, "b"); ok && q.Message != nil {
		first, err := strconv.Atoi(band)
		b.toast(q, "")
		if err != nil || first < 1 || first > b.svc.Config().MaxLevel {
			b.editText(q.Message, b.texts.T(lang, "choose_level"), b.levelKeyboard(lang))
			return nil
		}
		b.editText(q.Message, b.texts.T(lang, "choose_level"), b.levelBandKeyboard(lang, first))
		return nil
	}
	level, err := strconv.Atoi(t.cb.Arg)
	if err != nil || q.Message == nil {
		b.toast(q, b.texts.T(lang, "err_bad_level"))
		return nil
	}
	b.toast(q, "")
	b.editText(q.Message, colorQuestion(b.texts, lang, level, rules.Bashni), colorKeyboard(b.texts, lang, level, rules.Bashni))
	return nil
}

// onVariant answers the AI menu's ruleset row: the colour question again,
// under the chosen rules.
func (b *Bot) onVariant(_ context.Context, t tap) error {
	q, lang := t.q, t.lang
	level, err := strconv.Atoi(t.cb.ID)
	if err != nil || q.Message == nil {
		b.toast(q, b.texts.T(lang, "err_bad_level"))
		return nil
	}
	v := variantOfCode(t.cb.Arg)
	b.toast(q, b.texts.VariantName(lang, v))
	b.editText(q.Message, colorQuestion(b.texts, lang, level, v), colorKeyboard(b.texts, lang, level, v))
	return nil
}

// onColor answers the AI menu's last step and starts the game.
func (b *Bot) onColor(ctx context.Context, t tap) error {
	q, lang := t.q, t.lang
	levelText, code, _ := strings.Cut(t.cb.ID, ".")
	level, err := strconv.Atoi(levelText)
	if err != nil || q.Message == nil {
		b.toast(q, b.texts.T(lang, "err_bad_level"))
		return nil
	}
	b.toast(q, "")
	// The question becomes the answer, so the chat reads as what happened.
	colour := map[string]string{play.ColorWhite: "btn_white", play.ColorBlack: "btn_black", play.ColorRandom: "btn_random"}[t.cb.Arg]
	v := variantOfCode(code)
	if colour != "" {
		text := b.texts.T(lang, "color_chosen", "Level", level, "Name", b.texts.LevelName(lang, level), "Colour", b.texts.T(lang, colour))
		if line := rulesLine(b.texts, lang, v); line != "" {
			text += "\n" + line
		}
		b.editText(q.Message, text, nil)
	}
	return b.startAIGame(ctx, q.Message.Chat, q.From, lang, level, t.cb.Arg, v, 0)
}

// chatOf is the chat a callback came from, or the chat with id.
func chatOf(q *tgbotapi.CallbackQuery, id int64) *tgbotapi.Chat {
	if q != nil && q.Message != nil && q.Message.Chat != nil && q.Message.Chat.ID == id {
		return q.Message.Chat
	}
	t := "group"
	if id > 0 {
		t = "private"
	}
	return &tgbotapi.Chat{ID: id, Type: t}
}

// editText replaces a text message's text and buttons.
func (b *Bot) editText(msg *tgbotapi.Message, text string, kb *tgbotapi.InlineKeyboardMarkup) {
	e := tgbotapi.NewEditMessageText(msg.Chat.ID, msg.MessageID, text)
	e.ParseMode = tgbotapi.ModeHTML
	if kb != nil {
		e.ReplyMarkup = kb
	}
	b.send(chatReply(msg.Chat, e))
}

func (b *Bot) onAccept(ctx context.Context, t tap) error {
	q, cb, lang := t.q, t.cb, t.lang
	g, err := b.svc.AcceptInline(ctx, cb.ID, player(q.From), q.From.UserName, q.InlineMessageID, cb.Arg == ArgText)
	if err != nil {
		b.toast(q, b.texts.Error(lang, err, false))
		if errors.Is(err, play.ErrNoChallenge) && q.Message != nil {
			b.editText(q.Message, b.texts.T(lang, "challenge_gone"), nil)
		}
		return err
	}
	b.toast(q, "")
	if q.InlineMessageID != "" {
		b.onInlineAccept(ctx, q, g)
		return nil
	}
	if q.Message != nil {
		// The line is the game's, in its group's language.
		b.editText(q.Message, b.texts.T(cardLang(g), "challenge_accepted",
			"To", htmlName(displayName(q.From)), "White", htmlName(g.White().Name), "Black", htmlName(g.Black().Name)), nil)
	}
	// The game's first notice goes out once the card exists (its link).
	return b.postCard(chatOf(q, g.ChatID()), g, "", b.firstTurnOf(g, q.From.ID))
}

// notifyStart tells the first player to move that the game has begun,
// unless the clock tells them later if they have not moved (noticesNow).
func (b *Bot) notifyStart(ctx context.Context, g *play.Game) {
	if b.noticesNow() {
		b.notifyTurn(ctx, g, "")
	}
}

func (b *Bot) onRefuse(ctx context.Context, t tap) error {
	q, cb, lang := t.q, t.cb, t.lang
	var c *play.Challenge
	var err error
	key := "challenge_declined"
	if cb.Kind == KindCancel {
		c, err = b.svc.Cancel(ctx, cb.ID, q.From.ID)
		key = "challenge_cancelled"
	} else {
		c, err = b.svc.Decline(ctx, cb.ID, player(q.From), q.From.UserName)
	}
	if err != nil {
		b.toast(q, b.texts.Error(lang, err, false))
		return err
	}
	b.toast(q, "")
	text := b.texts.T(lang, key, "From", htmlName(c.From.Name), "To", htmlName(displayName(q.From)))
	switch {
	case q.InlineMessageID != "":
		b.send(outbox.Reply{Req: tgbotapi.EditMessageTextConfig{BaseEdit: tgbotapi.BaseEdit{InlineMessageID: q.InlineMessageID}, Text: text, ParseMode: tgbotapi.ModeHTML}})
	case q.Message != nil:
		b.editText(q.Message, text, nil)
	}
	return nil
}

func (b *Bot) onMenu(ctx context.Context, t tap) error {
	q, item, user, lang := t.q, t.cb.Arg, t.user, t.lang
	b.toast(q, "")
	if q.Message == nil {
		return nil
	}
	chat := q.Message.Chat
	switch item {
	case "ai":
		b.html(chat, b.texts.T(lang, "choose_level"), b.levelKeyboard(lang))
	case "challenge":
		b.html(chat, b.texts.T(lang, "challenge_howto"), nil)
	case "rules":
		b.html(chat, b.texts.T(lang, "rules"), nil)
	case "settings":
		b.showSettings(ctx, chat, user, lang, 0)
	}
	return nil
}

// levelsPerBand is how many AI levels the second step of the choice
// shows. Eighteen levels as buttons are nine rows, more than a phone shows
// under the message; the first step picks a band (three rows), the second
// a level in it (three rows and Back).
const levelsPerBand = 6

// levelKeyboard is the first step: one button per band of levels, named
// by its first and last level ("1–6 · Novice … Park player").
func (b *Bot) levelKeyboard(lang string) *tgbotapi.InlineKeyboardMarkup {
	max := b.svc.Config().MaxLevel
	var rows [][]tgbotapi.InlineKeyboardButton
	for first := 1; first <= max; first += levelsPerBand {
		last := min(first+levelsPerBand-1, max)
		label := strconv.Itoa(first) + "–" + strconv.Itoa(last) + " · " + b.texts.LevelName(lang, first) + " … " + b.texts.LevelName(lang, last)
		if first == last {
			label = strconv.Itoa(first) + " · " + b.texts.LevelName(lang, first)
		}
		rows = append(rows, tgbotapi.NewInlineKeyboardRow(tgbotapi.NewInlineKeyboardButtonData(label, Callback{Kind: KindLevel, Ply: -1, Arg: "b" + strconv.Itoa(first)}.Encode())))
	}
	return &tgbotapi.InlineKeyboardMarkup{InlineKeyboard: rows}
}

// levelBandKeyboard is the second step: the levels of the band starting
// at first, two to a row, and Back to the bands.
func (b *Bot) levelBandKeyboard(lang string, first int) *tgbotapi.InlineKeyboardMarkup {
	var entries []tgbotapi.InlineKeyboardButton
	for l := first; l < first+levelsPerBand && l <= b.svc.Config().MaxLevel; l++ {
		label := strconv.Itoa(l) + " · " + b.texts.LevelName(lang, l)
		entries = append(entries, tgbotapi.NewInlineKeyboardButtonData(label, Callback{Kind: KindLevel, Ply: -1, Arg: strconv.Itoa(l)}.Encode()))
	}
	var rows [][]tgbotapi.InlineKeyboardButton
	for len(entries) > 0 {
		k := min(2, len(entries))
		rows = append(rows, entries[:k])
		entries = entries[k:]
	}
	rows = append(rows, tgbotapi.NewInlineKeyboardRow(tgbotapi.NewInlineKeyboardButtonData(b.texts.T(lang, "btn_back"), Callback{Kind: KindLevel, Ply: -1, Arg: "b0"}.Encode())))
	return &tgbotapi.InlineKeyboardMarkup{InlineKeyboard: rows}
}

// colorKeyboard asks for the colour of a game against the AI at level
// under ruleset v; a second row changes the ruleset.
func colorKeyboard(words *texts.Catalog, lang string, level int, v rules.Variant) *tgbotapi.InlineKeyboardMarkup {
	id := strconv.Itoa(level)
	if v != rules.Bashni {
		id += "." + variantCode[v]
	}
	kb := tgbotapi.NewInlineKeyboardMarkup(tgbotapi.NewInlineKeyboardRow(
		tgbotapi.NewInlineKeyboardButtonData(words.T(lang, "btn_white"), Callback{Kind: KindColor, ID: id, Ply: -1, Arg: play.ColorWhite}.Encode()),
		tgbotapi.NewInlineKeyboardButtonData(words.T(lang, "btn_black"), Callback{Kind: KindColor, ID: id, Ply: -1, Arg: play.ColorBlack}.Encode()),
		tgbotapi.NewInlineKeyboardButtonData(words.T(lang, "btn_random"), Callback{Kind: KindColor, ID: id, Ply: -1, Arg: play.ColorRandom}.Encode()),
	), variantRow(words, lang, strconv.Itoa(level), v))
	return &kb
}

// colorQuestion is the text above colorKeyboard.
func colorQuestion(words *texts.Catalog, lang string, level int, v rules.Variant) string {
	text := words.T(lang, "choose_color", "Level", level, "Name", words.LevelName(lang, level))
	if line := rulesLine(words, lang, v); line != "" {
		return text + "\n" + line
	}
	return text + "\n" + words.T(lang, "choose_rules")
}

// sendPDN sends the game record as a PDN file to the chat of the tap.
func (b *Bot) sendPDN(ctx context.Context, t tap) error {
	q, id, lang := t.q, t.cb.ID, t.lang
	g, err := b.svc.Game(ctx, id)
	if err != nil || q.Message == nil {
		b.toast(q, b.texts.Error(lang, err, false))
		return err
	}
	b.toast(q, "")
	doc := tgbotapi.NewDocument(q.Message.Chat.ID, tgbotapi.FileBytes{Name: "bashni-" + g.ID() + ".pdn", Bytes: []byte(PDN(g))})
	b.send(chatReply(q.Message.Chat, doc))
	return nil
}

// sendReplay sends an animated replay of the game.
func (b *Bot) sendReplay(ctx context.Context, t tap) error {
	q, id, lang := t.q, t.cb.ID, t.lang
	g, err := b.svc.Game(ctx, id)
	if err != nil || q.Message == nil {
		b.toast(q, b.texts.Error(lang, err, false))
		return err
	}
	b.toast(q, b.texts.T(lang, "thinking"))
	chat := q.Message.Chat
	b.background(func(ctx context.Context) {
		gif, err := b.render.ReplayGIF(g.Rules().StartPosition(), g.Rules().Moves(), replayOptions(g))
		if err != nil {
			b.log.Error("replay failed", "game", g.ID(), "err", err)
			return
		}
		anim := tgbotapi.NewAnimation(chat.ID, tgbotapi.FileBytes{Name: "bashni-" + g.ID() + ".gif", Bytes: gif})
		anim.Caption = b.caption(g, cardView{lang: lang})
		b.send(chatReply(chat, anim))
	})
	return nil
}
