package mining

import (
	"context"
	"net/url"
	"strconv"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/bashni/bashni/bot"
	bottraining "github.com/bashni/bashni/bot/training"
	"github.com/bashni/bashni/play/mining"
	"github.com/bashni/bashni/puzzle"
	"github.com/bashni/bashni/storage"
	"github.com/bashni/bashni/texts"
)

// perTick bounds the games whose players one tick tells: each is a
// message to each of its people, paced by the outbox, and a miner's run
// over many games should not become a burst.
const perTick = 4

// maxButtons bounds the puzzles a notice offers, a row each.
const maxButtons = 5

type module struct{ feed *mining.Feed }

// Module is the module the bot plugs in (cmd/bashni's Main.Open).
func Module(feed *mining.Feed) bot.Module {
	m := &module{feed: feed}
	return bot.Module{Name: "mining", Tick: m.tick}
}

// tick reads the puzzles found since the last tick and tells their
// players. Each notice is committed under its own receipt, the same in
// every replica, so of two replicas that both see it due one sends it;
// the puzzles are then recorded as told.
func (m *module) tick(ctx context.Context, k *bot.Kit) {
	if err := m.feed.Refresh(ctx); err != nil {
		k.Log().Warn("mining: reading the puzzles found", "err", err)
		return
	}
	for _, n := range m.feed.Due(perTick) {
		k.Committed(ctx, n.Receipt(), func(k *bot.Kit) { tell(ctx, k, n) })
		if err := m.feed.Told(ctx, n); err != nil {
			k.Log().Warn("mining: recording a notice as sent", "game", n.Game, "err", err)
			m.feed.Again(n)
			continue
		}
		k.Log().Info("mining: players told of their puzzles", "game", n.Game, "puzzles", len(n.Puzzles))
	}
}

// tell sends the notice to each of the game's people who can be written
// to, in their language.
func tell(ctx context.Context, k *bot.Kit, n mining.Notice) {
	first := n.Puzzles[0]
	for _, id := range first.Players {
		u, err := k.Service().User(ctx, id)
		if err != nil || !u.CanDM || u.Blocked {
			continue // never started the bot, or blocked it: no DM
		}
		k.Send(bot.Message{ChatID: id, Text: noticeText(k.Texts(), u.Lang, n), Keyboard: noticeKeyboard(k.Texts(), k.Username(), u.Lang, n.Puzzles)}.Reply())
	}
}

// noticeText says the game became puzzles. Names are Telegram's (at most
// 129 characters each), so it stays far below a message's 4,096.
func noticeText(tx *texts.Catalog, lang string, n mining.Notice) string {
	first := n.Puzzles[0]
	return tx.N(lang, "mined_notice", len(n.Puzzles), "White", first.White, "Black", first.Black)
}

// noticeKeyboard has a row for each puzzle: solve it here, or share its
// link to a chat (Telegram's share page picks the chat).
func noticeKeyboard(tx *texts.Catalog, username, lang string, ps []storage.MinedPuzzle) *tgbotapi.InlineKeyboardMarkup {
	var rows [][]tgbotapi.InlineKeyboardButton
	for _, p := range ps[:min(len(ps), maxButtons)] {
		link := PuzzleLink(username, p.ID)
		share := "https://t.me/share/url?url=" + url.QueryEscape(link) + "&text=" + url.QueryEscape(tx.T(lang, "mined_share_text"))
		rows = append(rows, tgbotapi.NewInlineKeyboardRow(
			tgbotapi.NewInlineKeyboardButtonURL(tx.T(lang, "btn_mined_solve", "ID", p.ID, "Rating", rating(p)), link),
			tgbotapi.NewInlineKeyboardButtonURL(tx.T(lang, "btn_mined_share"), share)))
	}
	kb := tgbotapi.NewInlineKeyboardMarkup(rows...)
	return &kb
}

// PuzzleLink opens puzzle id in the bot's private chat.
func PuzzleLink(username, id string) string {
	return "https://t.me/" + username + "?start=" + bottraining.OpenPrefix + id
}

// rating is a stored puzzle's starting rating, from its line.
func rating(p storage.MinedPuzzle) string {
	pz, err := puzzle.ParseLine(p.Line)
	if err != nil {
		return "?"
	}
	return strconv.Itoa(pz.Rating)
}
