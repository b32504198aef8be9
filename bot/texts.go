package bot

import tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

// The bot's words are package texts' (data files loaded by go-i18n, shared
// with the Mini App); what is here is how the bot uses them.

// Commands is the command menu in lang, for setMyCommands: the game's
// commands, the modules' (Module.Menu), then the account's.
func (b *Bot) Commands(lang string) []tgbotapi.BotCommand {
	names := []string{"play", "challenge", "move", "board", "moves", "draw", "resign"}
	for _, m := range b.mods.list {
		names = append(names, m.Menu...)
	}
	names = append(names, "games", "lang", "settings", "rules", "help")
	out := make([]tgbotapi.BotCommand, 0, len(names))
	for _, c := range names {
		out = append(out, tgbotapi.BotCommand{Command: c, Description: b.texts.T(lang, "cmd_"+c)})
	}
	return out
}
