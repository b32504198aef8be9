package bot

import (
	"github.com/bashni/bashni/play"
	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"
)

// keyboard is the card's buttons (gameKeyboard), and "Open board" under
// them when the Mini App is configured.
func (b *Bot) keyboard(g *play.Game, v cardView) tgbotapi.InlineKeyboardMarkup {
	kb := b.gameKeyboard(g, v)
	if row := towersRow(b.texts, v.lang, g); row != nil {
		kb.InlineKeyboard = append(kb.InlineKeyboard, row)
	}
	return b.withBoardLink(g, v.lang, kb)
}

// gameKeyboard is the card's buttons: the picker while the game goes on (none
// while the AI thinks), Rematch/PDN/Replay once it is over.
func (b *Bot) gameKeyboard(g *play.Game, v cardView) tgbotapi.InlineKeyboardMarkup {
	lang := v.lang
	if !g.Active() {
		files := []tgbotapi.InlineKeyboardButton{
			tgbotapi.NewInlineKeyboardButtonData(b.texts.T(lang, "btn_pdn"), Callback{Kind: KindPDN, ID: g.ID(), Ply: -1}.Encode()),
			tgbotapi.NewInlineKeyboardButtonData(b.texts.T(lang, "btn_replay"), Callback{Kind: KindReplay, ID: g.ID(), Ply: -1}.Encode()),
		}
		analyse := tgbotapi.NewInlineKeyboardRow(analyseButton(b.texts, lang, g.ID()))
		switch {
		case g.RematchID() != "", g.Link() != nil: // started, or a feature pairs them: nothing more to offer
			return tgbotapi.NewInlineKeyboardMarkup(files, analyse)
		case g.RematchBy() != 0: // offered: the opponent answers here
			by := g.White()
			if g.Black().UserID == g.RematchBy() {
				by = g.Black()
			}
			return tgbotapi.NewInlineKeyboardMarkup(tgbotapi.NewInlineKeyboardRow(
				tgbotapi.NewInlineKeyboardButtonData(b.texts.T(lang, "btn_rematch_accept", "By", by.Name), Callback{Kind: KindRematchOK, ID: g.ID(), Ply: -1}.Encode()),
				tgbotapi.NewInlineKeyboardButtonData(b.texts.T(lang, "btn_rematch_decline"), Callback{Kind: KindRematchNo, ID: g.ID(), Ply: -1}.Encode()),
			), files, analyse)
		}
		return tgbotapi.NewInlineKeyboardMarkup(append([]tgbotapi.InlineKeyboardButton{
			tgbotapi.NewInlineKeyboardButtonData(b.texts.T(lang, "btn_rematch"), Callback{Kind: KindRematch, ID: g.ID(), Ply: -1}.Encode()),
		}, files...), analyse)
	}
	if v.thinking || g.IsAITurn() {
		return tgbotapi.InlineKeyboardMarkup{InlineKeyboard: [][]tgbotapi.InlineKeyboardButton{}}
	}
	if o := b.mods.owned(g); o != nil && o.Keyboard != nil {
		return o.Keyboard(b.kit(), g, lang)
	}
	kb := tgbotapi.InlineKeyboardMarkup{InlineKeyboard: [][]tgbotapi.InlineKeyboardButton{}}
	if !waitingCard(g) {
		stage := v.stage
		if stage == nil {
			res, _ := resolvePick(g.Rules().Legal(), nil, wholeMovesFor(g.ChatID()))
			stage = res.keyboard
		}
		kb = b.pickerKeyboard(lang, g.ID(), g.Ply(), stage)
	}
	// In a group anyone may look; a private card's offer is answered only
	// by its reader, so the one who offered is not shown the buttons.
	if g.DrawOfferBy() != 0 && g.DrawOfferBy() != g.ChatID() {
		kb.InlineKeyboard = append(kb.InlineKeyboard, tgbotapi.NewInlineKeyboardRow(
			tgbotapi.NewInlineKeyboardButtonData(b.texts.T(lang, "btn_draw_accept"), Callback{Kind: KindDrawYes, ID: g.ID(), Ply: -1}.Encode()),
			tgbotapi.NewInlineKeyboardButtonData(b.texts.T(lang, "btn_draw_decline"), Callback{Kind: KindDrawNo, ID: g.ID(), Ply: -1}.Encode()),
		))
	}
	kb.InlineKeyboard = append(kb.InlineKeyboard, b.cardRows(lang, g)...)
	return kb
}

// waitingCard reports whether g's card is in the private chat of a player
// who is not to move: one of a mirrored game's two cards, each in its
// player's chat. It shows no picker then: the opponent's moves are not
// the reader's to tap, and a tap on one, or one made just as the board
// turns to the reader's move, is refused with a toast instead of a move,
// while a live game's clock runs.
func waitingCard(g *play.Game) bool {
	if g.ChatID() <= 0 {
		return false
	}
	_, p := g.ToMove()
	return p.UserID != g.ChatID()
}
