package training

import (
	"context"
	"errors"
	"fmt"
	"strings"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/bashni/bashni/bot"
	"github.com/bashni/bashni/play/training"
	"github.com/bashni/bashni/puzzle"
	"github.com/bashni/bashni/render"
	"github.com/bashni/bashni/rules"
	"github.com/bashni/bashni/texts"
)

// explained is what an ended puzzle adds to its caption: the line after
// the solution that realises its gain, and the puzzle's themes.
func explained(tx *texts.Catalog, lang string, res *training.PuzzleResult) string {
	out := ""
	if len(res.Line) > 0 {
		end := lineEnd(res.Puzzle, res.Line)
		key := "puzzle_line"
		if len(end.Legal()) == 0 {
			key = "puzzle_line_over"
		}
		out += "\n" + tx.T(lang, key, "Line", rules.JoinMoves(res.Line, " "))
	}
	if ts := puzzle.ThemesOf(res.Puzzle); len(ts) > 0 {
		names := make([]string, len(ts))
		for i, t := range ts {
			names[i] = themeName(tx, lang, t)
		}
		out += "\n" + tx.T(lang, "puzzle_themes", "Themes", strings.Join(names, ", "))
	}
	return out
}

// lineEnd is the position after pz's solution and line.
func lineEnd(pz *puzzle.Puzzle, line []rules.Move) rules.Position {
	pos := pz.Position
	for _, m := range pz.Solution {
		pos = pos.Play(m)
	}
	for _, m := range line {
		pos = pos.Play(m)
	}
	return pos
}

// themeName is a theme as a player reads it.
func themeName(tx *texts.Catalog, lang string, t puzzle.Theme) string {
	return tx.T(lang, "theme_"+string(t))
}

// resultLine is the last line of an ended puzzle: how the rating moved,
// or in a Puzzle Streak how the run goes.
func resultLine(tx *texts.Catalog, lang string, res *training.PuzzleResult, before float64) string {
	if res.Streak == nil {
		return ratingLine(tx, lang, res, before)
	}
	if !res.Solved {
		return tx.T(lang, "streak_over", "Run", res.Run, "Best", res.Best)
	}
	line := tx.T(lang, "streak_go_on", "Run", res.Run)
	if res.NewBest {
		line += "\n" + tx.T(lang, "streak_new_best", "Best", res.Best)
	}
	return line
}

// endKeyboard is an ended puzzle's buttons: the next puzzle, a streak,
// more of its themes, the list of themes. A streak's solve has none: its
// next puzzle follows at once.
func (m *module) endKeyboard(tx *texts.Catalog, lang string, res *training.PuzzleResult) tgbotapi.InlineKeyboardMarkup {
	if res.Streak != nil && res.Solved {
		return tgbotapi.InlineKeyboardMarkup{InlineKeyboard: [][]tgbotapi.InlineKeyboardButton{}}
	}
	kb := nextPuzzleKeyboard(tx, lang)
	if m.Streak != nil {
		label := "btn_streak"
		if res.Streak != nil {
			label = "btn_streak_again"
		}
		kb.InlineKeyboard[0] = append(kb.InlineKeyboard[0], tgbotapi.NewInlineKeyboardButtonData(tx.T(lang, label), bot.Callback{Kind: KindStreak, Ply: -1}.Encode()))
	}
	var themes []tgbotapi.InlineKeyboardButton
	for _, t := range puzzle.ThemesOf(res.Puzzle) {
		themes = append(themes, themeButton(tx, lang, t))
	}
	themes = append(themes, tgbotapi.NewInlineKeyboardButtonData(tx.T(lang, "btn_themes"), bot.Callback{Kind: KindPuzzleTheme, Ply: -1}.Encode()))
	kb.InlineKeyboard = append(kb.InlineKeyboard, twoToARow(themes)...)
	return kb
}

// themeButton asks for a puzzle of theme t.
func themeButton(tx *texts.Catalog, lang string, t puzzle.Theme) tgbotapi.InlineKeyboardButton {
	return tgbotapi.NewInlineKeyboardButtonData(tx.T(lang, "btn_puzzle_theme", "Name", themeName(tx, lang, t)), bot.Callback{Kind: KindPuzzleTheme, Ply: -1, Arg: string(t)}.Encode())
}

