package tournament

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/bashni/bashni/bot"
	"github.com/bashni/bashni/play"
	arena "github.com/bashni/bashni/play/tournament"
)

// Callback kinds of tournaments: ID is the tournament's id, the chat the
// card's.
const (
	KindTourJoin  = "tj" // join (or come back)
	KindTourLeave = "tl" // leave
	KindTourPause = "tp" // pause or resume
	KindTourSetup = "ts" // /tournament alone: Arg = "5+3" (time control chosen) or "5+3 30m" (start)
)

// startTourPrefix is the /start payload of a Join deep link:
// "tj<chat>_<tournament>".
const startTourPrefix = "tj"

// module is the tournaments' part of the bot, over their service.
type module struct{ tours *arena.Service }

// Module plugs the groups' tournaments, run by tours, into the bot: the
// card's buttons (a group's own: tapped in the group only), /tournament,
// the Join link's /start, the clock's tick, each game's end, the line on
// an arena game's card, and the final standings' record.
func Module(tours *arena.Service) bot.Module {
	m := &module{tours: tours}
	inGroup := func(h bot.TapFunc) bot.TapRoute { return bot.TapRoute{Scope: bot.InGroup, Handle: h} }
	return bot.Module{
		Name: "tournament",
		Taps: map[string]bot.TapRoute{
			KindTourJoin: inGroup(m.onTap), KindTourLeave: inGroup(m.onTap), KindTourPause: inGroup(m.onTap),
			KindTourSetup: inGroup(m.onSetup),
		},
		Commands:  map[string]bot.CommandFunc{"tournament": m.cmdTournament},
		Starts:    map[string]bot.CommandFunc{startTourPrefix: m.startJoin},
		Tick:      m.tick,
		GameEnded: m.gameEnded,
		// A group's tournament card follows the language it chooses.
		ChatLang: func(ctx context.Context, _ *bot.Kit, chatID int64, lang string) error {
			m.tours.SetLang(ctx, chatID, lang)
			return nil
		},
		CardLine: func(k *bot.Kit, lang string, g *play.Game) string { return wordsOf(k).arenaLine(lang, g) },
		Records:  map[string]bot.RecordFunc{finalRecordKind: m.recordFinal},
	}
}

// tick moves the running tournaments on (every clock tick).
func (m *module) tick(ctx context.Context, k *bot.Kit) {
	events, err := m.tours.Tick(ctx)
	if err != nil {
		k.Log().Warn("tournament tick failed", "err", err)
	}
	for _, ev := range events {
		m.show(ctx, k, ev)
	}
}

// gameEnded moves a finished game's tournament on: its players are paired
// again at once. The core calls it for every game; others are no
// tournament's.
func (m *module) gameEnded(ctx context.Context, k *bot.Kit, g *play.Game) {
	if l := g.Link(); l == nil || l.Feature != "" {
		return // another feature's
	}
	ev, err := m.tours.GameOver(ctx, g)
	if err != nil {
		// The clock's tick records it instead.
		k.Log().Warn("tournament not moved on after a game", "game", g.ID(), "err", err)
		return
	}
	m.show(ctx, k, ev)
}

// finalRecordKind is the kind of a final standings message's record
// (bot.SentRecord), the key it has always had in the journal.
const finalRecordKind = "tour_final"

// finalOf names the tournament whose final standings were sent.
type finalOf struct {
	Chat int64  `json:"c"`
	ID   string `json:"t"`
}

// finalRecord is the record of tournament id's final standings in chat.
func finalRecord(chat int64, id string) json.RawMessage {
	raw, _ := bot.SentRecord(finalRecordKind, finalOf{Chat: chat, ID: id}) // cannot fail: an int and a string
	return raw
}

// recordFinal records the final standings shown, by whichever process sent
// them, once Telegram took them.
func (m *module) recordFinal(ctx context.Context, _ *bot.Kit, raw json.RawMessage, _ *tgbotapi.Message, _ bool) error {
	var f finalOf
	if err := json.Unmarshal(raw, &f); err != nil {
		return fmt.Errorf("bot/tournament: a final's record: %w", err)
	}
	return m.tours.FinalShown(ctx, f.Chat, f.ID)
}

// joinLink opens the bot's private chat with a /start that joins the
// tournament; "" without the bot's username.
func joinLink(username string, chatID int64, id string) string {
	if username == "" {
		return ""
	}
	return "https://t.me/" + username + "?start=" + startTourPrefix + strconv.FormatInt(chatID, 10) + "_" + id
}
