package bot

import "github.com/nicksnyder/go-i18n/v2/i18n"

// The texts of the live board (package miniapp) and of its button on the
// cards. They join the bot's catalogue, so the page speaks as the bot does.
func init() {
	messagesEN = append(messagesEN, miniappEN...)
	messagesRU = append(messagesRU, miniappRU...)
}

var miniappEN = []*i18n.Message{
	{ID: "btn_open_board", Other: "🔲 Open board"},
	{ID: "app_to_move", Other: "Move {{.Move}}: {{.Side}} to move"},
	{ID: "app_your_move", Other: "Your move"},
	{ID: "app_watching", Other: "You are watching"},
	{ID: "app_moves", Other: "Moves"},
	{ID: "app_offer_draw", Other: "Offer a draw"},
	{ID: "app_draw_offered", Other: "Draw offered"},
	{ID: "app_draw_offer_from", Other: "{{.Player}} offers a draw"},
	{ID: "app_resign", Other: "Resign"},
	{ID: "app_resign_confirm", Other: "Resign this game?"},
	{ID: "app_choose_path", Other: "Several captures end there: tap the square the capture passes through."},
	{ID: "app_tower", Other: "Tower on {{.Square}}, top to bottom"},
	{ID: "app_man", Other: "man"},
	{ID: "app_king", Other: "king"},
	{ID: "app_close", Other: "Close"},
	{ID: "app_reconnecting", Other: "Reconnecting…"},
	{ID: "app_no_game", Other: "Open the board from a game's card in the chat."},
	{ID: "app_unauthorized", Other: "Telegram did not vouch for this page: open it again from the chat."},
	{ID: "app_hold_hint", Other: "Tap a tower to move it; hold it to see its pieces."},
	{ID: "app_wait_hint", Other: "Your opponent is to move. Hold a tower to see its pieces."},
	{ID: "challenge_time_control", Other: "⏱ Live game, {{.Control}} (minutes each + seconds per move)"},
	{ID: "caption_clock", Other: "⏱ White {{.White}} · Black {{.Black}} ({{.Control}})"},
	{ID: "err_time_up", Other: "Your time is up."},
	{ID: "err_bad_time_control", Other: "A time control is minutes+seconds, e.g. 5+3."},
	{ID: "app_analyse", Other: "Analyse the game"},
	{ID: "app_analysing", Other: "Analysing… (up to half a minute)"},
	{ID: "app_start_position", Other: "Start position"},
	{ID: "app_step_first", Other: "To the start"},
	{ID: "app_step_back", Other: "Back one move"},
	{ID: "app_step_forward", Other: "Forward one move"},
	{ID: "app_step_last", Other: "To the end"},
	{ID: "app_eval_white_wins", Other: "White wins"},
	{ID: "app_eval_black_wins", Other: "Black wins"},
	{ID: "app_eval_unit", Other: "men"},
}

var miniappRU = []*i18n.Message{
	{ID: "btn_open_board", Other: "🔲 Открыть доску"},
	{ID: "app_to_move", Other: "Ход {{.Move}}: ходят {{.Side}}"},
	{ID: "app_your_move", Other: "Ваш ход"},
	{ID: "app_watching", Other: "Вы наблюдаете"},
	{ID: "app_moves", Other: "Ходы"},
	{ID: "app_offer_draw", Other: "Предложить ничью"},
	{ID: "app_draw_offered", Other: "Ничья предложена"},
	{ID: "app_draw_offer_from", Other: "{{.Player}} предлагает ничью"},
	{ID: "app_resign", Other: "Сдаться"},
	{ID: "app_resign_confirm", Other: "Сдать эту партию?"},
	{ID: "app_choose_path", Other: "Сюда ведут несколько взятий: нажмите поле, через которое идёт взятие."},
	{ID: "app_tower", Other: "Башня на {{.Square}}, сверху вниз"},
	{ID: "app_man", Other: "шашка"},
	{ID: "app_king", Other: "дамка"},
	{ID: "app_close", Other: "Закрыть"},
	{ID: "app_reconnecting", Other: "Переподключение…"},
	{ID: "app_no_game", Other: "Откройте доску с карточки партии в чате."},
	{ID: "app_unauthorized", Other: "Telegram не подтвердил эту страницу: откройте её снова из чата."},
	{ID: "app_hold_hint", Other: "Нажмите башню, чтобы пойти; удерживайте, чтобы увидеть её шашки."},
	{ID: "app_wait_hint", Other: "Ход соперника. Удерживайте башню, чтобы увидеть её шашки."},
	{ID: "challenge_time_control", Other: "⏱ Живая партия, {{.Control}} (минут каждому + секунд за ход)"},
	{ID: "caption_clock", Other: "⏱ Белые {{.White}} · Чёрные {{.Black}} ({{.Control}})"},
	{ID: "err_time_up", Other: "Ваше время истекло."},
	{ID: "err_bad_time_control", Other: "Контроль времени пишется как минуты+секунды, например 5+3."},
	{ID: "app_analyse", Other: "Анализ партии"},
	{ID: "app_analysing", Other: "Анализирую… (до полуминуты)"},
	{ID: "app_start_position", Other: "Начальная позиция"},
	{ID: "app_step_first", Other: "В начало"},
	{ID: "app_step_back", Other: "Ход назад"},
	{ID: "app_step_forward", Other: "Ход вперёд"},
	{ID: "app_step_last", Other: "В конец"},
	{ID: "app_eval_white_wins", Other: "Белые выигрывают"},
	{ID: "app_eval_black_wins", Other: "Чёрные выигрывают"},
	{ID: "app_eval_unit", Other: "шашки"},
}
