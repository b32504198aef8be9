package bot

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"strings"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/bashni/bashni/bot/telegram/outbox"
	"github.com/bashni/bashni/play"
	"github.com/bashni/bashni/texts"
)

// Arena tournaments (/tournament): play/tournament.go decides; here is
// what the group and the players see.
//
// The group sees one card (standings, time left, Join / Leave / Pause),
// edited at most every few seconds (play claims each edit in the stored
// tournament), and the final standings. The games are played in the
// players' private chats, where Telegram paces each chat on its own and
// a group's 20 messages a minute do not slow anyone's board: each player
// gets the game's card in their own chat with the bot (White's is the
// game's card, Black's a second card edited with it, play.Game.Mirrored), a
// new message that buzzes their phone when the game begins, then edited
// after each move; they play by its buttons, by typed moves (plain c3-d4
// in that chat) or on the Mini App board it links.

// Callback kinds of tournaments: ID is the tournament's id, the chat the
// card's.
const (
	KindTourJoin  = "tj" // join (or come back)
	KindTourLeave = "tl" // leave
	KindTourPause = "tp" // pause or resume
	KindTourSetup = "ts" // /tournament alone: Arg = "5+3" (time control chosen) or "5+3 30m" (start)
)

// Choices offered by /tournament alone.
var (
	tourControls  = []string{"1+0", "3+2", "5+3"}
	tourDurations = []string{"15m", "30m", "1h"}
)

// startTourPrefix is the /start payload of a Join deep link:
// "tj<chat>_<tournament>".
const startTourPrefix = "tj"

// cmdTournament: "/tournament 5+3 30m" starts one at once; "/tournament"
// alone asks for the time control and the length with buttons.
func (b *Bot) cmdTournament(ctx context.Context, msg *tgbotapi.Message, lang, args string) error {
	if msg.Chat.IsPrivate() {
		b.text(msg.Chat, b.texts.T(lang, "tour_usage"), msg.MessageID)
		return nil
	}
	fields := strings.Fields(args)
	if len(fields) == 0 {
		if t, err := b.svc.ChatTournament(ctx, msg.Chat.ID); err == nil && t.Status != play.TournamentFinished {
			b.text(msg.Chat, b.texts.Error(lang, play.ErrTournamentRuns, false), msg.MessageID)
			return nil
		}
		kb := tourChoices(tourControls, func(tc string) string { return tc })
		b.send(outMessage{chatID: msg.Chat.ID, text: b.texts.T(lang, "tour_choose_control"), markup: &kb}.reply())
		return nil
	}
	if len(fields) != 2 {
		b.text(msg.Chat, b.texts.T(lang, "tour_usage"), msg.MessageID)
		return nil
	}
	return b.startTournament(ctx, msg.Chat.ID, msg.From, lang, fields[0], fields[1], 0, msg.MessageID)
}

// tourChoices is a row of setup buttons, one a choice.
func tourChoices(choices []string, arg func(string) string) tgbotapi.InlineKeyboardMarkup {
	var row []tgbotapi.InlineKeyboardButton
	for _, c := range choices {
		row = append(row, tgbotapi.NewInlineKeyboardButtonData(c, Callback{Kind: KindTourSetup, Ply: -1, Arg: arg(c)}.Encode()))
	}
	return tgbotapi.NewInlineKeyboardMarkup(row)
}

// startTournament starts a tournament and posts its card: as a new
// message, or in place of the setup question (setupID).
func (b *Bot) startTournament(ctx context.Context, chatID int64, from *tgbotapi.User, lang, control, length string, setupID, replyTo int) error {
	refuse := func(err error) error {
		b.send(outMessage{chatID: chatID, text: b.texts.Error(lang, err, false), replyTo: replyTo}.reply())
		return err
	}
	if !play.IsTimeControl(control) {
		return refuse(play.ErrBadTimeControl)
	}
	d, err := play.ParseTourDuration(length)
	if err != nil {
		return refuse(err)
	}
	t, err := b.svc.StartTournament(ctx, play.TournamentRequest{ChatID: chatID, By: player(from), TimeControl: control, Duration: d, Lang: lang})
	if err != nil {
		return refuse(err)
	}
	text, kb := b.tourCard(t)
	var r outbox.Reply
	if setupID != 0 {
		edit := tgbotapi.NewEditMessageTextAndMarkup(chatID, setupID, text, kb)
		edit.ParseMode = tgbotapi.ModeHTML
		edit.DisableWebPagePreview = true
		r = outbox.Reply{Req: edit, ChatID: chatID, Group: true}
		if err := b.svc.AttachTournament(ctx, chatID, t.ID, setupID); err != nil {
			b.log.Warn("tournament card not recorded", "chat", chatID, "err", err)
		}
	} else {
		r = outMessage{chatID: chatID, text: text, parseMode: tgbotapi.ModeHTML, noPreview: true, markup: &kb}.reply()
		r.Done = func(msg *tgbotapi.Message, err error) {
			if err != nil || msg == nil {
				return
			}
			b.background(func(ctx context.Context) {
				if err := b.svc.AttachTournament(ctx, chatID, t.ID, msg.MessageID); err != nil {
					b.log.Warn("tournament card not recorded", "chat", chatID, "err", err)
				}
			})
		}
	}
	b.send(r)
	return nil
}

