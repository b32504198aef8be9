package bot

import tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

// analyseButton is the finished card's Analyse button: the review module
// (bot/review, plugged in at wiring) answers its taps.
func (b *Bot) analyseButton(lang, id string) tgbotapi.InlineKeyboardButton {
	return tgbotapi.NewInlineKeyboardButtonData(b.texts.T(lang, "btn_analyse"), Callback{Kind: KindAnalyse, ID: id, Ply: -1}.Encode())
}
