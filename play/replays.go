package play

import (
	"fmt"
	"slices"

	lru "github.com/hashicorp/golang-lru/v2"

	"github.com/bashni/bashni/rules"
	"github.com/bashni/bashni/storage"
)

// A game is stored as its start and its moves in text, and every read
// rebuilds its rules state by playing them again: a legal-move generation
// and a parse for every ply. A move is read two or three times between the
// tap and its card (the handler's write, the card drawn when sent, the
// AI's answer), each time one ply longer, so replaying from the start was
// a tenth of a bot's CPU in a long game. replays keeps the last rules
// state of the games this process read, and a read whose moves extend a
// kept state's plays only the new ones.
//
// What is kept is a pure function of the record's variant, start and
// moves, checked in full on every hit: a stale entry (another replica
// moved, a takeback, a different store in a test) is never used for
// anything but a prefix it really is, so it needs no invalidation.

// maxReplays bounds the games whose state is kept: about 320 bytes a ply
// (a position, a move), so 20 MB at the bound with games of 60 plies, 32
// MB if every one were 100 plies long.
const maxReplays = 1024

// replays is the kept rules states by game id. A nil *replays keeps
// nothing.
type replays struct {
	kept *lru.Cache[string, replay]
}

// replay is the rules state after moves, from start in variant, before
// any end the record adds (a resignation, a flag): rules.Game plays no
// move after those.
type replay struct {
	variant, start string
	moves          []string
	game           *rules.Game
}

func newReplays() *replays {
	c, err := lru.New[string, replay](maxReplays)
	if err != nil {
		panic("play: " + err.Error()) // only for a size below 1
	}
	return &replays{kept: c}
}

// rebuild returns the rules state of rec's moves (a game of the caller's
// own), replaying only what the kept state of rec's game lacks.
func (r *replays) rebuild(rec *storage.GameRecord, start rules.Position) (*rules.Game, error) {
	if r == nil {
		return rules.ReplayGame(start, rec.Moves)
	}
	var g *rules.Game
	done := 0
	if k, ok := r.kept.Get(rec.ID); ok && k.variant == rec.Variant && k.start == rec.Start &&
		len(k.moves) <= len(rec.Moves) && slices.Equal(k.moves, rec.Moves[:len(k.moves)]) {
		g, done = k.game.Clone(), len(k.moves)
	} else {
		g = rules.NewGame(start)
	}
	if err := replayFrom(g, rec.Moves, done); err != nil {
		return g, err
	}
	if done < len(rec.Moves) || g.Ply() == 0 {
		r.kept.Add(rec.ID, replay{variant: rec.Variant, start: rec.Start, moves: slices.Clone(rec.Moves), game: g.Clone()})
	}
	return g, nil
}

// replayFrom plays moves[done:] on g, which has played moves[:done].
func replayFrom(g *rules.Game, moves []string, done int) error {
	for i := done; i < len(moves); i++ {
		if _, err := g.PlayText(moves[i]); err != nil {
			return fmt.Errorf("move %d (%s): %w", i+1, moves[i], err)
		}
	}
	return nil
}
