package bot

import (
	"github.com/bashni/bashni/texts"
	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"
)

// analyseButton is the finished card's Analyse button: the review module
// (bot/review, plugged in at wiring) answers its taps.
func analyseButton(words *texts.Catalog, lang, id string) tgbotapi.InlineKeyboardButton {
	return tgbotapi.NewInlineKeyboardButtonData(words.T(lang, "btn_analyse"), Callback{Kind: KindAnalyse, ID: id, Ply: -1}.Encode())
}
