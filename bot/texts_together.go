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
	{ID: "team_usage", Other: "/team N in a group: the chat plays the AI of level N (1 to {{.Max}}) by vote. Add black to let the AI open, russian or mp for other rules, 30s for a shorter vote (a minute by default)."},
	{ID: "team_vote_open", Other: "🗳 The chat's move: tap the move you want, one vote each (or /vote c3-d4). The vote closes {{.Seconds}} s after the first vote, or once everyone who voted last time has voted."},
	{ID: "team_last_vote", Other: "🗳 The chat played {{.Move}}: {{.Votes}} of {{.Of}} votes ({{.Names}})"},
	{ID: "team_voted", Other: "🗳 Your vote: {{.Move}} ({{.Votes}} of {{.Ballots}} votes so far)"},
	{ID: "team_vote_closed_now", Other: "🗳 Everyone has voted: {{.Move}} is played."},
	{ID: "team_voters", Other: "🗳 Who voted for the moves played: {{.List}}"},
	{ID: "team_voter", Other: "{{.Name}} {{.Chosen}} of {{.Votes}}"},
	{ID: "vote_usage", Other: "Vote with a move: /vote c3-d4"},
	{ID: "cmd_team", Other: "the chat plays the AI by vote (groups)"},
	{ID: "cmd_vote", Other: "vote for a move in the chat's game"},
	{ID: "err_not_team_game", Other: "There is no game here that the chat plays by vote: start one with /team."},
	{ID: "err_vote_closed", Other: "This vote has closed: vote on the board as it is now."},
	{ID: "err_already_voted", Other: "You have voted on this move already."},
	{ID: "err_bad_window", Other: "A vote lasts from 10 seconds to an hour."},
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
	{ID: "team_usage", Other: "/team N в группе: чат играет с ИИ уровня N (от 1 до {{.Max}}) голосованием. Добавьте black, чтобы ИИ начинал, russian или mp для других правил, 30s для короткого голосования (по умолчанию минута)."},
	{ID: "team_vote_open", Other: "🗳 Ход чата: нажмите ход, за который голосуете, один голос на человека (или /vote c3-d4). Голосование закрывается через {{.Seconds}} с после первого голоса или когда проголосуют все, кто голосовал в прошлый раз."},
	{ID: "team_last_vote", Other: "🗳 Чат сыграл {{.Move}}: {{.Votes}} из {{.Of}} голосов ({{.Names}})"},
	{ID: "team_voted", Other: "🗳 Ваш голос: {{.Move}} (за него {{.Votes}} из {{.Ballots}})"},
	{ID: "team_vote_closed_now", Other: "🗳 Все проголосовали: сыгран ход {{.Move}}."},
	{ID: "team_voters", Other: "🗳 Кто голосовал за сыгранные ходы: {{.List}}"},
	{ID: "team_voter", Other: "{{.Name}} {{.Chosen}} из {{.Votes}}"},
	{ID: "vote_usage", Other: "Голосуйте ходом: /vote c3-d4"},
	{ID: "cmd_team", Other: "чат играет с ИИ голосованием (в группах)"},
	{ID: "cmd_vote", Other: "голос за ход в партии чата"},
	{ID: "err_not_team_game", Other: "Здесь нет партии, которую чат играет голосованием: начните её командой /team."},
	{ID: "err_vote_closed", Other: "Это голосование закрыто: голосуйте на доске как она есть сейчас."},
	{ID: "err_already_voted", Other: "Вы уже проголосовали за этот ход."},
	{ID: "err_bad_window", Other: "Голосование длится от 10 секунд до часа."},
}
