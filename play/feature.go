package play

import (
	"encoding/json"
	"fmt"
)

// Seams for features that act on a game between people as it is played
// (a conditional move answered at once, a takeback both players agreed
// to): a part of the record of their own, a hook within a player's move's
// write, and the changes they may make within ChangeGame's decide or that
// hook. The core stores the feature's part with the game, so that it
// changes in the game's own compare-and-set, and reads none of it.

// A MoveHook runs within the write of a player's move (Move, MoveFrom,
// the Mini App's), after the move is on the board and before the write:
// what it changes, a move it plays for the side now to move (PlayFor)
// included, is stored in that one compare-and-set with the move and the
// event it owes, so that a crash between the move and what follows it
// loses neither. It sets o.Move to the last move it played. An error
// refuses the move; a hook that meets a game it has nothing to do with
// returns nil.
type MoveHook func(g *Game, o *Outcome) error

// AfterMove adds a hook to every player's move. Call it at wiring.
func (s *Service) AfterMove(h MoveHook) { s.moveHooks = append(s.moveHooks, h) }

// moved runs the move hooks on g, just moved in o.
func (s *Service) moved(g *Game, o *Outcome) error {
	for _, h := range s.moveHooks {
		if err := h(g, o); err != nil {
			return err
		}
	}
	return nil
}

// Feature reads the feature's part of the record, stored under name, into
// v; ok is false when there is none.
func (g *Game) Feature(name string, v any) (ok bool, err error) {
	raw, ok := g.rec.Features[name]
	if !ok {
		return false, nil
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return false, fmt.Errorf("play: game %s: feature %s: %w", g.rec.ID, name, err)
	}
	return true, nil
}

// SetFeature stores v as the feature's part of the record under name (nil
// removes it), within ChangeGame's decide or a MoveHook.
func (g *Game) SetFeature(name string, v any) error {
	if v == nil {
		delete(g.rec.Features, name)
		return nil
	}
	raw, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("play: game %s: feature %s: %w", g.rec.ID, name, err)
	}
	if g.rec.Features == nil {
		g.rec.Features = map[string]json.RawMessage{}
	}
	g.rec.Features[name] = raw
	return nil
}

// TakeBackFor undoes the last plies of g within ChangeGame's decide: a
// takeback the players agreed to. As against the AI (Takeback), a rated
// game becomes casual: it counts in no statistics or ratings; a casual
// game goes on counting as it did. A pending draw offer lapses.
func (s *Service) TakeBackFor(g *Game, plies int) error {
	if !g.rec.Active() {
		return ErrGameOver
	}
	if plies < 1 || plies > g.Ply() {
		return ErrNoTakeback
	}
	for range plies {
		if err := g.rules.Undo(); err != nil {
			return fmt.Errorf("play: game %s: %w", g.rec.ID, err)
		}
	}
	g.rec.Takebacks++
	if g.rec.Rated {
		g.rec.Casual = true
	}
	g.rec.DrawOfferBy, g.rec.DrawDeclinedBy = 0, 0
	s.syncRecord(g)
	return nil
}

// Rated reports whether the game moves ratings when it ends: rated, and
// not made casual since (a takeback).
func (g *Game) Rated() bool { return g.rec.Rated && !g.rec.Casual }

// Unplayed reports whether a side has not moved yet: the game may still
// be aborted (abort.go).
func (g *Game) Unplayed() bool { return g.unplayed() }

// abortFor is PlayFor's Abort.
func abortFor(g *Game) error {
	if !g.unplayed() {
		return fmt.Errorf("play: game %s: both sides have moved, too late to abort", g.rec.ID)
	}
	return g.rules.Abort()
}