// twoToARow lays buttons out two to a row: a theme's name is long.
func twoToARow(all []tgbotapi.InlineKeyboardButton) [][]tgbotapi.InlineKeyboardButton {
	var rows [][]tgbotapi.InlineKeyboardButton
	for len(all) > 0 {
		n := min(2, len(all))
		rows = append(rows, all[:n:n])
		all = all[n:]
	}
	return rows
}

// sendThemes lists the themes the set has, with a button for each.
func (m *module) sendThemes(k *bot.Kit, chat *tgbotapi.Chat, lang string, replyTo int) {
	tx := k.Texts()
	counts := m.Puzzles.ThemeCounts()
	text := tx.T(lang, "theme_choose")
	var btns []tgbotapi.InlineKeyboardButton
	for _, t := range puzzle.Themes {
		if counts[t] == 0 {
			continue
		}
		text += "\n" + tx.T(lang, "theme_row", "Name", themeName(tx, lang, t), "Word", string(t), "N", counts[t])
		btns = append(btns, themeButton(tx, lang, t))
	}
	kb := tgbotapi.InlineKeyboardMarkup{InlineKeyboard: twoToARow(btns)}
	msg := tgbotapi.NewMessage(chat.ID, text)
	msg.ReplyMarkup = kb
	msg.ReplyToMessageID = replyTo
	k.Send(bot.ChatReply(chat, msg))
}

// onPuzzleTheme is a theme's button: a puzzle of it, or (no theme) the
// list of themes.
func (m *module) onPuzzleTheme(ctx context.Context, k *bot.Kit, t bot.Tap) error {
	k.Toast(t.Query, "")
	if t.Query.Message == nil {
		return nil
	}
	word := t.Data.Arg
	if word == "" {
		word = "themes"
	}
	return m.sendPuzzle(ctx, k, t.Query.Message.Chat, t.Query.From, t.Lang, 0, word)
}

// typed plays a move typed in a private chat in the user's puzzle under
// way (bot.Module.Typed): answered with a new board, as a typed move in a
// game is. A user with no puzzle is not this module's.
func (m *module) typed(ctx context.Context, k *bot.Kit, c bot.Command) (bool, error) {
	msg, lang := c.Msg, c.Lang
	st, err := m.Puzzles.Current(ctx, msg.From.ID)
	switch {
	case errors.Is(err, training.ErrNoPuzzle):
		return false, nil
	case err != nil:
		k.Text(msg.Chat, k.RefusalText(lang, err), msg.MessageID)
		return true, err
	}
	res, err := m.move(ctx, msg.From.ID, st.Puzzle.ID, st.Moves, c.Args)
	if err != nil {
		k.RefuseTyped(ctx, msg, c.Args, k.Texts().Error(lang, err, true))
		if k.Expected(err) {
			return true, nil
		}
		return true, err
	}
	pos, o, caption, kb := m.answerView(k, lang, st, res)
	if err := sendPhoto(k, msg.Chat, pos, o, caption, kb, msg.MessageID); err != nil {
		return true, err
	}
	return true, m.goOn(ctx, k, msg.Chat, msg.From.ID, lang, res)
}

// sendPhoto sends a new board message.
func sendPhoto(k *bot.Kit, chat *tgbotapi.Chat, p rules.Position, o render.Options, caption string, kb tgbotapi.InlineKeyboardMarkup, replyTo int) error {
	png, err := k.Renderer().PNG(p, o)
	if err != nil {
		return fmt.Errorf("bot/training: drawing the board: %w", err)
	}
	photo := tgbotapi.NewPhoto(chat.ID, tgbotapi.FileBytes{Name: "puzzle.png", Bytes: png})
	photo.Caption = caption
	photo.ReplyMarkup = kb
	photo.ReplyToMessageID = replyTo
	k.Send(bot.ChatReply(chat, photo))
	return nil
}
