package versus

import (
	"context"
	"html"
	"strconv"
	"strings"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/bashni/bashni/bot"
	"github.com/bashni/bashni/play/versus"
	"github.com/bashni/bashni/rules"
	"github.com/bashni/bashni/storage"
)

// cmdVersus is /versus in a group: with no word, a challenge whose link
// another group follows; "table", "history", "quorum N", "off" and "on"
// (settings.go, season.go).
func (m *module) cmdVersus(ctx context.Context, k *bot.Kit, c bot.Command) error {
	msg, lang := c.Msg, c.Lang
	if msg.Chat.IsPrivate() {
		k.Text(msg.Chat, k.Texts().T(lang, "versus_usage"), msg.MessageID)
		return nil
	}
	word, rest, _ := strings.Cut(strings.TrimSpace(c.Args), " ")
	switch strings.ToLower(word) {
	case "":
		return m.challenge(ctx, k, c)
	case "table", "таблица":
		return m.table(ctx, k, c)
	case "history", "история":
		return m.history(ctx, k, c)
	case "quorum", "кворум":
		return m.quorum(ctx, k, c, rest)
	case "off", "выкл":
		return m.turn(ctx, k, c, true)
	case "on", "вкл":
		return m.turn(ctx, k, c, false)
	case "leave", "уйти":
		return m.leave(ctx, k, c, false)
	case "stay", "остаться":
		return m.leave(ctx, k, c, true)
	}
	k.Text(msg.Chat, k.Texts().T(lang, "versus_usage"), msg.MessageID)
	return nil
}

// side is the group a message came from, as one side of a match.
func side(chat *tgbotapi.Chat, lang string) storage.VersusSide {
	return storage.VersusSide{Chat: chat.ID, Title: chat.Title, Lang: lang}
}

// challenge pairs the group with a waiting group of close rating, or
// posts its challenge: a link that adds the bot to another group (or
// finds it there) with the challenge's code, while the group waits.
func (m *module) challenge(ctx context.Context, k *bot.Kit, c bot.Command) error {
	msg, lang := c.Msg, c.Lang
	var by int64
	if msg.From != nil {
		by = msg.From.ID
	}
	// A group of close rating waiting: paired at once (play/versus's
	// pair.go); its card and this group's are the news.
	g, err := m.svc.Seek(ctx, side(msg.Chat, lang))
	if err != nil {
		k.Text(msg.Chat, k.RefusalText(lang, err), msg.MessageID)
		return err
	}
	if g != nil {
		k.PostCards(g)
		return nil
	}
	ch, err := m.svc.Challenge(ctx, side(msg.Chat, lang), by)
	if err != nil {
		k.Text(msg.Chat, k.RefusalText(lang, err), msg.MessageID)
		return err
	}
	link := "https://t.me/" + k.Username() + "?startgroup=" + startPrefix + ch.Code
	kb := tgbotapi.NewInlineKeyboardMarkup(tgbotapi.NewInlineKeyboardRow(
		tgbotapi.NewInlineKeyboardButtonURL(k.Texts().T(lang, "versus_link_button"), link)))
	k.HTML(msg.Chat, k.Texts().T(lang, "versus_challenge", "Link", html.EscapeString(link)), &kb)
	return nil
}

// onStart is /start vs<code>: the bot was added to a group (or found in
// it) by a challenge's link. The group is offered the challenge; its
// administrators accept it with a button.
func (m *module) onStart(ctx context.Context, k *bot.Kit, c bot.Command) error {
	msg, lang := c.Msg, c.Lang
	if msg.Chat.IsPrivate() {
		k.Text(msg.Chat, k.Texts().T(lang, "versus_start_private"), msg.MessageID)
		return nil
	}
	ch, err := m.svc.Open(ctx, c.Args)
	if err == nil && ch.Game != "" {
		err = versus.ErrTaken
	}
	if err == nil && ch.From.Chat == msg.Chat.ID {
		err = versus.ErrSameChat
	}
	if err != nil {
		k.Text(msg.Chat, k.RefusalText(lang, err), 0)
		return nil
	}
	kb := offerKeyboard(k, lang, ch.Code)
	k.HTML(msg.Chat, k.Texts().T(lang, "versus_offer", "From", html.EscapeString(versus.SideName(ch.From.Title))), &kb)
	return nil
}

// offerKeyboard is the offer's choice of rules: a row a ruleset, a button
// a pace; one tap accepts.
func offerKeyboard(k *bot.Kit, lang, code string) tgbotapi.InlineKeyboardMarkup {
	var rows [][]tgbotapi.InlineKeyboardButton
	for vi, v := range rules.Variants {
		var row []tgbotapi.InlineKeyboardButton
		for pi, p := range versus.Paces {
			label := k.Texts().VariantName(lang, v) + " · " + paceName(k, lang, p)
			row = append(row, tgbotapi.NewInlineKeyboardButtonData(label,
				bot.Callback{Kind: KindAccept, ID: code, Ply: -1, Arg: strconv.Itoa(vi) + "." + strconv.Itoa(pi)}.Encode()))
		}
		rows = append(rows, row)
	}
	return tgbotapi.InlineKeyboardMarkup{InlineKeyboard: rows}
}

// paceName words a pace: hours under a day, else days.
func paceName(k *bot.Kit, lang string, p time.Duration) string {
	if p < 24*time.Hour {
		return k.Texts().N(lang, "versus_pace_hours", int(p/time.Hour))
	}
	return k.Texts().N(lang, "versus_pace_days", int(p/(24*time.Hour)))
}

// onAccept is a tap on the offer: an administrator of the group accepts
// with the rules on the button. The game's cards go to both groups, each
// in its own language.
func (m *module) onAccept(ctx context.Context, k *bot.Kit, t bot.Tap) error {
	q, cb, lang := t.Query, t.Data, t.Lang
	variant, pace, ok := acceptArg(cb.Arg)
	if !ok || q.Message == nil || q.Message.Chat == nil {
		k.Toast(q, k.Texts().T(lang, "err_wrong_place"))
		return nil
	}
	chat := q.Message.Chat
	admin, err := k.IsAdmin(ctx, chat.ID, q.From.ID)
	if err != nil {
		k.Toast(q, k.Texts().T(lang, "err_internal"))
		return err
	}
	if !admin {
		k.Toast(q, k.Texts().T(lang, "versus_admins_only"))
		return nil
	}
	glang := k.GroupLang(ctx, chat.ID, lang)
	g, err := m.svc.Accept(ctx, cb.ID, side(chat, glang), variant, pace)
	if err != nil {
		k.Toast(q, k.RefusalText(lang, err))
		return err
	}
	k.Toast(q, "")
	k.EditText(q.Message, k.Texts().T(glang, "versus_accepted", "White", html.EscapeString(g.White().Name),
		"Black", html.EscapeString(g.Black().Name), "Rules", k.Texts().VariantName(glang, variant), "Pace", paceName(k, glang, pace)), nil)
	k.PostCards(g)
	return nil
}

// acceptArg reads an offer button's "ruleset.pace".
func acceptArg(arg string) (rules.Variant, time.Duration, bool) {
	a, b, ok := strings.Cut(arg, ".")
	vi, err1 := strconv.Atoi(a)
	pi, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || vi < 0 || vi >= len(rules.Variants) || pi < 0 || pi >= len(versus.Paces) {
		return 0, 0, false
	}
	return rules.Variants[vi], versus.Paces[pi], true
}
