package bot

import (
	"context"
	"encoding/json"
)

// A live game's clock starts when the board showing the opponent's move
// has reached the player to move (play.Service.Shown): the outbox tells
// of each lazy card edit Telegram took (CardShown, wired in cmd/bashni's
// Main.Open), and a posted card is shown once recorded (recordCard). The
// service decides whether the sight starts a clock; here only the game,
// the version drawn and the chat are read off what the outbox kept.

// CardShown is the outbox's Shown for the lazy card edits the bot queues:
// the board of the edit's game, drawn at version, reached its chat (the
// inline message, chat 0, is seen by both players).
func (b *Bot) CardShown(ctx context.Context, lazy json.RawMessage, version int64) {
	var lc lazyCard
	if err := json.Unmarshal(lazy, &lc); err != nil || lc.Game == "" || !lc.Live {
		return // not a live game's card: no clock to start
	}
	b.recordBoardShown(ctx, lc.Game, version, lc.Chat)
}

// recordBoardShown tells the service that game id's board at version reached
// chat; a failure only leaves the clock to start at its latest.
func (b *Bot) recordBoardShown(ctx context.Context, id string, version, chat int64) {
	if version <= 0 {
		return
	}
	if err := b.svc.Shown(ctx, id, version, chat); err != nil {
		b.log.Warn("bot: a board shown, its clock not started", "game", id, "err", err)
	}
}
