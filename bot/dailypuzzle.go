package bot

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"strings"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/bashni/bashni/play"
	"github.com/bashni/bashni/play/training"
	"github.com/bashni/bashni/render"
	"github.com/bashni/bashni/rules"
	"github.com/bashni/bashni/texts"
)

// The daily puzzle in a group (turned on in /settings): one card a day,
// posted by the clock's tick from the day's claim in the store, so that
// of several replicas only one posts it. Anyone taps a move on it; the
// answer comes as a toast, which costs the group no message, and only the
// first training.DailyNamed solvers edit the card.

// KindDaily is a tap on a daily card: ID = the card's day, Arg = the
// move's squares.
const KindDaily = "dz"

// dailyTick posts today's card in every group whose day this replica
// claimed. It runs with the clock's other work.
func (b *Bot) dailyTick(ctx context.Context) {
	if b.cfg.Daily == nil {
		return
	}
	cards, err := b.cfg.Daily.Due(ctx)
	if err != nil && !errors.Is(err, training.ErrNoDaily) {
		b.log.Warn("daily puzzle tick failed", "err", err)
	}
	for _, c := range cards {
		if !c.Won {
			b.log.Info("daily puzzle claimed by another replica", "chat", c.Record.ChatID, "date", c.Record.Date)
			continue
		}
		if err := b.postDaily(c); err != nil {
			b.log.Warn("daily puzzle not posted", "chat", c.Record.ChatID, "err", err)
			continue
		}
		b.log.Info("daily puzzle posted", "chat", c.Record.ChatID, "date", c.Record.Date, "puzzle", c.Puzzle.ID)
	}
}

// postDaily sends a day's card to its group.
func (b *Bot) postDaily(c training.DailyCard) error {
	pz := c.Puzzle
	png, err := b.render.PNG(pz.Position, render.Options{Perspective: pz.Solver()})
	if err != nil {
		return err
	}
	photo := tgbotapi.NewPhoto(c.Record.ChatID, tgbotapi.FileBytes{Name: "puzzle.png", Bytes: png})
	photo.Caption = b.dailyCaption(c.Record, pz.Solver())
	photo.ReplyMarkup = dailyKeyboard(c.Record.Date, pz.Position)
	b.send(chatReplyID(c.Record.ChatID, photo))
	return nil
}

// dailyCaption is the card's text: the day, who is to play, and the first
// solvers so far, in the group's language.
func (b *Bot) dailyCaption(rec *training.DailyPuzzle, solver rules.Color) string {
	lang := texts.Lang(rec.Lang)
	toPlay := "puzzle_white"
	if solver == rules.Black {
		toPlay = "puzzle_black"
	}
	solvers := b.texts.T(lang, "daily_nobody")
	if len(rec.Solvers) > 0 {
		names := make([]string, len(rec.Solvers))
		for i, s := range rec.Solvers {
			names[i] = strconv.Itoa(i+1) + ". " + s.Name
		}
		solvers = strings.Join(names, ", ")
		if len(rec.Solvers) == training.DailyNamed {
			solvers += " …"
		}
	}
	return b.texts.T(lang, "daily_caption", "Date", rec.Date, "ID", rec.PuzzleID, "ToPlay", b.texts.T(lang, toPlay), "Solvers", solvers)
}

// dailyKeyboard has a button for every legal move, whole (a daily
// puzzle's position has at most training.DailyMaxMoves), in notation order
// four to a row, so the right move does not stand out by its place.
func dailyKeyboard(date string, pos rules.Position) tgbotapi.InlineKeyboardMarkup {
	moves := pos.Legal()
	slices.SortFunc(moves, func(a, b rules.Move) int { return strings.Compare(a.String(), b.String()) })
	all := make([]tgbotapi.InlineKeyboardButton, len(moves))
	for i, m := range moves {
		data := Callback{Kind: KindDaily, ID: date, Ply: -1, Arg: encodeSquares(m.Squares())}.Encode()
		all[i] = tgbotapi.NewInlineKeyboardButtonData(m.String(), data)
	}
	return fourToARow(all)
}

