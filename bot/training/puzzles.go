package training

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/bashni/bashni/bot"
	"github.com/bashni/bashni/play/training"
	"github.com/bashni/bashni/puzzle"
	"github.com/bashni/bashni/render"
	"github.com/bashni/bashni/rules"
	"github.com/bashni/bashni/texts"
)

// sendPuzzle gives the player a new puzzle (/puzzle, /start puzzle and
// the Next button); word is what followed /puzzle: a theme's word, or
// "themes" for the list of them.
func (m *module) sendPuzzle(ctx context.Context, k *bot.Kit, chat *tgbotapi.Chat, from *tgbotapi.User, lang string, replyTo int, word string) error {
	if !chat.IsPrivate() {
		k.Text(chat, k.Texts().T(lang, "puzzle_private_only", "Link", startLink(k, "puzzle")), replyTo)
		return nil
	}
	var (
		st  *training.PuzzleState
		err error
	)
	switch word = strings.ToLower(strings.TrimSpace(word)); word {
	case "":
		st, err = m.Puzzles.Next(ctx, from.ID)
	case "themes":
		m.sendThemes(k, chat, lang, replyTo)
		return nil
	default:
		theme, ok := puzzle.ParseTheme(word)
		if !ok {
			err = training.ErrNoTheme
			break
		}
		st, err = m.Puzzles.NextTheme(ctx, from.ID, theme)
	}
	if err != nil {
		k.Text(chat, k.RefusalText(lang, err), replyTo)
		if k.Expected(err) {
			return nil
		}
		return err
	}
	return m.showPuzzle(k, chat, lang, replyTo, st)
}

// showPuzzle sends the board of a puzzle about to be solved, saying which
// game here it came from if it came from one (opened.go).
func (m *module) showPuzzle(k *bot.Kit, chat *tgbotapi.Chat, lang string, replyTo int, st *training.PuzzleState) error {
	png, err := k.Renderer().PNG(st.Position, render.Options{Perspective: st.Puzzle.Solver()})
	if err != nil {
		return fmt.Errorf("bot/training: drawing puzzle %s: %w", st.Puzzle.ID, err)
	}
	photo := tgbotapi.NewPhoto(chat.ID, tgbotapi.FileBytes{Name: "puzzle.png", Bytes: png})
	photo.Caption = puzzleCaption(k.Texts(), lang, st) + m.originLine(k, lang, st.Puzzle.ID)
	photo.ReplyMarkup = puzzleKeyboard(k, lang, st, nil)
	photo.ReplyToMessageID = replyTo
	k.Send(bot.ChatReply(chat, photo))
	return nil
}

// onPuzzleNext sends another puzzle.
func (m *module) onPuzzleNext(ctx context.Context, k *bot.Kit, t bot.Tap) error {
	k.Toast(t.Query, "")
	if t.Query.Message == nil {
		return nil
	}
	return m.sendPuzzle(ctx, k, t.Query.Message.Chat, t.Query.From, t.Lang, 0, "")
}

// puzzleCaption heads every board of a puzzle.
func puzzleCaption(tx *texts.Catalog, lang string, st *training.PuzzleState) string {
	head := ""
	if st.Streak != nil {
		head = tx.T(lang, "streak_caption", "Run", *st.Streak) + "\n"
	}
	return head + tx.T(lang, "puzzle_caption", "ID", st.Puzzle.ID, "Rating", st.Puzzle.Rating,
		"ToPlay", toPlay(tx, lang, st.Puzzle.Solver()), "Mine", int(math.Round(st.PlayerRating)))
}

// toPlay says who is to play a puzzle.
func toPlay(tx *texts.Catalog, lang string, solver rules.Color) string {
	if solver == rules.Black {
		return tx.T(lang, "puzzle_black")
	}
	return tx.T(lang, "puzzle_white")
}

// puzzleKeyboard is the move picker at the stage picked leads to.
func puzzleKeyboard(k *bot.Kit, lang string, st *training.PuzzleState, picked []rules.Square) tgbotapi.InlineKeyboardMarkup {
	kb, move, ok := k.Picker(lang, KindPuzzle, st.Puzzle.ID, st.Moves, st.Position.Legal(), picked)
	if !ok || move != nil {
		return tgbotapi.InlineKeyboardMarkup{InlineKeyboard: [][]tgbotapi.InlineKeyboardButton{}}
	}
	return withBoard(k, lang, kb)
}

// withBoard adds the button that opens the puzzle on the live board.
func withBoard(k *bot.Kit, lang string, kb tgbotapi.InlineKeyboardMarkup) tgbotapi.InlineKeyboardMarkup {
	if url := k.BoardURL(PuzzleBoard); url != "" {
		// The same attempt opens on the live board, where it can be solved too.
		kb.InlineKeyboard = append(kb.InlineKeyboard, tgbotapi.NewInlineKeyboardRow(
			tgbotapi.NewInlineKeyboardButtonURL(k.Texts().T(lang, "btn_open_board"), url)))
	}
	return kb
}

