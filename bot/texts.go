package bot

import (
	"github.com/bashni/bashni/rules"
	"strings"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/nicksnyder/go-i18n/v2/i18n"
	"golang.org/x/text/language"
)

// Texts holds every text the bot shows, in English and Russian, with the
// plural rules of each language (Russian has one/few/many: 1 ход, 2 хода,
// 5 ходов, 21 ход).
type Texts struct {
	bundle *i18n.Bundle
	locs   map[string]*i18n.Localizer
}

// Languages the bot speaks, by Telegram language_code prefix.
var Languages = []string{"en", "ru"}

// NewTexts loads the catalogues.
func NewTexts() *Texts {
	b := i18n.NewBundle(language.English)
	b.AddMessages(language.English, messagesEN...)
	b.AddMessages(language.Russian, messagesRU...)
	b.AddMessages(language.English, assistEN...)
	b.AddMessages(language.Russian, assistRU...)
	b.AddMessages(language.English, trainEN...)
	b.AddMessages(language.Russian, trainRU...)
	b.AddMessages(language.English, dailyEN...)
	b.AddMessages(language.Russian, dailyRU...)
	b.AddMessages(language.English, togetherEN...)
	b.AddMessages(language.Russian, togetherRU...)
	t := &Texts{bundle: b, locs: map[string]*i18n.Localizer{}}
	for _, l := range Languages {
		t.locs[l] = i18n.NewLocalizer(b, l)
	}
	return t
}

// Lang maps a Telegram language_code ("ru", "ru-RU", "uk", "") to one the
// bot speaks. Speakers of languages close to Russian get Russian.
func Lang(code string) string {
	code = strings.ToLower(code)
	for _, l := range []string{"ru", "uk", "be", "kk"} {
		if strings.HasPrefix(code, l) {
			return "ru"
		}
	}
	return "en"
}

// T returns text id in lang, filled from data (pairs of name, value).
func (t *Texts) T(lang, id string, data ...any) string {
	return t.localize(lang, id, nil, data)
}

// N returns text id in lang in the plural form for count n; the template
// sees the count as .N.
func (t *Texts) N(lang, id string, n int, data ...any) string {
	return t.localize(lang, id, n, append(data, "N", n))
}

func (t *Texts) localize(lang, id string, count any, data []any) string {
	loc, ok := t.locs[lang]
	if !ok {
		loc = t.locs["en"]
	}
	td := map[string]any{}
	for i := 0; i+1 < len(data); i += 2 {
		if k, ok := data[i].(string); ok {
			td[k] = data[i+1]
		}
	}
	s, err := loc.Localize(&i18n.LocalizeConfig{MessageID: id, TemplateData: td, PluralCount: count})
	if err != nil {
		// A missing text is a bug; show its id rather than nothing.
		return id
	}
	return s
}

// Commands is the command menu in lang, for setMyCommands.
func Commands(t *Texts, lang string) []tgbotapi.BotCommand {
	var out []tgbotapi.BotCommand
	for _, c := range []string{"play", "challenge", "team", "vote", "move", "board", "moves", "draw", "resign", "hint", "takeback", "learn", "puzzle", "games", "stats", "top", "lang", "settings", "rules", "help"} {
		out = append(out, tgbotapi.BotCommand{Command: c, Description: t.T(lang, "cmd_"+c)})
	}
	return out
}

// sideName is the localized name of a colour.
func (b *Bot) sideName(lang string, c rules.Color) string {
	if c == rules.White {
		return b.texts.T(lang, "side_white")
	}
	return b.texts.T(lang, "side_black")
}
