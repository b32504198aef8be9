package bot

import "github.com/nicksnyder/go-i18n/v2/i18n"

// The texts of the engine's help to players (assist.go): hints, takebacks
// and analysis, kept apart so the main catalogues stay as they are.
var assistEN = []*i18n.Message{
	{ID: "btn_analyse", Other: "🔍 Analyse"},
	{ID: "hint_caption", Other: "💡 Hint: {{.Move}}", Description: "followed by hints_left"},
	{ID: "hints_left", One: "{{.N}} hint left in this game", Other: "{{.N}} hints left in this game"},
	{ID: "takeback_done", Other: "↩️ Your last move is taken back ({{.Left}} left). This game is now casual: it does not count in your statistics."},
	{ID: "analysing", Other: "🔍 Analysing the game…"},
	{ID: "analysis_queued", Other: "🔍 Queued for analysis: {{.Place}} in line. The graph comes here when it is done."},
	{ID: "analysis_still_queued", Other: "🔍 The analysis is still queued ({{.Place}} in line): tap Analyse again later."},
	{ID: "err_reviews_full", Other: "The analysis queue is full: try again in a few minutes."},
	{ID: "err_too_many_reviews", Other: "You have as many analyses queued as allowed: wait for them to finish."},
	{ID: "analysis_caption", Other: "🔍 Analysis: {{.White}} vs {{.Black}}, {{.Result}}"},
	{ID: "analysis_none", Other: "No clear mistakes: well played."},
	{ID: "analysis_mistakes", Other: "Biggest mistakes, with what each cost in men (1 = a man):"},
	{ID: "analysis_line", Other: "{{.Number}} {{.Move}}?  −{{.Loss}} men · better {{.Best}}"},
	{ID: "err_not_against_ai", Other: "Hints and takebacks are only for games against the AI."},
	{ID: "err_no_hints_left", Other: "No hints left in this game."},
	{ID: "err_hint_running", Other: "A hint for this game is being worked out: it comes in a moment."},
	{ID: "err_no_takeback", Other: "There is no move of yours to take back yet."},
	{ID: "err_no_takebacks_left", Other: "No takebacks left in this game."},
	{ID: "err_game_not_over", Other: "The analysis comes once the game is over."},
	{ID: "err_no_analysis", Other: "Analysis is not available on this bot."},
	{ID: "cmd_hint", Other: "the engine's suggestion (games against the AI)"},
	{ID: "cmd_takeback", Other: "take your last move back (games against the AI)"},
}

var assistRU = []*i18n.Message{
	{ID: "btn_analyse", Other: "🔍 Анализ"},
	{ID: "hint_caption", Other: "💡 Подсказка: {{.Move}}"},
	{ID: "hints_left", One: "в этой партии осталась {{.N}} подсказка", Few: "в этой партии осталось {{.N}} подсказки", Many: "в этой партии осталось {{.N}} подсказок", Other: "в этой партии осталось {{.N}} подсказки"},
	{ID: "takeback_done", Other: "↩️ Ваш последний ход отменён (осталось отмен: {{.Left}}). Партия теперь товарищеская: в статистику она не идёт."},
	{ID: "analysing", Other: "🔍 Анализирую партию…"},
	{ID: "analysis_queued", Other: "🔍 Партия в очереди на анализ: место {{.Place}}. График придёт сюда, когда анализ закончится."},
	{ID: "analysis_still_queued", Other: "🔍 Анализ всё ещё в очереди (место {{.Place}}): нажмите «Анализ» позже."},
	{ID: "err_reviews_full", Other: "Очередь на анализ заполнена: попробуйте через несколько минут."},
	{ID: "err_too_many_reviews", Other: "У вас в очереди уже столько анализов, сколько можно: дождитесь их."},
	{ID: "analysis_caption", Other: "🔍 Анализ: {{.White}} — {{.Black}}, {{.Result}}"},
	{ID: "analysis_none", Other: "Явных ошибок нет: хорошо сыграно."},
	{ID: "analysis_mistakes", Other: "Главные ошибки и их цена в шашках (1 = простая):"},
	{ID: "analysis_line", Other: "{{.Number}} {{.Move}}?  −{{.Loss}} шашки · лучше {{.Best}}"},
	{ID: "err_not_against_ai", Other: "Подсказки и отмена ходов — только в партиях с ИИ."},
	{ID: "err_no_hints_left", Other: "Подсказок в этой партии больше нет."},
	{ID: "err_hint_running", Other: "Подсказка для этой партии уже ищется: она придёт через мгновение."},
	{ID: "err_no_takeback", Other: "Пока нечего отменять: вашего хода ещё не было."},
	{ID: "err_no_takebacks_left", Other: "Отмен ходов в этой партии больше нет."},
	{ID: "err_game_not_over", Other: "Анализ будет доступен после окончания партии."},
	{ID: "err_no_analysis", Other: "На этом боте анализ недоступен."},
	{ID: "cmd_hint", Other: "подсказка движка (в партиях с ИИ)"},
	{ID: "cmd_takeback", Other: "отменить свой последний ход (в партиях с ИИ)"},
}
