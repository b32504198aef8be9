package bot

import (
	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/bashni/bashni/texts"
)

// The bot's words are package texts' (data files loaded by go-i18n, shared
// with the Mini App); what is here is how the bot uses them.

// Commands is the command menu in lang, for setMyCommands.
func Commands(t *texts.Catalog, lang string) []tgbotapi.BotCommand {
	var out []tgbotapi.BotCommand
	for _, c := range []string{"play", "challenge", "team", "vote", "tournament", "move", "board", "moves", "draw", "resign", "hint", "takeback", "learn", "puzzle", "games", "stats", "top", "lang", "settings", "rules", "help"} {
		out = append(out, tgbotapi.BotCommand{Command: c, Description: t.T(lang, "cmd_"+c)})
	}
	return out
}
