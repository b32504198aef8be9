package bot

import (
	"strings"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/bashni/bashni/rules"
	"github.com/bashni/bashni/texts"
)

// Every game is played under one ruleset, chosen when it starts: Bashni
// (the default), the other school of Bashni, or Russian draughts. Typed
// commands name it by a word (/challenge russian, /play 3 black mp), the
// AI menu by a row of buttons, inline mode by the query ("@bot russian").
// A card, a challenge and the AI menu say which rules are in force unless
// they are the default, which reads as it always has.

// variantWord reads a word naming a ruleset, in English or Russian; ok is
// false for any other word (it may be a colour or a time control).
func variantWord(w string) (v rules.Variant, ok bool) {
	w = strings.ToLower(strings.TrimSpace(w))
	if w == "" {
		return rules.Bashni, false
	}
	if v, err := rules.ParseVariant(w); err == nil {
		return v, true
	}
	switch w {
	case "башни":
		return rules.Bashni, true
	case "русские", "шашки":
		return rules.Russian, true
	case "пахомов", "михельсен":
		return rules.BashniMP, true
	}
	return rules.Bashni, false
}

// variantCode is a ruleset as one character in callback data.
var variantCode = map[rules.Variant]string{rules.Bashni: "b", rules.BashniMP: "m", rules.Russian: "r"}

// variantOfCode reads variantCode; an unknown or empty code is Bashni.
func variantOfCode(code string) rules.Variant {
	for v, c := range variantCode {
		if c == code {
			return v
		}
	}
	return rules.Bashni
}

// rulesLine is the line a card, a challenge or the AI menu adds for rules
// other than the default: "" for Bashni.
func rulesLine(words *texts.Catalog, lang string, v rules.Variant) string {
	if v == rules.Bashni {
		return ""
	}
	return words.T(lang, "caption_rules", "Rules", words.VariantName(lang, v))
}

// variantRow is the AI menu's row of rulesets for level, the chosen one
// ticked; a tap redraws the colour question under that ruleset.
func variantRow(words *texts.Catalog, lang string, level string, chosen rules.Variant) []tgbotapi.InlineKeyboardButton {
	var row []tgbotapi.InlineKeyboardButton
	for _, v := range rules.Variants {
		label := words.T(lang, "btn_rules_"+v.String())
		if v == chosen {
			label = "✓ " + label
		}
		row = append(row, tgbotapi.NewInlineKeyboardButtonData(label, Callback{Kind: KindVariant, ID: level, Ply: -1, Arg: variantCode[v]}.Encode()))
	}
	return row
}
