package training

import (
	"fmt"
	"strconv"
	"strings"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/bashni/bashni/bot"
	"github.com/bashni/bashni/render"
	"github.com/bashni/bashni/rules"
)

// editPhoto replaces a board message's picture, caption and buttons.
func editPhoto(k *bot.Kit, msg *tgbotapi.Message, p rules.Position, o render.Options, caption string, kb tgbotapi.InlineKeyboardMarkup) error {
	png, err := k.Renderer().PNG(p, o)
	if err != nil {
		return fmt.Errorf("bot/training: drawing the board: %w", err)
	}
	media := tgbotapi.NewInputMediaPhoto(tgbotapi.FileBytes{Name: "board.png", Bytes: png})
	media.Caption = caption
	edit := tgbotapi.EditMessageMediaConfig{
		BaseEdit: tgbotapi.BaseEdit{ChatID: msg.Chat.ID, MessageID: msg.MessageID, ReplyMarkup: &kb},
		Media:    media, // a value, not a pointer: tgbotapi drops a pointer's upload
	}
	r := bot.ChatReply(msg.Chat, edit)
	r.Key = "train:" + strconv.FormatInt(msg.Chat.ID, 10) + ":" + strconv.Itoa(msg.MessageID)
	k.Send(r)
	return nil
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
