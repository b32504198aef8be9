package bot

import (
	"context"
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
		return b.texts.T(lang, "game_over_msg", "Result", b.texts.ResultLine(lang, g), "Reason", b.texts.ReasonName(lang, g.Reason()), "Record", rec) +
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

// showGameOver shows the end of a game: the final card with Rematch, PDN and
// Replay buttons, and a result message (a new message, so people see it).
func (b *Bot) showGameOver(ctx context.Context, g *play.Game) {
	lang := cardLang(g)
	b.editCard(g, cardView{lang: lang}, "", nil)
	for uid, ref := range g.Notices() {
		b.deleteNotice(g, uid, ref)
	}
	b.tourGameOver(ctx, g)
	for _, m := range b.mods.list {
		if m.GameEnded != nil {
			m.GameEnded(ctx, b.kit(), g)
		}
	}
	if g.ChatID() == 0 {
		return
	}
	text := b.gameOverText(lang, g, g.Rules().Record())
	if o := b.mods.owned(g); o != nil {
		if o.EndNote != nil {
			text += "\n" + o.EndNote(b.kit(), g, lang, texts.MessageLimit-texts.TelegramLen(text, "")-1)
		}
		b.ownedTurn(ctx, o, g) // the module's last call (a poll's stop still owed)
	}
	b.send(outMessage{chatID: g.ChatID(), text: text, replyTo: g.MessageID()}.reply())
}
