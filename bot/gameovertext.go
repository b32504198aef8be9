package bot

import (
	"strings"

	"github.com/bashni/bashni/play"
	"github.com/bashni/bashni/texts"
)

// gameOverRoom is what the end-of-game message leaves for what follows
// its record (a module's end note: a group's voters).
const gameOverRoom = 1024

// gameOverText is the end-of-game message: result, reason, the record and
// the game's length. The record is cut to its first moves ("… and N
// more") when the whole would not fit in a message: the PDN button gives
// it all.
func (b *Bot) gameOverText(lang string, g *play.Game, record string) string {
	compose := func(rec string) string {
		return b.texts.T(lang, "game_over_msg", "Result", b.resultText(lang, g), "Reason", b.texts.ReasonName(lang, g.Reason()), "Record", rec) +
			"\n" + b.texts.T(lang, "game_length", "Moves", b.texts.N(lang, "plies", (g.Ply()+1)/2))
	}
	text := compose(record)
	room := texts.MessageLimit - gameOverRoom
	if texts.TelegramLen(text, "") <= room {
		return text
	}
	return compose(b.texts.FitList(lang, fullMoves(record), " ", room-texts.TelegramLen(compose(""), "")))
}

// fullMoves splits a record ("1. c3-d4 f6-e5 2. …") into its full moves.
func fullMoves(record string) []string {
	var moves []string
	for _, tok := range strings.Fields(record) {
		if strings.HasSuffix(tok, ".") || len(moves) == 0 {
			moves = append(moves, tok)
			continue
		}
		moves[len(moves)-1] += " " + tok
	}
	return moves
}