// onPuzzlePick handles a tap on a puzzle's picker: a step of the picker,
// or a whole move, answered at once with the reply or the end.
func (m *module) onPuzzlePick(ctx context.Context, k *bot.Kit, t bot.Tap) error {
	q, cb, lang, tx := t.Query, t.Data, t.Lang, k.Texts()
	if q.Message == nil {
		k.Toast(q, tx.T(lang, "err_stale"))
		return nil
	}
	st, err := m.Puzzles.Current(ctx, q.From.ID)
	if err != nil {
		k.Toast(q, k.RefusalText(lang, err))
		return err
	}
	if st.Puzzle.ID != cb.ID || st.Moves != cb.Ply {
		k.Toast(q, tx.T(lang, "err_stale_puzzle"))
		return nil
	}
	picked, err := bot.DecodeSquares(cb.Arg)
	if err != nil {
		k.Toast(q, tx.T(lang, "err_stale"))
		return nil
	}
	kb, move, ok := k.Picker(lang, KindPuzzle, st.Puzzle.ID, st.Moves, st.Position.Legal(), picked)
	if !ok {
		k.Toast(q, tx.T(lang, "err_stale"))
		return nil
	}
	if move == nil {
		k.Toast(q, "")
		kb = withBoard(k, lang, kb)
		k.Send(bot.ChatReply(q.Message.Chat, tgbotapi.NewEditMessageReplyMarkup(q.Message.Chat.ID, q.Message.MessageID, kb)))
		return nil
	}
	res, err := m.move(ctx, q.From.ID, cb.ID, cb.Ply, move.String())
	if err != nil {
		k.Toast(q, k.RefusalText(lang, err))
		return err
	}
	k.Toast(q, "")
	pos, o, caption, next := m.answerView(k, lang, st, res)
	if err := editPhoto(k, q.Message, pos, o, caption, next); err != nil {
		return err
	}
	return m.goOn(ctx, k, q.Message.Chat, q.From.ID, lang, res)
}

// move plays a move in the user's puzzle: through the streak's service
// when there is one, which also enters a new best on the boards.
func (m *module) move(ctx context.Context, userID int64, id string, ply int, text string) (*training.PuzzleResult, error) {
	if m.Streak != nil {
		return m.Streak.Move(ctx, userID, id, ply, text)
	}
	return m.Puzzles.Move(ctx, userID, id, ply, text)
}

// answerView is the board, its options, caption and buttons after a move
// in st.
func (m *module) answerView(k *bot.Kit, lang string, st *training.PuzzleState, res *training.PuzzleResult) (rules.Position, render.Options, string, tgbotapi.InlineKeyboardMarkup) {
	o := render.Options{Perspective: st.Puzzle.Solver()}
	pos, caption, lastMove := puzzleAnswer(k.Texts(), lang, st, res)
	o.LastMove = &lastMove
	next := m.endKeyboard(k.Texts(), lang, res)
	if !res.Done {
		next = puzzleKeyboard(k, lang, &res.PuzzleState, nil)
	}
	return pos, o, caption, next
}

// goOn sends a Puzzle Streak's next puzzle once one is solved: the run
// goes on without a tap.
func (m *module) goOn(ctx context.Context, k *bot.Kit, chat *tgbotapi.Chat, userID int64, lang string, res *training.PuzzleResult) error {
	if m.Streak == nil || res.Streak == nil || !res.Solved {
		return nil
	}
	st, err := m.Streak.Next(ctx, userID)
	if err != nil {
		k.Text(chat, k.RefusalText(lang, err), 0)
		return err
	}
	return m.showPuzzle(k, chat, lang, 0, st)
}

// puzzleAnswer is the board and caption after a move in st, and the
// move to mark on it: the reply when the puzzle goes on; else its end, a
// miss showing the move that wins instead.
func puzzleAnswer(tx *texts.Catalog, lang string, st *training.PuzzleState, res *training.PuzzleResult) (rules.Position, string, rules.Move) {
	line := rules.JoinMoves(res.Puzzle.Solution, " ")
	switch {
	case !res.Done:
		caption := puzzleCaption(tx, lang, &res.PuzzleState) + "\n\n" + tx.T(lang, "puzzle_reply", "Move", res.Played.String(), "Reply", res.Reply.String())
		return res.Position, caption, res.Reply
	case res.Solved:
		caption := tx.T(lang, "puzzle_solved", "Solution", line) + explained(tx, lang, res) + "\n" + resultLine(tx, lang, res, st.PlayerRating)
		// The board shows where the line leads: the gain the move made.
		last := res.Played
		if len(res.Line) > 0 {
			last = res.Line[len(res.Line)-1]
		}
		return lineEnd(res.Puzzle, res.Line), caption, last
	}
	right := res.Puzzle.Solution[st.Moves]
	caption := tx.T(lang, "puzzle_failed", "Move", res.Played.String(), "Solution", line) + explained(tx, lang, res) + "\n" + resultLine(tx, lang, res, st.PlayerRating)
	return st.Position.Play(right), caption, right
}

// ratingLine says how the attempt moved the player's rating.
func ratingLine(tx *texts.Catalog, lang string, res *training.PuzzleResult, before float64) string {
	if !res.Rated {
		return tx.T(lang, "puzzle_unrated", "Rating", int(math.Round(res.PlayerRating)))
	}
	change := int(math.Round(res.Change))
	sign := "+"
	if change < 0 {
		sign, change = "−", -change
	}
	return tx.T(lang, "puzzle_rating", "Before", int(math.Round(before)), "After", int(math.Round(res.PlayerRating)), "Change", sign+strconv.Itoa(change))
}

func nextPuzzleKeyboard(tx *texts.Catalog, lang string) tgbotapi.InlineKeyboardMarkup {
	return tgbotapi.NewInlineKeyboardMarkup(tgbotapi.NewInlineKeyboardRow(
		tgbotapi.NewInlineKeyboardButtonData(tx.T(lang, "btn_next_puzzle"), bot.Callback{Kind: KindPuzzleNext, Ply: -1}.Encode())))
}