// onTourSetup answers the setup buttons of /tournament alone.
func (b *Bot) onTourSetup(ctx context.Context, q *tgbotapi.CallbackQuery, cb Callback, lang string) error {
	if q.Message == nil || q.Message.Chat == nil {
		b.toast(q, b.texts.T(lang, "err_stale"))
		return nil
	}
	chat := q.Message.Chat
	control, length, both := strings.Cut(cb.Arg, " ")
	if !both {
		if !play.IsTimeControl(control) {
			b.toast(q, b.texts.Error(lang, play.ErrBadTimeControl, false))
			return nil
		}
		b.toast(q, "")
		kb := tourChoices(tourDurations, func(d string) string { return control + " " + d })
		edit := tgbotapi.NewEditMessageTextAndMarkup(chat.ID, q.Message.MessageID, b.texts.T(lang, "tour_choose_length", "Control", control), kb)
		b.send(outbox.Reply{Req: edit, ChatID: chat.ID, Group: !chat.IsPrivate()})
		return nil
	}
	if t, err := b.svc.ChatTournament(ctx, chat.ID); err == nil && t.Status != play.TournamentFinished {
		b.toast(q, b.texts.Error(lang, play.ErrTournamentRuns, false))
		return nil
	}
	if _, err := play.ParseTourDuration(length); err != nil || !play.IsTimeControl(control) {
		b.toast(q, b.texts.T(lang, "err_stale"))
		return nil
	}
	b.toast(q, "")
	return b.startTournament(ctx, chat.ID, q.From, lang, control, length, q.Message.MessageID, 0)
}

// onTourTap answers Join, Leave and Pause on the group's card: a toast
// says what happened (Telegram does not count toasts against the group),
// and the card shows it at its next edit.
func (b *Bot) onTourTap(ctx context.Context, q *tgbotapi.CallbackQuery, cb Callback, user *play.User, lang string) error {
	if q.Message == nil || q.Message.Chat == nil {
		b.toast(q, b.texts.T(lang, "err_stale"))
		return nil
	}
	chatID := q.Message.Chat.ID
	var ev *play.TourEvent
	var err error
	var toast string
	switch cb.Kind {
	case KindTourJoin:
		if !user.CanDM || user.Blocked {
			// Their games come in their private chat with the bot, which
			// it may not write to before they start it: the toast's link
			// opens it, and /start with it joins them.
			b.send(outbox.Reply{Req: tgbotapi.CallbackConfig{CallbackQueryID: q.ID, Text: b.texts.T(lang, "tour_start_bot_first"),
				URL: b.tourJoinLink(chatID, cb.ID)}})
			return nil
		}
		ev, err = b.svc.JoinTournament(ctx, chatID, cb.ID, player(q.From), user.Lang)
		toast = b.texts.T(lang, "tour_joined")
	case KindTourLeave:
		ev, err = b.svc.LeaveTournament(ctx, chatID, cb.ID, q.From.ID)
		toast = b.texts.T(lang, "tour_left")
	case KindTourPause:
		var paused bool
		ev, paused, err = b.svc.PauseTournament(ctx, chatID, cb.ID, q.From.ID)
		toast = b.texts.T(lang, "tour_resumed")
		if paused {
			toast = b.texts.T(lang, "tour_paused")
		}
	}
	if err != nil {
		b.toast(q, b.texts.Error(lang, err, false))
		return err
	}
	b.toast(q, toast)
	b.showTourEvent(ctx, ev)
	return nil
}