// onDailyTap is a member's one try. Every answer is a toast to them
// alone; the card changes only when a new solver is named on it.
func (b *Bot) onDailyTap(ctx context.Context, q *tgbotapi.CallbackQuery, cb Callback, lang string) error {
	sq, err := decodeSquares(cb.Arg)
	if b.cfg.Daily == nil || q.Message == nil || q.Message.Chat == nil || err != nil || len(sq) < 2 {
		b.toast(q, b.texts.T(lang, "err_stale"))
		return nil
	}
	chatID := q.Message.Chat.ID
	who := training.DailySolver{UserID: q.From.ID, Name: displayName(q.From)}
	res, err := b.cfg.Daily.Try(ctx, chatID, cb.ID, who, squaresText(sq))
	var me *rules.MoveError
	switch {
	case errors.Is(err, training.ErrDailyClosed):
		b.toast(q, b.texts.T(lang, "daily_closed", "Date", cb.ID))
		return nil
	case errors.Is(err, training.ErrDailyTried):
		b.toast(q, b.texts.T(lang, "daily_tried"))
		return nil
	case errors.As(err, &me):
		// Not a move of this board: a forged or garbled button.
		b.toast(q, b.texts.T(lang, "err_stale"))
		return nil
	case err != nil:
		b.toast(q, b.texts.Error(lang, err, false))
		return err
	}
	if !res.Correct {
		b.toast(q, b.texts.T(lang, "daily_wrong", "Move", res.Move.String()))
		return nil
	}
	b.toast(q, b.texts.T(lang, "daily_right", "Move", res.Move.String(), "Rank", res.Rank))
	if res.Named {
		// The caption is rebuilt from the record just written; edits of one
		// card share a key, so a waiting edit gives way to the newer one.
		kb := dailyKeyboard(res.Record.Date, res.Puzzle.Position)
		e := tgbotapi.NewEditMessageCaption(chatID, q.Message.MessageID, b.dailyCaption(res.Record, res.Puzzle.Solver()))
		e.ReplyMarkup = &kb
		r := chatReplyID(chatID, e)
		r.Key = "daily:" + strconv.FormatInt(chatID, 10) + ":" + strconv.Itoa(q.Message.MessageID)
		b.send(r)
	}
	return nil
}

// dailySetting is the settings' line and toggle for a group's daily
// puzzle; none in a private chat or without puzzles.
func (b *Bot) dailySetting(ctx context.Context, chat *tgbotapi.Chat, lang string) (string, []tgbotapi.InlineKeyboardButton) {
	if b.cfg.Daily == nil || chat.IsPrivate() {
		return "", nil
	}
	on, err := b.cfg.Daily.Enabled(ctx, chat.ID)
	if err != nil {
		b.log.Warn("daily puzzle setting unread", "chat", chat.ID, "err", err)
		return "", nil
	}
	state := b.texts.T(lang, "off")
	if on {
		state = b.texts.T(lang, "on")
	}
	return b.texts.T(lang, "settings_daily", "On", state),
		tgbotapi.NewInlineKeyboardRow(tgbotapi.NewInlineKeyboardButtonData(b.texts.T(lang, "btn_daily", "On", state), Callback{Kind: KindSetting, Ply: -1, Arg: "daily"}.Encode()))
}

// toggleDaily turns the group's daily puzzle on or off, its cards in the
// language of whoever turned it on. Any member may: it is one message a
// day at most, and the settings message shows the new state to all.
func (b *Bot) toggleDaily(ctx context.Context, q *tgbotapi.CallbackQuery, lang string) error {
	if b.cfg.Daily == nil || q.Message == nil || q.Message.Chat == nil || q.Message.Chat.IsPrivate() {
		b.toast(q, b.texts.T(lang, "daily_groups_only"))
		return nil
	}
	chat := q.Message.Chat
	on, err := b.cfg.Daily.Enabled(ctx, chat.ID)
	if err == nil {
		err = b.cfg.Daily.Set(ctx, chat.ID, lang, !on)
	}
	if err != nil {
		b.toast(q, b.texts.Error(lang, err, false))
		return err
	}
	key := "daily_off_toast"
	if !on {
		key = "daily_on_toast"
	}
	b.toast(q, b.texts.T(lang, key))
	u, err := b.svc.User(ctx, q.From.ID)
	if err != nil {
		u = &play.User{ID: q.From.ID, Notify: true}
	}
	b.showSettings(ctx, chat, u, lang, q.Message.MessageID)
	return nil
}
