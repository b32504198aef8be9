package bot

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/bashni/bashni/bot/telegram/outbox"
	"github.com/bashni/bashni/play"
	"github.com/bashni/bashni/play/training"
	"github.com/bashni/bashni/render"
	"github.com/bashni/bashni/rules"
)

// The course (/learn) and the puzzles (/puzzle) in a private chat. Both
// show a board photo whose message is edited in place as the player taps;
// the tap's own message is the one edited, so nothing about the message
// needs storing.

// Callback kinds of the course and the puzzles.
const (
	KindLesson     = "k"  // a lesson's move: Ply = lesson index, Arg = squares
	KindLessonNext = "kn" // show the current lesson
	KindPuzzle     = "z"  // puzzle picker: ID = puzzle id, Ply = moves played, Arg = squares
	KindPuzzleNext = "zn" // a new puzzle
)

// PuzzleBoard is the start parameter that opens the player's puzzle on
// the live board (miniapp.PuzzleParam; bot does not import miniapp).
const PuzzleBoard = "puzzle"

// startLink opens the bot's private chat with /start payload.
func (b *Bot) startLink(payload string) string {
	return "https://t.me/" + b.cfg.Username + "?start=" + payload
}

// cmdLearn shows the player's current lesson; after the last one it starts
// the course over.
func (b *Bot) cmdLearn(ctx context.Context, msg *tgbotapi.Message, lang string) error {
	if b.cfg.Course == nil {
		return nil
	}
	if !msg.Chat.IsPrivate() {
		b.text(msg.Chat, b.texts.T(lang, "learn_private_only", "Link", b.startLink("learn")), msg.MessageID)
		return nil
	}
	if _, _, err := b.cfg.Course.Lesson(ctx, msg.From.ID); errors.Is(err, training.ErrCourseDone) {
		if err := b.cfg.Course.Restart(ctx, msg.From.ID); err != nil {
			b.text(msg.Chat, b.texts.Error(lang, err, false), 0)
			return err
		}
	}
	return b.sendLesson(ctx, msg.Chat, msg.From.ID, lang)
}

// sendLesson posts the player's current lesson: board, explanation, task
// and a button for each move it offers.
func (b *Bot) sendLesson(ctx context.Context, chat *tgbotapi.Chat, userID int64, lang string) error {
	i, l, err := b.cfg.Course.Lesson(ctx, userID)
	if errors.Is(err, training.ErrCourseDone) {
		b.html(chat, b.texts.T(lang, "course_done"), nil)
		return nil
	}
	if err != nil {
		b.text(chat, b.texts.Error(lang, err, false), 0)
		return err
	}
	png, err := b.render.PNG(l.Position, render.Options{})
	if err != nil {
		return fmt.Errorf("bot: drawing lesson %s: %w", l.Key, err)
	}
	photo := tgbotapi.NewPhoto(chat.ID, tgbotapi.FileBytes{Name: "lesson.png", Bytes: png})
	photo.Caption = b.texts.T(lang, "lesson_caption", "N", i+1, "Total", len(training.Lessons),
		"Title", b.texts.T(lang, "lesson_"+l.Key+"_title"), "Text", b.texts.T(lang, "lesson_"+l.Key+"_text"),
		"Task", b.texts.T(lang, "lesson_"+l.Key+"_task"))
	photo.ReplyMarkup = lessonKeyboard(i, l)
	b.send(chatReply(chat, photo))
	return nil
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
	var names []string
	for t := range texts {
		names = append(names, t)
	}
	// Sorted so a decoy does not stand out by its place.
	slices.Sort(names)
	var all []tgbotapi.InlineKeyboardButton
	for _, t := range names {
		data := Callback{Kind: KindLesson, Ply: index, Arg: encodeSquares(texts[t])}.Encode()
		all = append(all, tgbotapi.NewInlineKeyboardButtonData(t, data))
	}
	return fourToARow(all)
}

