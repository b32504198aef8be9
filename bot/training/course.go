package training

import (
	"context"
	"errors"
	"fmt"
	"maps"
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

// cmdLearn is /learn (and /start learn): the stages with the player's
// stars, then the current task's card; after the last lesson it starts
// the course over.
func (m *module) cmdLearn(ctx context.Context, k *bot.Kit, c bot.Command) error {
	msg, lang := c.Msg, c.Lang
	if !msg.Chat.IsPrivate() {
		k.Text(msg.Chat, k.Texts().T(lang, "learn_private_only", "Link", startLink(k, "learn")), msg.MessageID)
		return nil
	}
	p, err := m.Course.Place(ctx, msg.From.ID)
	if err == nil && p.Lesson >= len(training.Lessons) {
		err = m.Course.Restart(ctx, msg.From.ID)
	}
	if err != nil {
		k.Text(msg.Chat, k.RefusalText(lang, err), 0)
		return err
	}
	k.HTML(msg.Chat, stageList(k.Texts(), lang, p), nil)
	return m.sendLesson(ctx, k, msg.Chat, msg.From.ID, lang)
}

// stageList is the course's stages, each with the stars earned of its
// tasks, the current one marked.
func stageList(tx *texts.Catalog, lang string, p training.Place) string {
	var b strings.Builder
	b.WriteString(tx.T(lang, "course_stages"))
	for _, s := range training.Stages() {
		stars, tasks := 0, 0
		for _, i := range s.Lessons {
			l := &training.Lessons[i]
			stars += p.StarsIn(l.Key)
			tasks += len(l.Tasks)
		}
		mark := "▫️"
		if slices.Contains(s.Lessons, p.Lesson) {
			mark = "▶️"
		}
		b.WriteString("\n" + tx.T(lang, "course_stage_line", "Mark", mark, "Stage", tx.T(lang, "stage_"+s.Key), "Stars", stars, "Tasks", tasks))
	}
	return b.String()
}

// onLessonNext turns the card to the player's current task.
func (m *module) onLessonNext(ctx context.Context, k *bot.Kit, t bot.Tap) error {
	k.Toast(t.Query, "")
	if t.Query.Message == nil {
		return nil
	}
	p, err := m.Course.Place(ctx, t.Query.From.ID)
	if err != nil {
		return err
	}
	if p.Lesson >= len(training.Lessons) {
		k.HTML(t.Query.Message.Chat, k.Texts().T(t.Lang, "course_done"), nil)
		return nil
	}
	l := &training.Lessons[p.Lesson]
	return editPhoto(k, t.Query.Message, l.Tasks[p.Task].Position, render.Options{}, taskCaption(k.Texts(), t.Lang, p), taskKeyboard(p.Lesson, p.Task, l))
}

// sendLesson posts the card of the player's current task.
func (m *module) sendLesson(ctx context.Context, k *bot.Kit, chat *tgbotapi.Chat, userID int64, lang string) error {
	p, err := m.Course.Place(ctx, userID)
	if err != nil {
		k.Text(chat, k.RefusalText(lang, err), 0)
		return err
	}
	if p.Lesson >= len(training.Lessons) {
		k.HTML(chat, k.Texts().T(lang, "course_done"), nil)
		return nil
	}
	l := &training.Lessons[p.Lesson]
	png, err := k.Renderer().PNG(l.Tasks[p.Task].Position, render.Options{})
	if err != nil {
		return fmt.Errorf("bot/training: drawing lesson %s: %w", l.Key, err)
	}
	photo := tgbotapi.NewPhoto(chat.ID, tgbotapi.FileBytes{Name: "lesson.png", Bytes: png})
	photo.Caption = taskCaption(k.Texts(), lang, p)
	photo.ReplyMarkup = taskKeyboard(p.Lesson, p.Task, l)
	k.Send(bot.ChatReply(chat, photo))
	return nil
}

// taskCaption heads a task's board: the lesson's title, explanation, the
// task's number and prompt.
func taskCaption(t *texts.Catalog, lang string, p training.Place) string {
	l := &training.Lessons[p.Lesson]
	return t.T(lang, "lesson_caption", "N", p.Lesson+1, "Total", len(training.Lessons),
		"Title", t.T(lang, "lesson_"+l.Key+"_title"), "Text", t.T(lang, "lesson_"+l.Key+"_text"),
		"Task", t.T(lang, l.Tasks[p.Task].Prompt), "TaskN", p.Task+1, "Tasks", len(l.Tasks))
}

// taskKeyboard has a button for every legal move and the task's wrong
// move when it is illegal (the picker of a game offers only legal moves,
// and the rule the lesson teaches must be run into with taps alone), in
// square order, four to a row.
func taskKeyboard(lesson, task int, l *training.Lesson) tgbotapi.InlineKeyboardMarkup {
	t := &l.Tasks[task]
	names := map[string][]rules.Square{}
	for _, m := range t.Position.Legal() {
		names[m.String()] = m.Squares()
	}
	if sq, err := notationSquares(t.Wrong); err == nil {
		names[t.Wrong] = sq
	}
	var all []tgbotapi.InlineKeyboardButton
	for _, n := range slices.Sorted(maps.Keys(names)) { // sorted: the wrong move does not stand out
		data := bot.Callback{Kind: KindLesson, ID: strconv.Itoa(task), Ply: lesson, Arg: bot.EncodeSquares(names[n])}.Encode()
		all = append(all, tgbotapi.NewInlineKeyboardButtonData(n, data))
	}
	return fourToARow(all)
}

// onLesson plays a task's move. A wrong try says why on the same card
// (its caption is edited, so no message pushes the lesson off screen);
// the right one shows what it did, and whether it earned a star.
func (m *module) onLesson(ctx context.Context, k *bot.Kit, t bot.Tap) error {
	q, cb, lang, tx := t.Query, t.Data, t.Lang, k.Texts()
	sq, err := bot.DecodeSquares(cb.Arg)
	task, aerr := strconv.Atoi(cb.ID)
	if q.Message == nil || err != nil || aerr != nil || len(sq) < 2 || cb.Ply < 0 || cb.Ply >= len(training.Lessons) ||
		task < 0 || task >= len(training.Lessons[cb.Ply].Tasks) {
		k.Toast(q, tx.T(lang, "err_stale"))
		return nil
	}
	res, err := m.Course.Try(ctx, q.From.ID, cb.Ply, task, squaresText(sq))
	if reason, ok := wrongReason(tx, lang, err); ok {
		k.Toast(q, "")
		p := training.Place{Lesson: cb.Ply, Task: task}
		caption := taskCaption(tx, lang, p) + "\n\n" + tx.T(lang, "lesson_wrong", "Reason", reason)
		edit := tgbotapi.NewEditMessageCaption(q.Message.Chat.ID, q.Message.MessageID, caption)
		kb := taskKeyboard(cb.Ply, task, &training.Lessons[cb.Ply])
		edit.ReplyMarkup = &kb
		r := bot.ChatReply(q.Message.Chat, edit)
		r.Key = "train:" + strconv.FormatInt(q.Message.Chat.ID, 10) + ":" + strconv.Itoa(q.Message.MessageID)
		k.Send(r)
		return nil
	}
	if err != nil {
		k.Toast(q, k.RefusalText(lang, err))
		return err
	}
	k.Toast(q, "")
	caption, kb := lessonDone(tx, lang, res)
	mv := res.Move
	return editPhoto(k, q.Message, res.After, render.Options{LastMove: &mv}, caption, kb)
}

// wrongReason says why a wrong move is wrong: the rules' cause of an
// illegal one, the engine's answer to a legal one.
func wrongReason(tx *texts.Catalog, lang string, err error) (string, bool) {
	if _, ok := errors.AsType[*rules.MoveError](err); ok {
		return tx.Error(lang, err, false), true
	}
	w, ok := errors.AsType[*training.WrongMove](err)
	switch {
	case !ok:
		return "", false
	case w.Taken > 0:
		return tx.T(lang, "lesson_refuted", "Reply", w.Reply.String(), "Pieces", tx.N(lang, "tower_pieces", w.Taken)), true
	case w.StillMoves:
		return tx.T(lang, "lesson_still_moves", "Reply", w.Reply.String()), true
	}
	return tx.T(lang, "lesson_not_task"), true
}

// lessonDone is the caption and buttons of a task answered: its star, and
// the next task's button, or the course's end.
func lessonDone(tx *texts.Catalog, lang string, res *training.TaskResult) (string, tgbotapi.InlineKeyboardMarkup) {
	l := &training.Lessons[res.Lesson]
	key := "lesson_done"
	if res.Star {
		key = "lesson_done_star"
	}
	caption := tx.T(lang, key, "Move", res.Move.String(), "Title", tx.T(lang, "lesson_"+l.Key+"_title"),
		"TaskN", res.Task+1, "Tasks", len(l.Tasks))
	if res.Next.Lesson >= len(training.Lessons) {
		return caption + "\n\n" + tx.T(lang, "course_done"), tgbotapi.InlineKeyboardMarkup{InlineKeyboard: [][]tgbotapi.InlineKeyboardButton{}}
	}
	return caption, tgbotapi.NewInlineKeyboardMarkup(tgbotapi.NewInlineKeyboardRow(
		tgbotapi.NewInlineKeyboardButtonData(tx.T(lang, "btn_next_lesson"), bot.Callback{Kind: KindLessonNext, Ply: -1}.Encode())))
}
