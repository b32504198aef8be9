package play

import (
	"fmt"
	"slices"

	lru "github.com/hashicorp/golang-lru/v2"

	"github.com/bashni/bashni/rules"
	"github.com/bashni/bashni/storage"
)

// Every operation reads its game from the store and rebuilds the rules
// state from the start position and all the moves, so each move of a long
// game used to replay the whole game, checking every move, several times
// (the tap's read, the compare-and-set, the turn notice). The replay cache
// keeps the rules state of recently loaded games: a record that extends a
// cached state by k moves costs a copy and k moves. The record stays the
// truth: a state is reused only if its start, variant and every move match.

// replayCacheSize bounds the cached games: about 15 KB each at 80 plies.
const replayCacheSize = 4096

// replayed is a rules state and the record it was rebuilt from (its moves
// are the record's). Neither is handed out: callers get clones, which they
// may change.
type replayed struct {
	variant, start string
	moves          []string
	game           *rules.Game
	rec            *storage.Game
}

// builds reports whether the record is this state's record or extends it.
func (r *replayed) builds(rec *storage.Game) bool {
	return r.variant == rec.Variant && r.start == rec.Start &&
		len(r.moves) <= len(rec.Moves) && slices.Equal(r.moves, rec.Moves[:len(r.moves)])
}

type replayCache struct {
	games *lru.Cache[string, *replayed]
}

func newReplayCache(size int) *replayCache {
	c, err := lru.New[string, *replayed](size)
	if err != nil {
		panic("play: replay cache size must be positive") // a constant
	}
	return &replayCache{games: c}
}

// load rebuilds the rules state of rec, from the cache when it can.
func (c *replayCache) load(rec *storage.Game) (*Game, error) {
	cached, ok := c.games.Get(rec.ID)
	if !ok || !cached.builds(rec) {
		g, err := load(rec)
		if err == nil {
			c.keep(rec, g.rules)
		}
		return g, err
	}
	rg := cached.game.Clone()
	if len(cached.moves) == len(rec.Moves) {
		// The same moves: remember the newer record with the same state.
		c.games.Add(rec.ID, &replayed{variant: cached.variant, start: cached.start,
			moves: cached.moves, game: cached.game, rec: rec.Clone()})
	} else {
		for i := len(cached.moves); i < len(rec.Moves); i++ {
			if _, err := rg.PlayText(rec.Moves[i]); err != nil {
				// The words of a full replay (rules.ReplayGame).
				return nil, fmt.Errorf("play: game %s: rules: move %d (%s): %w", rec.ID, i+1, rec.Moves[i], err)
			}
		}
		c.keep(rec, rg)
	}
	return &Game{Game: rec, rules: rg}, nil
}

// keep caches copies of rec and rg, rg being the state of rec's moves.
func (c *replayCache) keep(rec *storage.Game, rg *rules.Game) {
	c.games.Add(rec.ID, &replayed{
		variant: rec.Variant, start: rec.Start,
		moves: slices.Clone(rec.Moves), game: rg.Clone(), rec: rec.Clone(),
	})
}

// latest returns a copy of the game as this process last read or wrote it.
// It may be out of date (another replica may have written since), so it is
// only good as a first guess for a compare-and-set.
func (c *replayCache) latest(id string) (*Game, bool) {
	cached, ok := c.games.Get(id)
	if !ok {
		return nil, false
	}
	return &Game{Game: cached.rec.Clone(), rules: cached.game.Clone()}, true
}

// forget drops a game's cached state.
func (c *replayCache) forget(id string) { c.games.Remove(id) }
