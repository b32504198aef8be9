package training

import (
	"context"
	"strings"

	"github.com/bashni/bashni/bot"
	"github.com/bashni/bashni/play/training"
	"github.com/bashni/bashni/texts"
)

// OpenPrefix starts the payload of a link to one puzzle, /start pz<id>:
// the link a player shares of a puzzle found in their game (bot/mining).
const OpenPrefix = "pz"

// openPuzzle opens the puzzle a link names as the player's puzzle under
// way; one the pool does not have is refused as no puzzle is.
func (m *module) openPuzzle(ctx context.Context, k *bot.Kit, c bot.Command) error {
	if !c.Msg.Chat.IsPrivate() {
		k.Text(c.Msg.Chat, k.Texts().T(c.Lang, "puzzle_private_only", "Link", startLink(k, OpenPrefix+c.Args)), c.Msg.MessageID)
		return nil
	}
	id := strings.TrimSpace(c.Args)
	st, err := m.Puzzles.Open(ctx, c.Msg.From.ID, id)
	if err != nil {
		k.Text(c.Msg.Chat, k.RefusalText(c.Lang, err), 0)
		return err
	}
	return m.showPuzzle(k, c.Msg.Chat, c.Lang, 0, st)
}

// originLine says which game played here a puzzle came from ("" for a
// shipped one), to end its first board's caption.
func (m *module) originLine(k *bot.Kit, lang, id string) string {
	o, ok := m.Puzzles.Origin(id)
	if !ok {
		return ""
	}
	return originText(k.Texts(), lang, o)
}

// originText is the line itself: two of Telegram's names at most, so a
// caption keeps room for it (TestOriginFitsTheCaption).
func originText(tx *texts.Catalog, lang string, o training.Origin) string {
	return "\n" + tx.T(lang, "mined_origin", "White", o.White, "Black", o.Black)
}
