package bot

import "github.com/nicksnyder/go-i18n/v2/i18n"

// The texts of the groups' daily puzzle, kept apart like the course's.
var dailyEN = []*i18n.Message{
	{ID: "daily_caption", Other: "🧩 Puzzle of the day, {{.Date}} · #{{.ID}}\n{{.ToPlay}}\nEveryone has one try: tap your move.\n\n🏆 First to solve: {{.Solvers}}"},
	{ID: "daily_nobody", Other: "nobody yet"},
	{ID: "daily_right", Other: "✅ {{.Move}} wins! You are solver #{{.Rank}} today."},
	{ID: "daily_wrong", Other: "❌ {{.Move}} does not win. One try each a day: a new puzzle comes tomorrow (the day turns at 00:00 UTC)."},
	{ID: "daily_tried", Other: "You have had your one try at today's puzzle. A new one comes tomorrow (the day turns at 00:00 UTC)."},
	{ID: "daily_closed", Other: "This is the puzzle of {{.Date}}, a day that is over: it is closed. Today's puzzle is the newest card."},
	{ID: "daily_groups_only", Other: "The puzzle of the day is for groups: turn it on in /settings there."},
	{ID: "daily_on_toast", Other: "The puzzle of the day is on: one card a day in this chat."},
	{ID: "daily_off_toast", Other: "The puzzle of the day is off in this chat."},
	{ID: "settings_daily", Other: "\nPuzzle of the day in this chat: {{.On}}"},
	{ID: "btn_daily", Other: "🧩 Puzzle of the day: {{.On}}"},
}

var dailyRU = []*i18n.Message{
	{ID: "daily_caption", Other: "🧩 Задача дня, {{.Date}} · #{{.ID}}\n{{.ToPlay}}\nУ каждого одна попытка: нажмите свой ход.\n\n🏆 Первыми решили: {{.Solvers}}"},
	{ID: "daily_nobody", Other: "пока никто"},
	{ID: "daily_right", Other: "✅ {{.Move}} выигрывает! Вы решили задачу {{.Rank}}-м."},
	{ID: "daily_wrong", Other: "❌ {{.Move}} не выигрывает. У каждого одна попытка в день: новая задача завтра (день сменяется в 00:00 UTC)."},
	{ID: "daily_tried", Other: "Вы уже использовали свою попытку сегодня. Новая задача завтра (день сменяется в 00:00 UTC)."},
	{ID: "daily_closed", Other: "Это задача за {{.Date}}, этот день прошёл: задача закрыта. Задача на сегодня — самая новая карточка."},
	{ID: "daily_groups_only", Other: "Задача дня — для групп: включите её там в /settings."},
	{ID: "daily_on_toast", Other: "Задача дня включена: одна карточка в день в этом чате."},
	{ID: "daily_off_toast", Other: "Задача дня в этом чате выключена."},
	{ID: "settings_daily", Other: "\nЗадача дня в этом чате: {{.On}}"},
	{ID: "btn_daily", Other: "🧩 Задача дня: {{.On}}"},
}