// tourJoinLink opens the bot's private chat with a /start that joins the
// tournament; "" without the bot's username.
func (b *Bot) tourJoinLink(chatID int64, id string) string {
	if b.cfg.Username == "" {
		return ""
	}
	return "https://t.me/" + b.cfg.Username + "?start=" + startTourPrefix + strconv.FormatInt(chatID, 10) + "_" + id
}

// startJoin handles /start tj<chat>_<id>: a player who had not started the
// bot tapped Join and came here by its link; now the bot may write to them.
func (b *Bot) startJoin(ctx context.Context, msg *tgbotapi.Message, user *play.User, lang, payload string) error {
	chatText, id, ok := strings.Cut(payload, "_")
	chatID, err := strconv.ParseInt(chatText, 10, 64)
	if !ok || err != nil || id == "" {
		b.text(msg.Chat, b.texts.T(lang, "err_stale"), msg.MessageID)
		return nil
	}
	if !b.mayActFor(ctx, chatID, msg.From.ID, lang, func(text string) { b.text(msg.Chat, text, msg.MessageID) }) {
		return nil
	}
	ev, err := b.svc.JoinTournament(ctx, chatID, id, player(msg.From), user.Lang)
	if err != nil {
		b.text(msg.Chat, b.texts.Error(lang, err, false), msg.MessageID)
		return err
	}
	b.text(msg.Chat, b.texts.T(lang, "tour_joined"), msg.MessageID)
	b.showTourEvent(ctx, ev)
	return nil
}

// tournamentTick moves the running tournaments on (the clock calls it).
func (b *Bot) tournamentTick(ctx context.Context) {
	events, err := b.svc.TournamentTick(ctx)
	if err != nil {
		b.log.Warn("tournament tick failed", "err", err)
	}
	for _, ev := range events {
		b.showTourEvent(ctx, ev)
	}
}

// tourGameOver tells Black (whose card is the second one) how the game
// ended, and moves the game's tournament on: its players are paired again
// at once. showGameOver calls it for every game; others are no tournament's.
func (b *Bot) tourGameOver(ctx context.Context, g *play.Game) {
	link := g.TourLink()
	if link == nil {
		return
	}
	if m, ok := g.Mirrored(); ok {
		lang := cardLang(m)
		text := b.texts.T(lang, "game_over_msg",
			"Result", b.texts.ResultLine(lang, m), "Reason", b.texts.ReasonName(lang, m.Reason()), "Record", m.Rules().Record())
		b.send(outMessage{chatID: link.MirrorChat, text: text, replyTo: m.MessageID()}.reply())
	}
	ev, err := b.svc.TournamentGameOver(ctx, g)
	if err != nil {
		// The clock's tick records it instead.
		b.log.Warn("tournament not moved on after a game", "game", g.ID(), "err", err)
		return
	}
	b.showTourEvent(ctx, ev)
}

// showTourEvent shows what a step of a tournament did: new games' cards in
// their players' private chats, the group's card, the final standings.
func (b *Bot) showTourEvent(ctx context.Context, ev *play.TourEvent) {
	if ev == nil {
		return
	}
	for _, g := range ev.Games {
		b.postTourGame(g)
	}
	t := ev.T
	if ev.Card && t.MessageID != 0 {
		text, kb := b.tourCard(t)
		edit := tgbotapi.NewEditMessageTextAndMarkup(t.ChatID, t.MessageID, text, kb)
		edit.ParseMode = tgbotapi.ModeHTML
		edit.DisableWebPagePreview = true
		// Keyed: a newer card replaces one still waiting for the group's
		// pace, and never goes out older than one another replica sent.
		b.send(outbox.Reply{Req: edit, ChatID: t.ChatID, Group: true, Key: "tour:" + strconv.FormatInt(t.ChatID, 10), Version: t.Version})
	}
	b.showNoShows(ev)
	if ev.Final {
		b.showTourFinal(ctx, ev)
	}
}

