package play

import (
	"context"
	"time"
)

// Fair clocks. In a group Telegram lets the bot edit the card about once
// every 3 s, so a move's board may reach its opponent seconds after the
// move was stored: a clock started at the store would charge the player
// to move Telegram's pace, and a 1+0 game would be lost to it alone. So
// the clock of the player to move starts when the board showing the
// opponent's move reached them: the card's edit taken by Telegram (the
// outbox tells the bot, which tells Shown), or the game's state delivered
// on their Mini App board, whichever comes first.
//
// What a player can win this way is bounded: the move stores TurnStart at
// its own time plus Config.ShowGrace, the latest the clock may start, and
// a sight of the board only brings it forward. A card edit that fails, or
// waits out a 429, never freezes a clock for longer than the grace, and
// the flag's fall (TimeoutAt, which the clock's tick and the boards'
// claims follow) is computed from the same TurnStart, so a loss on time
// keeps the same rule. The fact is the game's TurnStart, written by
// compare-and-set like every change of the game, so it holds across
// replicas and crashes.

// DefaultShowGrace bounds the wait for a board to be shown: Telegram's
// group pace (20 messages a minute, one card edit every 3 s, the longest a
// card edit waits behind the chat's previous message) and 1 s for the
// drawing and the trip to Telegram and back. A private chat's card is
// paced at about 1 s and shown well within it.
const DefaultShowGrace = 4 * time.Second

// Shown records that the board of game id at version (or newer) has
// reached the chat or user to: a group (negative id) or an inline message
// (0), which both players see, or a player's own private chat or board.
// If that board shows the move the player to move now answers, and the
// player is to, and their clock has not started yet, it starts now. Only
// a live game's clock is touched; anything else is ignored, so callers
// report every showing and the service decides (one read, and a write
// once a move at most).
func (s *Service) Shown(ctx context.Context, id string, version, to int64) error {
	rec, err := s.store.Game(ctx, id)
	if isNotFound(err) {
		return nil // a game removed: no clock to start
	}
	if err != nil {
		return err
	}
	g, err := s.replays.load(rec)
	if err != nil {
		return err
	}
	return s.ShownGame(ctx, g, version, to)
}

// ShownGame is Shown for g, the game as the caller has just read it: a
// board that shows nothing new (most) costs no further read.
func (s *Service) ShownGame(ctx context.Context, g *Game, version, to int64) error {
	now := s.now()
	if !startsClock(g, version, to, now) {
		return nil
	}
	_, err := s.update(ctx, g.ID(), func(g *Game) error {
		if !startsClock(g, version, to, now) {
			return errUnchanged // another showing, or a move, came first
		}
		g.rec.TurnStart = now
		flagDeadline(g)
		return nil
	})
	return err
}

// startsClock reports whether a board of g at version, shown to to at now,
// starts the clock of the player to move: a live game, a board showing
// the last move, seen by that player, whose clock was still waiting.
func startsClock(g *Game, version, to int64, now time.Time) bool {
	rec := g.rec
	if !rec.Active() || rec.TimeControl == "" || rec.TurnVersion == 0 || version < rec.TurnVersion {
		return false
	}
	if !now.Before(rec.TurnStart) {
		return false // started: shown before, or the grace is over
	}
	_, p := g.ToMove()
	return to <= 0 || p.Human() && to == p.UserID
}
