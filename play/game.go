package play

import (
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/bashni/bashni/rules"
	"github.com/bashni/bashni/storage"
)

// Game is a game as the service gives it out: the stored record together
// with its rules state, rebuilt from the start position and the moves. The
// record is play's own; callers read it through the methods below, and
// never change it.
type Game struct {
	rec   *storage.GameRecord
	rules *rules.Game
	// owes is the event a decide function names for its write when the
	// record's change does not tell it (eventOf): not stored as such.
	owes storage.GameEvent
	// mirror marks a game's second card (Mirrored, mirror.go): its
	// record names Black's chat, so it is never written.
	mirror bool
}

// LoadGame rebuilds the rules state of a stored game record.
func LoadGame(rec *storage.GameRecord) (*Game, error) { return (*replays)(nil).load(rec) }

// load rebuilds the rules state of a stored game, from the state kept of
// its earlier moves where r has one.
func (r *replays) load(rec *storage.GameRecord) (*Game, error) {
	v, err := rules.ParseVariant(rec.Variant)
	if err != nil {
		return nil, fmt.Errorf("play: game %s: %w", rec.ID, err)
	}
	start, err := rules.ParsePosition(rec.Start)
	if err != nil {
		return nil, fmt.Errorf("play: game %s: start: %w", rec.ID, err)
	}
	g, err := r.rebuild(rec, start.WithVariant(v))
	if err != nil {
		return nil, fmt.Errorf("play: game %s: %w", rec.ID, err)
	}
	if err := endAsStored(g, rec); err != nil {
		return nil, fmt.Errorf("play: game %s: %w", rec.ID, err)
	}
	return &Game{rec: rec, rules: g}, nil
}

// endAsStored ends the rebuilt game as the record says it ended, where the
// moves alone do not (a resignation, a draw agreed, a loss on time), so
// that a finished game read back shows its real result and reason.
func endAsStored(g *rules.Game, rec *storage.GameRecord) error {
	if rec.Status != storage.GameFinished || g.Over() {
		return nil
	}
	if rec.Reason == rules.Aborted.String() {
		return g.Abort()
	}
	switch rec.Result {
	case rules.Draw.String():
		return g.AgreeDraw()
	case rules.WhiteWins.String(), rules.BlackWins.String():
		loser := rules.Black
		if rec.Result == rules.BlackWins.String() {
			loser = rules.White
		}
		if rec.Reason == rules.Timeout.String() {
			return g.LoseOnTime(loser)
		}
		return g.Resign(loser)
	}
	return nil // no result recorded: nothing to apply
}

// Rules returns the game's rules state. Callers must not change it.
func (g *Game) Rules() *rules.Game { return g.rules }

// Position returns the current position.
func (g *Game) Position() rules.Position { return g.rules.Position() }

// Ply is the number of moves played: the board's version.
func (g *Game) Ply() int { return g.rules.Ply() }

// MoveNumber is the number of the current full move (1 at the start).
func (g *Game) MoveNumber() int {
	start := g.rules.StartPosition()
	extra := 0
	if start.SideToMove() == rules.Black {
		extra = 1
	}
	return (g.Ply()+extra)/2 + 1
}

// Player returns the player of colour c.
func (g *Game) Player(c rules.Color) storage.Player {
	if c == rules.White {
		return g.rec.White
	}
	return g.rec.Black
}

// ToMove returns the colour and player whose turn it is.
func (g *Game) ToMove() (rules.Color, storage.Player) {
	p := g.Position()
	c := p.SideToMove()
	return c, g.Player(c)
}

// ColorOf returns the colour user plays; ok is false if user is not a
// player. In a game against oneself (allowed in a private chat) it is the
// colour to move.
func (g *Game) ColorOf(userID int64) (c rules.Color, ok bool) {
	toMove, p := g.ToMove()
	if p.Human() && p.UserID == userID {
		return toMove, true
	}
	other := g.Player(toMove.Opponent())
	if other.Human() && other.UserID == userID {
		return toMove.Opponent(), true
	}
	return 0, false
}

// MayMove says whether user may move now on the board of version ply
// (AnyPly for a typed move, which names its squares and is checked against
// the board as it is): nil, or ErrGameOver, ErrStale (a tap on an old
// board, whoever made it: the board they see is out of date),
// ErrNotAPlayer or ErrNotYourTurn. It is the one place this is decided: the bot asks it before
// showing a picked tower, and Move asks it again of the game as stored
// when it writes.
func (g *Game) MayMove(userID int64, ply int) error {
	if !g.Active() {
		return ErrGameOver
	}
	if ply != AnyPly && ply != g.Ply() {
		return ErrStale
	}
	c, ok := g.ColorOf(userID)
	if !ok {
		return ErrNotAPlayer
	}
	if toMove, _ := g.ToMove(); c != toMove {
		return ErrNotYourTurn
	}
	return nil
}

