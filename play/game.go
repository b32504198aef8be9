package play

import (
	"fmt"

	"github.com/bashni/bashni/rules"
	"github.com/bashni/bashni/storage"
)

// Game is a stored game together with its rules state, rebuilt from the
// start position and the moves.
type Game struct {
	*storage.Game
	rules *rules.Game
}

// LoadGame rebuilds the rules state of a stored game record.
func LoadGame(rec *storage.Game) (*Game, error) { return load(rec) }

// load rebuilds the rules state of a stored game.
func load(rec *storage.Game) (*Game, error) {
	v, err := rules.ParseVariant(rec.Variant)
	if err != nil {
		return nil, fmt.Errorf("play: game %s: %w", rec.ID, err)
	}
	start, err := rules.ParsePosition(rec.Start)
	if err != nil {
		return nil, fmt.Errorf("play: game %s: start: %w", rec.ID, err)
	}
	g, err := rules.ReplayGame(start.WithVariant(v), rec.Moves)
	if err != nil {
		return nil, fmt.Errorf("play: game %s: %w", rec.ID, err)
	}
	if err := endAsStored(g, rec); err != nil {
		return nil, fmt.Errorf("play: game %s: %w", rec.ID, err)
	}
	return &Game{Game: rec, rules: g}, nil
}

// endAsStored ends the rebuilt game as the record says it ended, where the
// moves alone do not (a resignation, a draw agreed, a loss on time), so
// that a finished game read back shows its real result and reason.
func endAsStored(g *rules.Game, rec *storage.Game) error {
	if rec.Status != storage.GameFinished || g.Over() {
		return nil
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
		return g.White
	}
	return g.Black
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
	return g.Active() && p.AILevel > 0
}

// Against returns whether the game is against the AI.
func (g *Game) AgainstAI() bool { return g.White.AILevel > 0 || g.Black.AILevel > 0 }
