package bot

import "github.com/nicksnyder/go-i18n/v2/i18n"

// The texts of playing together (issue 30): the rulesets a game may choose,
// and the chat's games against the AI by vote, kept apart so the main
// catalogues stay as they are.
var togetherEN = []*i18n.Message{
	{ID: "rules_name_bashni", Other: "Bashni"},
	{ID: "rules_name_bashni-mp", Other: "Bashni, the other school (Michaelsen–Pakhomov: each piece taken at once)"},
	{ID: "rules_name_russian", Other: "Russian draughts"},
	{ID: "btn_rules_bashni", Other: "Bashni"},
	{ID: "btn_rules_bashni-mp", Other: "Other school"},
	{ID: "btn_rules_russian", Other: "Russian draughts"},
	{ID: "caption_rules", Other: "📜 Rules: {{.Rules}}"},
	{ID: "choose_rules", Other: "Rules: tap to play another ruleset."},
}

var togetherRU = []*i18n.Message{
	{ID: "rules_name_bashni", Other: "Башни"},
	{ID: "rules_name_bashni-mp", Other: "Башни, другая школа (Михельсена–Пахомова: каждая шашка берётся сразу)"},
	{ID: "rules_name_russian", Other: "Русские шашки"},
	{ID: "btn_rules_bashni", Other: "Башни"},
	{ID: "btn_rules_bashni-mp", Other: "Другая школа"},
	{ID: "btn_rules_russian", Other: "Русские шашки"},
	{ID: "caption_rules", Other: "📜 Правила: {{.Rules}}"},
	{ID: "choose_rules", Other: "Правила: нажмите, чтобы выбрать другие."},
}