// fourToARow lays buttons out four to a row: move names fit a phone's
// width four at a time.
func fourToARow(all []tgbotapi.InlineKeyboardButton) tgbotapi.InlineKeyboardMarkup {
	rows := [][]tgbotapi.InlineKeyboardButton{}
	for len(all) > 0 {
		n := min(4, len(all))
		rows = append(rows, all[:n:n])
		all = all[n:]
	}
	return tgbotapi.InlineKeyboardMarkup{InlineKeyboard: rows}
}

// notationSquares reads the squares of a move written in notation, legal
// or not.
func notationSquares(text string) ([]rules.Square, error) {
	var out []rules.Square
	for _, f := range strings.FieldsFunc(text, func(r rune) bool { return r == '-' || r == ':' }) {
		s, err := rules.ParseSquare(f)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

// squaresText writes picked squares as a move for rules.ParseMove, which
// reads either separator: the rules then say whether it is legal.
func squaresText(sq []rules.Square) string {
	parts := make([]string, len(sq))
	for i, s := range sq {
		parts[i] = s.String()
	}
	return strings.Join(parts, "-")
}

// onLesson plays a lesson's move. A wrong try gets the rules' own reason
// and the board stays for another; the right one shows what it did.
func (b *Bot) onLesson(ctx context.Context, q *tgbotapi.CallbackQuery, cb Callback, lang string) error {
	if b.cfg.Course == nil || q.Message == nil {
		b.toast(q, b.texts.T(lang, "err_stale"))
		return nil
	}
	sq, err := decodeSquares(cb.Arg)
	if err != nil || len(sq) < 2 || cb.Ply < 0 || cb.Ply >= len(training.Lessons) {
		b.toast(q, b.texts.T(lang, "err_stale"))
		return nil
	}
	res, err := b.cfg.Course.Try(ctx, q.From.ID, cb.Ply, squaresText(sq))
	var me *rules.MoveError
	switch {
	case errors.As(err, &me):
		b.toast(q, "")
		b.text(q.Message.Chat, b.texts.T(lang, "lesson_wrong", "Reason", b.texts.Error(lang, err, true)), 0)
		return nil
	case errors.Is(err, training.ErrNotTheTask):
		b.toast(q, "")
		b.text(q.Message.Chat, b.texts.T(lang, "lesson_not_task"), 0)
		return nil
	case err != nil:
		b.toast(q, b.texts.Error(lang, err, false))
		return err
	}
	b.toast(q, "")
	l := &training.Lessons[res.Index]
	caption := b.texts.T(lang, "lesson_done", "Move", res.Move.String(), "Title", b.texts.T(lang, "lesson_"+l.Key+"_title"))
	var kb tgbotapi.InlineKeyboardMarkup
	if res.Next >= len(training.Lessons) {
		caption += "\n\n" + b.texts.T(lang, "course_done")
		kb = tgbotapi.InlineKeyboardMarkup{InlineKeyboard: [][]tgbotapi.InlineKeyboardButton{}}
	} else {
		kb = tgbotapi.NewInlineKeyboardMarkup(tgbotapi.NewInlineKeyboardRow(
			tgbotapi.NewInlineKeyboardButtonData(b.texts.T(lang, "btn_next_lesson"), Callback{Kind: KindLessonNext, Ply: -1}.Encode())))
	}
	m := res.Move
	return b.editPhoto(q.Message, res.After, render.Options{LastMove: &m}, caption, kb)
}

// editPhoto replaces a board message's picture, caption and buttons.
func (b *Bot) editPhoto(msg *tgbotapi.Message, p rules.Position, o render.Options, caption string, kb tgbotapi.InlineKeyboardMarkup) error {
	png, err := b.render.PNG(p, o)
	if err != nil {
		return fmt.Errorf("bot: drawing the board: %w", err)
	}
	media := tgbotapi.NewInputMediaPhoto(tgbotapi.FileBytes{Name: "board.png", Bytes: png})
	media.Caption = caption
	edit := tgbotapi.EditMessageMediaConfig{
		BaseEdit: tgbotapi.BaseEdit{ChatID: msg.Chat.ID, MessageID: msg.MessageID, ReplyMarkup: &kb},
		Media:    media, // a value, not a pointer: tgbotapi drops a pointer's upload
	}
	b.send(outbox.Reply{Req: edit, ChatID: msg.Chat.ID, UserID: msg.Chat.ID, Key: "train:" + strconv.FormatInt(msg.Chat.ID, 10) + ":" + strconv.Itoa(msg.MessageID)})
	return nil
}

// cmdPuzzle gives the player a new puzzle.
func (b *Bot) cmdPuzzle(ctx context.Context, chat *tgbotapi.Chat, from *tgbotapi.User, lang string, replyTo int) error {
	if b.cfg.Puzzles == nil {
		b.text(chat, b.texts.T(lang, "err_no_puzzles"), replyTo)
		return nil
	}
	if !chat.IsPrivate() {
		b.text(chat, b.texts.T(lang, "puzzle_private_only", "Link", b.startLink("puzzle")), replyTo)
		return nil
	}
	st, err := b.cfg.Puzzles.Next(ctx, from.ID)
	if err != nil {
		b.text(chat, b.texts.Error(lang, err, false), replyTo)
		return err
	}
	png, err := b.render.PNG(st.Position, render.Options{Perspective: st.Puzzle.Solver()})
	if err != nil {
		return fmt.Errorf("bot: drawing puzzle %s: %w", st.Puzzle.ID, err)
	}
	photo := tgbotapi.NewPhoto(chat.ID, tgbotapi.FileBytes{Name: "puzzle.png", Bytes: png})
	photo.Caption = b.puzzleCaption(lang, st)
	photo.ReplyMarkup = b.puzzleKeyboard(lang, st, nil)
	b.send(chatReply(chat, photo))
	return nil
}

// puzzleCaption heads every board of a puzzle.
func (b *Bot) puzzleCaption(lang string, st *training.PuzzleState) string {
	toPlay := "puzzle_white"
	if st.Puzzle.Solver() == rules.Black {
		toPlay = "puzzle_black"
	}
	return b.texts.T(lang, "puzzle_caption", "ID", st.Puzzle.ID, "Rating", st.Puzzle.Rating,
		"ToPlay", b.texts.T(lang, toPlay), "Mine", int(math.Round(st.PlayerRating)))
}

// puzzleKeyboard is the move picker at the stage picked leads to.
func (b *Bot) puzzleKeyboard(lang string, st *training.PuzzleState, picked []rules.Square) tgbotapi.InlineKeyboardMarkup {
	res, ok := resolvePick(st.Position.Legal(), picked, maxWholeMoves)
	if !ok || res.move != nil {
		return tgbotapi.InlineKeyboardMarkup{InlineKeyboard: [][]tgbotapi.InlineKeyboardButton{}}
	}
	kb := b.pickerKeyboard(lang, st.Puzzle.ID, st.Moves, res.keyboard)
	for _, row := range kb.InlineKeyboard {
		for i := range row {
			if row[i].CallbackData != nil {
				// The game picker's data with the puzzle's kind.
				data := KindPuzzle + strings.TrimPrefix(*row[i].CallbackData, KindPick)
				row[i].CallbackData = &data
			}
		}
	}
	if b.cfg.BoardURL != nil {
		// The same attempt opens on the live board, where it can be solved too.
		kb.InlineKeyboard = append(kb.InlineKeyboard, tgbotapi.NewInlineKeyboardRow(
			tgbotapi.NewInlineKeyboardButtonURL(b.texts.T(lang, "btn_open_board"), b.cfg.BoardURL(PuzzleBoard))))
	}
	return kb
}

// onPuzzlePick handles a tap on a puzzle's picker: a step of the picker,
// or a whole move, answered at once with the reply or the end.
func (b *Bot) onPuzzlePick(ctx context.Context, q *tgbotapi.CallbackQuery, cb Callback, lang string) error {
	if b.cfg.Puzzles == nil || q.Message == nil {
		b.toast(q, b.texts.T(lang, "err_stale"))
		return nil
	}
	st, err := b.cfg.Puzzles.Current(ctx, q.From.ID)
	if err != nil {
		b.toast(q, b.texts.Error(lang, err, false))
		return err
	}
	if st.Puzzle.ID != cb.ID || st.Moves != cb.Ply {
		b.toast(q, b.texts.T(lang, "err_stale_puzzle"))
		return nil
	}
	picked, err := decodeSquares(cb.Arg)
	if err != nil {
		b.toast(q, b.texts.T(lang, "err_stale"))
		return nil
	}
	pick, ok := resolvePick(st.Position.Legal(), picked, maxWholeMoves)
	if !ok {
		b.toast(q, b.texts.T(lang, "err_stale"))
		return nil
	}
	if pick.move == nil {
		b.toast(q, "")
		kb := b.puzzleKeyboard(lang, st, picked)
		b.send(chatReply(q.Message.Chat, tgbotapi.NewEditMessageReplyMarkup(q.Message.Chat.ID, q.Message.MessageID, kb)))
		return nil
	}
	res, err := b.cfg.Puzzles.Move(ctx, q.From.ID, cb.ID, cb.Ply, pick.move.String())
	if err != nil {
		b.toast(q, b.texts.Error(lang, err, false))
		return err
	}
	b.toast(q, "")
	o := render.Options{Perspective: st.Puzzle.Solver()}
	pz := res.Puzzle
	line := rules.JoinMoves(pz.Solution, " ")
	switch {
	case !res.Done:
		reply := res.Reply
		o.LastMove = &reply
		caption := b.puzzleCaption(lang, &res.PuzzleState) + "\n\n" + b.texts.T(lang, "puzzle_reply", "Move", res.Played.String(), "Reply", reply.String())
		return b.editPhoto(q.Message, res.Position, o, caption, b.puzzleKeyboard(lang, &res.PuzzleState, nil))
	case res.Solved:
		last := res.Played
		o.LastMove = &last
		caption := b.texts.T(lang, "puzzle_solved", "Solution", line) + "\n" + b.ratingLine(lang, res, st.PlayerRating)
		return b.editPhoto(q.Message, res.Position, o, caption, b.nextPuzzleKeyboard(lang))
	}
	// A miss: the board shows the move that wins instead.
	right := pz.Solution[st.Moves]
	o.LastMove = &right
	caption := b.texts.T(lang, "puzzle_failed", "Move", res.Played.String(), "Solution", line) + "\n" + b.ratingLine(lang, res, st.PlayerRating)
	return b.editPhoto(q.Message, st.Position.Play(right), o, caption, b.nextPuzzleKeyboard(lang))
}

// ratingLine says how the attempt moved the player's rating.
func (b *Bot) ratingLine(lang string, res *training.PuzzleResult, before float64) string {
	if !res.Rated {
		return b.texts.T(lang, "puzzle_unrated", "Rating", int(math.Round(res.PlayerRating)))
	}
	change := int(math.Round(res.Change))
	sign := "+"
	if change < 0 {
		sign, change = "−", -change
	}
	return b.texts.T(lang, "puzzle_rating", "Before", int(math.Round(before)), "After", int(math.Round(res.PlayerRating)), "Change", sign+strconv.Itoa(change))
}

func (b *Bot) nextPuzzleKeyboard(lang string) tgbotapi.InlineKeyboardMarkup {
	return tgbotapi.NewInlineKeyboardMarkup(tgbotapi.NewInlineKeyboardRow(
		tgbotapi.NewInlineKeyboardButtonData(b.texts.T(lang, "btn_next_puzzle"), Callback{Kind: KindPuzzleNext, Ply: -1}.Encode())))
}

// learnButton links a challenge card to the course, for a player who has
// never played.
func (b *Bot) learnButton(lang string) tgbotapi.InlineKeyboardButton {
	return tgbotapi.NewInlineKeyboardButtonURL(b.texts.T(lang, "btn_learn"), b.startLink("learn"))
}

// maybeNewcomer reports whether the one challenged may never have played:
// someone who has neither played a game nor begun the course, someone the
// bot has never seen, or, for an open challenge, whoever accepts.
func (b *Bot) maybeNewcomer(ctx context.Context, c *play.Challenge) bool {
	if b.cfg.Course == nil {
		return false
	}
	if c.To == nil {
		return true
	}
	started, err := b.cfg.Course.Started(ctx, c.To.UserID)
	return err == nil && !started
}
