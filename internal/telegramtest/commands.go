package telegramtest

import (
	"encoding/json"
	"regexp"
	"slices"
	"strconv"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"
)

// Commands returns the bot's command list for a scope (the zero scope is
// the default one) and language code, as setMyCommands last set it.
func (s *Server) Commands(scope tgbotapi.BotCommandScope, lang string) []tgbotapi.BotCommand {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.commands[commandsKey(scope, lang)])
}

func commandsKey(scope tgbotapi.BotCommandScope, lang string) string {
	if scope.Type == "" {
		scope.Type = "default"
	}
	return scope.Type + "/" + strconv.FormatInt(scope.ChatID, 10) + "/" + strconv.FormatInt(scope.UserID, 10) + "/" + lang
}

// callScope reads the scope and language_code of a *MyCommands call.
func callScope(c *Call) (string, *Failure) {
	var scope tgbotapi.BotCommandScope
	if raw := c.Params["scope"]; raw != "" {
		if err := json.Unmarshal([]byte(raw), &scope); err != nil {
			return "", badRequest("can't parse BotCommandScope JSON object")
		}
	}
	return commandsKey(scope, c.Params["language_code"]), nil
}

var commandNameRE = regexp.MustCompile(`^[a-z0-9_]{1,32}$`)

func (s *Server) setMyCommands(c *Call) (any, *Failure) {
	key, f := callScope(c)
	if f != nil {
		return nil, f
	}
	var cmds []tgbotapi.BotCommand
	if err := json.Unmarshal([]byte(c.Params["commands"]), &cmds); err != nil {
		return nil, badRequest("can't parse commands JSON array")
	}
	if len(cmds) > 100 {
		return nil, badRequest("too many commands")
	}
	for _, cmd := range cmds {
		if !commandNameRE.MatchString(cmd.Command) {
			return nil, badRequest("BOT_COMMAND_INVALID")
		}
		if n := len([]rune(cmd.Description)); n < 1 || n > 256 {
			return nil, badRequest("command description must be 1-256 characters long")
		}
	}
	s.commands[key] = cmds
	return true, nil
}

func (s *Server) deleteMyCommands(c *Call) (any, *Failure) {
	key, f := callScope(c)
	if f != nil {
		return nil, f
	}
	delete(s.commands, key)
	return true, nil
}

func (s *Server) getMyCommands(c *Call) (any, *Failure) {
	key, f := callScope(c)
	if f != nil {
		return nil, f
	}
	return append([]tgbotapi.BotCommand{}, s.commands[key]...), nil
}
