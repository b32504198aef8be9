package training

import (
	"context"
	"fmt"
	"math"
	"strconv"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/bashni/bashni/bot"
	"github.com/bashni/bashni/play/training"
	"github.com/bashni/bashni/render"
	"github.com/bashni/bashni/rules"
	"github.com/bashni/bashni/texts"
)

// sendPuzzle gives the player a new puzzle (/puzzle, /start puzzle and
// the Next button).
func (m *module) sendPuzzle(ctx context.Context, k *bot.Kit, chat *tgbotapi.Chat, from *tgbotapi.User, lang string, replyTo int) error {
	if !chat.IsPrivate() {
		k.Text(chat, k.Texts().T(lang, "puzzle_private_only", "Link", startLink(k, "puzzle")), replyTo)
		return nil
	}
	st, err := m.Puzzles.Next(ctx, from.ID)
	if err != nil {
		k.Text(chat, k.RefusalText(lang, err), replyTo)
		return err
	}
	return m.showPuzzle(k, chat, lang, st)
}

// showPuzzle sends a puzzle's first board, saying which game here it came
// from if it came from one (opened.go).
func (m *module) showPuzzle(k *bot.Kit, chat *tgbotapi.Chat, lang string, st *training.PuzzleState) error {
	png, err := k.Renderer().PNG(st.Position, render.Options{Perspective: st.Puzzle.Solver()})
	if err != nil {
		return fmt.Errorf("bot/training: drawing puzzle %s: %w", st.Puzzle.ID, err)
	}
	photo := tgbotapi.NewPhoto(chat.ID, tgbotapi.FileBytes{Name: "puzzle.png", Bytes: png})
	photo.Caption = puzzleCaption(k.Texts(), lang, st) + m.originLine(k, lang, st.Puzzle.ID)
	photo.ReplyMarkup = puzzleKeyboard(k, lang, st, nil)
	k.Send(bot.ChatReply(chat, photo))
	return nil
}

// onPuzzleNext sends another puzzle.
func (m *module) onPuzzleNext(ctx context.Context, k *bot.Kit, t bot.Tap) error {
	k.Toast(t.Query, "")
	if t.Query.Message == nil {
		return nil
	}
	return m.sendPuzzle(ctx, k, t.Query.Message.Chat, t.Query.From, t.Lang, 0)
}

// puzzleCaption heads every board of a puzzle.
func puzzleCaption(tx *texts.Catalog, lang string, st *training.PuzzleState) string {
	return tx.T(lang, "puzzle_caption", "ID", st.Puzzle.ID, "Rating", st.Puzzle.Rating,
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
	res, err := m.Puzzles.Move(ctx, q.From.ID, cb.ID, cb.Ply, move.String())
	if err != nil {
		k.Toast(q, k.RefusalText(lang, err))
		return err
	}
	k.Toast(q, "")
	o := render.Options{Perspective: st.Puzzle.Solver()}
	pos, caption, lastMove := puzzleAnswer(tx, lang, st, res)
	o.LastMove = &lastMove
	next := nextPuzzleKeyboard(tx, lang)
	if !res.Done {
		next = puzzleKeyboard(k, lang, &res.PuzzleState, nil)
	}
	return editPhoto(k, q.Message, pos, o, caption, next)
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
		caption := tx.T(lang, "puzzle_solved", "Solution", line) + "\n" + ratingLine(tx, lang, res, st.PlayerRating)
		return res.Position, caption, res.Played
	}
	right := res.Puzzle.Solution[st.Moves]
	caption := tx.T(lang, "puzzle_failed", "Move", res.Played.String(), "Solution", line) + "\n" + ratingLine(tx, lang, res, st.PlayerRating)
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
