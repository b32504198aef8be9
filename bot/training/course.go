package training

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/bashni/bashni/bot"
	"github.com/bashni/bashni/play/training"
	"github.com/bashni/bashni/render"
	"github.com/bashni/bashni/rules"
	"github.com/bashni/bashni/texts"
)

// cmdLearn is /learn (and /start learn): the player's current lesson;
// after the last one it starts the course over.
func (m *module) cmdLearn(ctx context.Context, k *bot.Kit, c bot.Command) error {
	msg, lang := c.Msg, c.Lang
	if !msg.Chat.IsPrivate() {
		k.Text(msg.Chat, k.Texts().T(lang, "learn_private_only", "Link", startLink(k, "learn")), msg.MessageID)
		return nil
	}
	if _, _, err := m.Course.Lesson(ctx, msg.From.ID); errors.Is(err, training.ErrCourseDone) {
		if err := m.Course.Restart(ctx, msg.From.ID); err != nil {
			k.Text(msg.Chat, k.RefusalText(lang, err), 0)
			return err
		}
	}
	return m.sendLesson(ctx, k, msg.Chat, msg.From.ID, lang)
}

// onLessonNext sends the course's next lesson.
func (m *module) onLessonNext(ctx context.Context, k *bot.Kit, t bot.Tap) error {
	k.Toast(t.Query, "")
	if t.Query.Message == nil {
		return nil
	}
	return m.sendLesson(ctx, k, t.Query.Message.Chat, t.Query.From.ID, t.Lang)
}

// sendLesson posts the player's current lesson: board, explanation, task
// and a button for each move it offers.
func (m *module) sendLesson(ctx context.Context, k *bot.Kit, chat *tgbotapi.Chat, userID int64, lang string) error {
	i, l, err := m.Course.Lesson(ctx, userID)
	if errors.Is(err, training.ErrCourseDone) {
		k.HTML(chat, k.Texts().T(lang, "course_done"), nil)
		return nil
	}
	if err != nil {
		k.Text(chat, k.RefusalText(lang, err), 0)
		return err
	}
	png, err := k.Renderer().PNG(l.Position, render.Options{})
	if err != nil {
		return fmt.Errorf("bot/training: drawing lesson %s: %w", l.Key, err)
	}
	photo := tgbotapi.NewPhoto(chat.ID, tgbotapi.FileBytes{Name: "lesson.png", Bytes: png})
	photo.Caption = lessonCaption(k.Texts(), lang, i, l)
	photo.ReplyMarkup = lessonKeyboard(i, l)
	k.Send(bot.ChatReply(chat, photo))
	return nil
}

// lessonCaption heads lesson i's board: its title, explanation and task.
func lessonCaption(t *texts.Catalog, lang string, i int, l *training.Lesson) string {
	return t.T(lang, "lesson_caption", "N", i+1, "Total", len(training.Lessons),
		"Title", t.T(lang, "lesson_"+l.Key+"_title"), "Text", t.T(lang, "lesson_"+l.Key+"_text"),
		"Task", t.T(lang, "lesson_"+l.Key+"_task"))
}

// lessonKeyboard has a button for every legal move and every decoy, in
// square order, four to a row.
func lessonKeyboard(index int, l *training.Lesson) tgbotapi.InlineKeyboardMarkup {
	texts := map[string][]rules.Square{}
	for _, m := range l.Position.Legal() {
		texts[m.String()] = m.Squares()
	}
	for _, d := range l.Decoys {
		if sq, err := notationSquares(d); err == nil {
			texts[d] = sq
		}
	}
	// Sorted so a decoy does not stand out by its place.
	names := slices.Sorted(maps.Keys(texts))
	var all []tgbotapi.InlineKeyboardButton
	for _, t := range names {
		data := bot.Callback{Kind: KindLesson, Ply: index, Arg: bot.EncodeSquares(texts[t])}.Encode()
		all = append(all, tgbotapi.NewInlineKeyboardButtonData(t, data))
	}
	return fourToARow(all)
}

// onLesson plays a lesson's move. A wrong try gets the rules' own reason
// and the board stays for another; the right one shows what it did.
func (m *module) onLesson(ctx context.Context, k *bot.Kit, t bot.Tap) error {
	q, cb, lang, tx := t.Query, t.Data, t.Lang, k.Texts()
	if q.Message == nil {
		k.Toast(q, tx.T(lang, "err_stale"))
		return nil
	}
	sq, err := bot.DecodeSquares(cb.Arg)
	if err != nil || len(sq) < 2 || cb.Ply < 0 || cb.Ply >= len(training.Lessons) {
		k.Toast(q, tx.T(lang, "err_stale"))
		return nil
	}
	res, err := m.Course.Try(ctx, q.From.ID, cb.Ply, squaresText(sq))
	var me *rules.MoveError
	switch {
	case errors.As(err, &me):
		k.Toast(q, "")
		k.Text(q.Message.Chat, tx.T(lang, "lesson_wrong", "Reason", tx.Error(lang, err, true)), 0)
		return nil
	case errors.Is(err, training.ErrNotTheTask):
		k.Toast(q, "")
		k.Text(q.Message.Chat, tx.T(lang, "lesson_not_task"), 0)
		return nil
	case err != nil:
		k.Toast(q, k.RefusalText(lang, err))
		return err
	}
	k.Toast(q, "")
	caption, kb := lessonDone(tx, lang, res)
	mv := res.Move
	return editPhoto(k, q.Message, res.After, render.Options{LastMove: &mv}, caption, kb)
}

// lessonDone is the caption and buttons of a lesson completed: the next
// lesson's button, or the course's end.
func lessonDone(tx *texts.Catalog, lang string, res *training.LessonResult) (string, tgbotapi.InlineKeyboardMarkup) {
	l := &training.Lessons[res.Index]
	caption := tx.T(lang, "lesson_done", "Move", res.Move.String(), "Title", tx.T(lang, "lesson_"+l.Key+"_title"))
	if res.Next >= len(training.Lessons) {
		return caption + "\n\n" + tx.T(lang, "course_done"), tgbotapi.InlineKeyboardMarkup{InlineKeyboard: [][]tgbotapi.InlineKeyboardButton{}}
	}
	return caption, tgbotapi.NewInlineKeyboardMarkup(tgbotapi.NewInlineKeyboardRow(
		tgbotapi.NewInlineKeyboardButtonData(tx.T(lang, "btn_next_lesson"), bot.Callback{Kind: KindLessonNext, Ply: -1}.Encode())))
}
