package redis

import (
	"context"
	"fmt"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/bashni/bashni/storage"
)

// A capped create takes a seat in the user's set of active games (the
// hint set the index reads, in the user's own hash slot) by a script that
// counts and adds in one step, then creates the game as CreateGame does.
// The set may hold more than the user's active games: hints of games
// that finished and were not tidied yet, and of a create that failed. So
// a refusal first tidies the set (finished games out, and seats of games
// that were never created after ghostAge) and asks once more.

// takeSeat: KEYS[1] the user's games; ARGV id, score (creation ms), max.
// Returns 1 seated (now or before), 0 the set holds max others.
var takeSeat = goredis.NewScript(`
if redis.call('ZSCORE', KEYS[1], ARGV[1]) then return 1 end
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
return 1
`)

// ghostAge is how long a seat may stand for a game not yet stored: a
// create takes milliseconds, so an older seat is one whose create failed.
const ghostAge = time.Minute

// CreateGameCapped is CreateGame when userID plays fewer than max active
// games, the count and the seat taken by one script.
func (s *Store) CreateGameCapped(ctx context.Context, g *storage.GameRecord, userID int64, max int) error {
	op := fmt.Sprintf("create game %s for user %d (cap %d)", g.ID, userID, max)
	if err := start(ctx, op); err != nil {
		return err
	}
	key := s.userGamesKey(userID)
	for try := 0; ; try++ {
		n, err := takeSeat.Run(ctx, s.rdb, []string{key}, g.ID, ms(g.CreatedAt), max).Int()
		if err != nil {
			return fail(op, err)
		}
		if n == 1 {
			break
		}
		if try == 1 {
			return fmt.Errorf("storage: redis: %s: %w", op, storage.ErrCapReached)
		}
		if err := s.tidySeats(ctx, op, key, userID); err != nil {
			return err
		}
	}
	if err := s.CreateGame(ctx, g); err != nil {
		_ = s.rdb.ZRem(context.WithoutCancel(ctx), key, g.ID).Err() // the seat; else a ghost, tidied later
		return err
	}
	return nil
}

// tidySeats removes from the user's set the games that finished (as
// ActiveGamesByUser does) and the seats of games never created.
func (s *Store) tidySeats(ctx context.Context, op, key string, userID int64) error {
	if _, err := s.ActiveGamesByUser(ctx, userID); err != nil {
		return err
	}
	seats, err := s.rdb.ZRangeWithScores(ctx, key, 0, -1).Result()
	if err != nil {
		return fail(op, err)
	}
	ids := make([]string, len(seats))
	for i, z := range seats {
		ids[i], _ = z.Member.(string)
	}
	games, err := s.loadGames(ctx, ids)
	if err != nil {
		return fail(op, err)
	}
	old := ms(s.now().Add(-ghostAge))
	var ghosts []any
	for i, g := range games {
		if g == nil && seats[i].Score < old {
			ghosts = append(ghosts, ids[i])
		}
	}
	if len(ghosts) > 0 {
		if err := s.rdb.ZRem(ctx, key, ghosts...).Err(); err != nil {
			return fail(op, err)
		}
	}
	return nil
}