// showTourFinal posts the final standings, committed with their receipt
// straight to the outbox (not among a handled update's replies, which an
// update applied already drops): of the writer's copy and the clock's
// later ones (play shows them again until recorded shown) the mark lets
// one go out. They are recorded shown by whichever process sends them,
// once Telegram took them (recordSent), never before: a final Telegram
// refused is not recorded shown.
func (b *Bot) showTourFinal(ctx context.Context, ev *play.TourEvent) {
	t := ev.T
	out := b.out
	for c, ok := out.(*collector); ok; c, ok = out.(*collector) {
		out = c.next
	}
	record, err := json.Marshal(sentRecord{TourFinal: &sentTourFinal{Chat: t.ChatID, ID: t.ID}})
	if err != nil {
		b.log.Error("encoding the final standings' record", "chat", t.ChatID, "err", err)
		return
	}
	r := outMessage{chatID: t.ChatID, text: b.tourFinal(t), parseMode: tgbotapi.ModeHTML, noPreview: true, replyTo: t.MessageID}.reply()
	if b.recordsSent {
		r.Record = record
	}
	r.Done = func(msg *tgbotapi.Message, err error) {
		var refused *tgbotapi.Error
		switch {
		case errors.As(err, &refused) && refused.RetryAfter == 0:
			// Telegram said no: owed again under a new receipt.
			b.background(func(ctx context.Context) {
				if err := b.svc.TournamentFinalRefused(ctx, t.ChatID, t.ID); err != nil {
					b.log.Warn("refused final standings not recorded", "chat", t.ChatID, "err", err)
				}
			})
		case err == nil && msg != nil && !b.recordsSent:
			// A sender that records nothing (a test's): recorded here.
			b.background(func(ctx context.Context) {
				if err := b.recordSent(ctx, record, msg, false); err != nil {
					b.log.Warn("final standings not recorded shown", "chat", t.ChatID, "err", err)
				}
			})
		}
	}
	(&Bot{core: b.core, out: out}).committed(ctx, ev.Receipt, func(b *Bot) { b.send(r) })
}

// showNoShows tells each player paused for a game they never moved in why,
// and how to come back, in their private chat (the group's card shows ⏸).
func (b *Bot) showNoShows(ev *play.TourEvent) {
	for _, p := range ev.NoShow {
		b.send(outMessage{chatID: p.UserID, text: b.texts.T(texts.Lang(p.Lang), "tour_no_show")}.reply())
	}
}

// postTourGame posts a tournament game's two cards, those not recorded
// yet (a game posted again by the clock may have one): the game's own in
// White's private chat, the second in Black's.
func (b *Bot) postTourGame(g *play.Game) {
	if g.MessageID() == 0 {
		white := &tgbotapi.Chat{ID: g.White().UserID, Type: "private"}
		if err := b.postCard(white, g, "", nil); err != nil {
			b.log.Warn("tournament card not posted", "game", g.ID(), "err", err)
		}
	}
	m, ok := g.Mirrored()
	if !ok || m.MessageID() != 0 {
		return
	}
	v := cardView{lang: cardLang(m)}
	png, err := b.boardPNG(m, v, "")
	if err != nil {
		b.log.Error("drawing the board", "game", g.ID(), "err", err)
		return
	}
	photo := tgbotapi.NewPhoto(m.ChatID(), tgbotapi.FileBytes{Name: "board.png", Bytes: png})
	photo.Caption = b.caption(m, v)
	photo.ReplyMarkup = b.keyboard(m, v)
	r := chatReplyID(m.ChatID(), photo)
	record := mirrorReplyRecord(g.ID(), g.Ply())
	if b.recordsSent {
		// Recorded by whichever process sends it (recordMirror), as the
		// game's card is (postCard): one that took the card over from a
		// process that died records it, and the clock does not post it
		// again.
		r.Record = record
	} else {
		// A sender that records nothing (a test's): recorded here.
		r.Done = func(msg *tgbotapi.Message, err error) {
			if err != nil || msg == nil {
				return
			}
			b.background(func(ctx context.Context) {
				if err := b.recordSent(ctx, record, msg, false); err != nil {
					b.log.Warn("second card not recorded", "game", g.ID(), "err", err)
				}
			})
		}
	}
	b.send(r)
}

// tappedCard returns g as the card a tap came from shows it: the second
// card of a tournament game (Black's) is edited in its own chat.
func tappedCard(g *play.Game, q *tgbotapi.CallbackQuery) *play.Game {
	if q == nil || q.Message == nil || q.Message.Chat == nil {
		return g
	}
	if m, ok := g.Mirrored(); ok && m.ChatID() == q.Message.Chat.ID && m.MessageID() == q.Message.MessageID {
		return m
	}
	return g
}
