package training

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"strings"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/bashni/bashni/bot"
	"github.com/bashni/bashni/play/training"
	"github.com/bashni/bashni/render"
	"github.com/bashni/bashni/rules"
	"github.com/bashni/bashni/texts"
)

// The daily puzzle in a group (turned on in /settings): one card a day,
// posted by the clock's tick from the day's claim in the store. Only the
// first training.DailyNamed solvers edit the card.

// dailyTick posts today's card in every group whose day this replica
// claimed. It runs with the clock's other work.
func (m *module) dailyTick(ctx context.Context, k *bot.Kit) {
	cards, err := m.Daily.Due(ctx)
	if err != nil && !errors.Is(err, training.ErrNoDaily) {
		k.Log().Warn("daily puzzle tick failed", "err", err)
	}
	for _, c := range cards {
		if !c.Won {
			k.Log().Info("daily puzzle claimed by another replica", "chat", c.Record.ChatID, "date", c.Record.Date)
			continue
		}
		if err := postDaily(k, c); err != nil {
			k.Log().Warn("daily puzzle not posted", "chat", c.Record.ChatID, "err", err)
			continue
		}
		k.Log().Info("daily puzzle posted", "chat", c.Record.ChatID, "date", c.Record.Date, "puzzle", c.Puzzle.ID)
	}
}

// postDaily sends a day's card to its group.
func postDaily(k *bot.Kit, c training.DailyCard) error {
	pz := c.Puzzle
	png, err := k.Renderer().PNG(pz.Position, render.Options{Perspective: pz.Solver()})
	if err != nil {
		return err
	}
	photo := tgbotapi.NewPhoto(c.Record.ChatID, tgbotapi.FileBytes{Name: "puzzle.png", Bytes: png})
	photo.Caption = dailyCaption(k.Texts(), c.Record, pz.Solver())
	photo.ReplyMarkup = dailyKeyboard(c.Record.Date, pz.Position)
	k.Send(bot.ChatReplyID(c.Record.ChatID, photo))
	return nil
}

// dailyCaption is the card's text: the day, who is to play, and the first
// solvers so far, in the group's language. The names are cut to what
// fits a caption with the rest of it (texts.FitList): five of the longest
// names Telegram allows would not.
func dailyCaption(tx *texts.Catalog, rec *training.DailyPuzzle, solver rules.Color) string {
	lang := texts.Lang(rec.Lang)
	caption := func(solvers string) string {
		return tx.T(lang, "daily_caption", "Date", rec.Date, "ID", rec.PuzzleID, "ToPlay", toPlay(tx, lang, solver), "Solvers", solvers)
	}
	if len(rec.Solvers) == 0 {
		return caption(tx.T(lang, "daily_nobody"))
	}
	names := make([]string, len(rec.Solvers))
	for i, s := range rec.Solvers {
		names[i] = strconv.Itoa(i+1) + ". " + s.Name
	}
	tail := ""
	if len(rec.Solvers) == training.DailyNamed {
		tail = " …"
	}
	room := texts.CaptionLimit - texts.TelegramLen(caption(tail), "")
	list := tx.FitList(lang, names, ", ", room)
	if list != strings.Join(names, ", ") {
		tail = "" // cut: the list says how many more already
	}
	return caption(list + tail)
}

// dailyKeyboard has a button for every legal move, whole (a daily
// puzzle's position has at most training.DailyMaxMoves), in notation
// order four to a row, so the right move does not stand out by its place.
func dailyKeyboard(date string, pos rules.Position) tgbotapi.InlineKeyboardMarkup {
	moves := pos.Legal()
	slices.SortFunc(moves, func(a, b rules.Move) int { return strings.Compare(a.String(), b.String()) })
	all := make([]tgbotapi.InlineKeyboardButton, len(moves))
	for i, mv := range moves {
		data := bot.Callback{Kind: KindDaily, ID: date, Ply: -1, Arg: bot.EncodeSquares(mv.Squares())}.Encode()
		all[i] = tgbotapi.NewInlineKeyboardButtonData(mv.String(), data)
	}
	return fourToARow(all)
}