// LastMove returns the last move played.
func (g *Game) LastMove() (rules.Move, bool) {
	moves := g.rules.Moves()
	if len(moves) == 0 {
		return rules.Move{}, false
	}
	return moves[len(moves)-1], true
}

// IsAITurn reports whether the game goes on and the AI is to move.
func (g *Game) IsAITurn() bool {
	_, p := g.ToMove()
	return g.rec.Active() && p.AILevel > 0
}

// Against returns whether the game is against the AI.
func (g *Game) AgainstAI() bool { return g.rec.White.AILevel > 0 || g.rec.Black.AILevel > 0 }

// The record as the bot and the Mini App read it.

// ID is the game's id.
func (g *Game) ID() string { return g.rec.ID }

// White and Black are the players.
func (g *Game) White() storage.Player { return g.rec.White }
func (g *Game) Black() storage.Player { return g.rec.Black }

// Active reports whether the game goes on.
func (g *Game) Active() bool { return g.rec.Active() }

// Status is whether the game goes on or has finished.
func (g *Game) Status() storage.GameStatus { return g.rec.Status }

// Result is "1-0", "0-1", "1/2-1/2", or "" while the game goes on; Reason
// says why it ended ("resignation", "time", ...).
func (g *Game) Result() string { return g.rec.Result }
func (g *Game) Reason() string { return g.rec.Reason }

// Moves are the moves played, in notation (a copy).
func (g *Game) Moves() []string { return slices.Clone(g.rec.Moves) }

// Version is the record's version, which every write moves on.
func (g *Game) Version() int64 { return g.rec.Version }

// CreatedAt is when the game began.
func (g *Game) CreatedAt() time.Time { return g.rec.CreatedAt }

// ChatID, MessageID and InlineMessageID say where the game's live card is:
// a message in a chat, or an inline message.
func (g *Game) ChatID() int64           { return g.rec.ChatID }
func (g *Game) MessageID() int          { return g.rec.MessageID }
func (g *Game) InlineMessageID() string { return g.rec.InlineMessageID }

// InlineText reports whether the game's inline message is text (a
// challenge offered as text): its card's edits are made as text, since
// Telegram will not edit it into a photo.
func (g *Game) InlineText() bool { return g.rec.InlineMessageID != "" && g.rec.InlineText }

// ShowCardAt points this copy of the game at a card the store does not
// know of yet (one just posted, or the message a tap came from), for
// drawing on it. It is never written: the store learns of a card through
// Service.SetCard.
func (g *Game) ShowCardAt(chatID int64, messageID int, inlineID string) {
	g.rec.ChatID, g.rec.MessageID, g.rec.InlineMessageID = chatID, messageID, inlineID
}

// DrawOfferBy is the user who offers a draw, 0 for none.
func (g *Game) DrawOfferBy() int64 { return g.rec.DrawOfferBy }

// DrawDeclinedBy is the user who declined the last draw offer, until the
// next move or offer; 0 for none.
func (g *Game) DrawDeclinedBy() int64 { return g.rec.DrawDeclinedBy }

// TimeoutAt is when the player to move loses on time (zero for never).
func (g *Game) TimeoutAt() time.Time { return g.rec.TimeoutAt }

// Notices maps a user to the message id of their live turn notice (a copy).
func (g *Game) Notices() map[int64]int { return maps.Clone(g.rec.Notices) }

// Owed lists the events of the game's latest changes not known to be shown
// (play/events.go).
func (g *Game) Owed() []storage.GameEvent { return slices.Clone(g.rec.Owed) }

// RematchBy is the user who offers a rematch, 0 for none; RematchID the
// rematch once it has started.
func (g *Game) RematchBy() int64  { return g.rec.RematchBy }
func (g *Game) RematchID() string { return g.rec.RematchID }

// HideRematchOffer drops the rematch offer from this copy of the game, for
// drawing a card whose offer has expired. It is never written.
func (g *Game) HideRematchOffer() { g.rec.RematchBy = 0 }

// Lang is the language the game's group card is written in.
func (g *Game) Lang() string { return g.rec.Lang }

// Takebacks counts the moves taken back.
func (g *Game) Takebacks() int { return g.rec.Takebacks }

// TimeControl is the live-play control ("5+3"), empty for correspondence.
func (g *Game) TimeControl() string { return g.rec.TimeControl }

// WhiteLeft is the time White has left when their turn begins.
func (g *Game) WhiteLeft() time.Duration { return g.rec.WhiteLeft }

// Spent is the time spent on each move (a copy).
func (g *Game) Spent() []time.Duration { return slices.Clone(g.rec.Spent) }

// Clone returns a copy of g that shares nothing it could change.
func (g *Game) Clone() *Game {
	return &Game{rec: g.rec.Clone(), rules: g.rules.Clone(), mirror: g.mirror}
}