// onDailyTap is a member's one try. Every answer is a toast to them
// alone; the card changes only when a new solver is named on it.
func (m *module) onDailyTap(ctx context.Context, k *bot.Kit, t bot.Tap) error {
	q, cb, lang, tx := t.Query, t.Data, t.Lang, k.Texts()
	sq, err := bot.DecodeSquares(cb.Arg)
	if q.Message == nil || q.Message.Chat == nil || err != nil || len(sq) < 2 {
		k.Toast(q, tx.T(lang, "err_stale"))
		return nil
	}
	chatID := q.Message.Chat.ID
	who := training.DailySolver{UserID: q.From.ID, Name: bot.DisplayName(q.From)}
	res, err := m.Daily.Try(ctx, chatID, cb.ID, who, squaresText(sq))
	var me *rules.MoveError
	switch {
	case errors.Is(err, training.ErrDailyClosed):
		k.Toast(q, tx.T(lang, "daily_closed", "Date", cb.ID))
		return nil
	case errors.Is(err, training.ErrDailyTried):
		k.Toast(q, tx.T(lang, "daily_tried"))
		return nil
	case errors.As(err, &me):
		// Not a move of this board: a forged or garbled button.
		k.Toast(q, tx.T(lang, "err_stale"))
		return nil
	case err != nil:
		k.Toast(q, k.RefusalText(lang, err))
		return err
	}
	if !res.Correct {
		k.Toast(q, tx.T(lang, "daily_wrong", "Move", res.Move.String()))
		return nil
	}
	k.Toast(q, tx.T(lang, "daily_right", "Move", res.Move.String(), "Rank", res.Rank))
	if res.Named {
		// The caption is rebuilt from the record just written; edits of one
		// card share a key, so a waiting edit gives way to the newer one.
		kb := dailyKeyboard(res.Record.Date, res.Puzzle.Position)
		e := tgbotapi.NewEditMessageCaption(chatID, q.Message.MessageID, dailyCaption(tx, res.Record, res.Puzzle.Solver()))
		e.ReplyMarkup = &kb
		r := bot.ChatReplyID(chatID, e)
		r.Key = "daily:" + strconv.FormatInt(chatID, 10) + ":" + strconv.Itoa(q.Message.MessageID)
		k.Send(r)
	}
	return nil
}

// dailySetting is the settings' line and toggle for a group's daily
// puzzle; none in a private chat.
func (m *module) dailySetting(ctx context.Context, k *bot.Kit, chat *tgbotapi.Chat, lang string) (line, label string, ok bool) {
	if chat.IsPrivate() {
		return "", "", false
	}
	on, err := m.Daily.Enabled(ctx, chat.ID)
	if err != nil {
		k.Log().Warn("daily puzzle setting unread", "chat", chat.ID, "err", err)
		return "", "", false
	}
	state := k.Texts().T(lang, "off")
	if on {
		state = k.Texts().T(lang, "on")
	}
	return k.Texts().T(lang, "settings_daily", "On", state), k.Texts().T(lang, "btn_daily", "On", state), true
}

// toggleDaily turns the group's daily puzzle on or off, its cards in the
// language of whoever turned it on. Any member may: it is one message a
// day at most, and the settings message shows the new state to all.
func (m *module) toggleDaily(ctx context.Context, k *bot.Kit, t bot.Tap) error {
	q, lang := t.Query, t.Lang
	if q.Message == nil || q.Message.Chat == nil || q.Message.Chat.IsPrivate() {
		k.Toast(q, k.Texts().T(lang, "daily_groups_only"))
		return nil
	}
	chat := q.Message.Chat
	on, err := m.Daily.Enabled(ctx, chat.ID)
	if err == nil {
		err = m.Daily.Set(ctx, chat.ID, lang, !on)
	}
	if err != nil {
		k.Toast(q, k.RefusalText(lang, err))
		return err
	}
	key := "daily_off_toast"
	if !on {
		key = "daily_on_toast"
	}
	k.Toast(q, k.Texts().T(lang, key))
	k.ShowSettings(ctx, chat, q.From.ID, lang, q.Message.MessageID)
	return nil
}

// dailyLang moves a group's daily puzzle, if on, to the language the
// group chose.
func (m *module) dailyLang(ctx context.Context, _ *bot.Kit, chatID int64, lang string) error {
	if on, err := m.Daily.Enabled(ctx, chatID); err == nil && on {
		return m.Daily.Set(ctx, chatID, lang, true)
	}
	return nil
}
