package redis

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/bashni/bashni/storage"
)

// The indexes live in other hash slots than the games, so no script can
// change a game and its index entries together on a Cluster. They are kept
// as hints under two rules, and readers check every hint against the game:
//
//   - Writers only add entries and lower deadlines before writing a game
//     (ZADD NX, ZADD LT), and remove entries only after the game is written
//     finished, which is final. So an index never misses an active game,
//     and a deadline entry is never later than the game's deadline.
//   - Readers load the games a hint names and return only those that really
//     belong (active, in that chat or with that player, due). Entries that
//     point at finished or moved games are removed; deadline entries that
//     are too early are moved to the game's deadline, but only if they still
//     hold the score the reader saw, so a reader never undoes a newer write.

// missingGrace is how long a deadline hint may point at a game that does not
// exist before DueGames removes it: long enough for any create in flight
// (which adds its hints first) to have finished.
const missingGrace = time.Minute

// addHints makes sure the indexes find g: entries added if absent, the
// deadline entry lowered if g's is earlier. Idempotent, never harmful.
func (s *Store) addHints(ctx context.Context, g *storage.GameRecord) error {
	if !g.Active() {
		// Only its deadline, while it owes the players its last events.
		if d := g.Due(); !d.IsZero() {
			return s.rdb.ZAddLT(ctx, s.deadlinesKey(), goredis.Z{Score: ms(d), Member: g.ID}).Err()
		}
		return nil
	}
	_, err := s.rdb.Pipelined(ctx, func(p goredis.Pipeliner) error {
		created := goredis.Z{Score: ms(g.CreatedAt), Member: g.ID}
		if g.ChatID != 0 {
			p.ZAddNX(ctx, s.chatGamesKey(g.ChatID), created)
		}
		for _, u := range g.HumanIDs() {
			p.ZAddNX(ctx, s.userGamesKey(u), created)
		}
		if d := g.Due(); !d.IsZero() {
			p.ZAddLT(ctx, s.deadlinesKey(), goredis.Z{Score: ms(d), Member: g.ID})
		}
		return nil
	})
	return err
}

// settleHints runs after g is written: a finished game leaves every index;
// an active one has its deadline lowered again, in case a reader raised the
// entry from an older version between addHints and the write.
func (s *Store) settleHints(ctx context.Context, g *storage.GameRecord) error {
	if g.Active() {
		if g.Due().IsZero() {
			return nil
		}
		return s.addHints(ctx, g)
	}
	_, err := s.rdb.Pipelined(ctx, func(p goredis.Pipeliner) error {
		if g.ChatID != 0 {
			p.ZRem(ctx, s.chatGamesKey(g.ChatID), g.ID)
		}
		for _, u := range g.HumanIDs() {
			p.ZRem(ctx, s.userGamesKey(u), g.ID)
		}
		if d := g.Due(); !d.IsZero() {
			p.ZAddLT(ctx, s.deadlinesKey(), goredis.Z{Score: ms(d), Member: g.ID})
		} else {
			p.ZRem(ctx, s.deadlinesKey(), g.ID)
		}
		return nil
	})
	return err
}

// receiptTTL is how long a receipt's hint lasts: longer than Telegram
// keeps delivering an update again, and than a game owes its last events.
const receiptTTL = 24 * time.Hour

// hintReceipts makes sure EndedGameByReceipt finds g, finished and owing,
// by the receipts of the events it owes: added before the write, as every
// hint, and checked against the game by the reader.
func (s *Store) hintReceipts(ctx context.Context, g *storage.GameRecord) error {
	if g.Active() || g.Due().IsZero() || len(g.Owed) == 0 {
		return nil
	}
	_, err := s.rdb.Pipelined(ctx, func(p goredis.Pipeliner) error {
		for _, ev := range g.Owed {
			p.Set(ctx, s.receiptKey(ev.Receipt), g.ID, receiptTTL)
		}
		return nil
	})
	return err
}

// EndedGameByReceipt reads the receipt's hint and checks it against the
// game: finished, and owing an event under receipt.
func (s *Store) EndedGameByReceipt(ctx context.Context, receipt int64) (string, error) {
	op := fmt.Sprintf("game ended by %d", receipt)
	if err := start(ctx, op); err != nil {
		return "", err
	}
	id, err := s.rdb.Get(ctx, s.receiptKey(receipt)).Result()
	if errors.Is(err, goredis.Nil) {
		return "", fmt.Errorf("storage: redis: %s: %w", op, storage.ErrNotFound)
	}
	if err != nil {
		return "", fail(op, err)
	}
	g, err := s.Game(ctx, id)
	if err != nil {
		return "", err
	}
	owes := slices.ContainsFunc(g.Owed, func(ev storage.GameEvent) bool { return ev.Receipt == receipt })
	if g.Active() || g.Due().IsZero() || !owes {
		return "", fmt.Errorf("storage: redis: %s: %w", op, storage.ErrNotFound)
	}
	return id, nil
}

// ActiveGamesByChat lists the chat's active games, oldest first.
func (s *Store) ActiveGamesByChat(ctx context.Context, chatID int64) ([]string, error) {
	return s.activeGames(ctx, fmt.Sprintf("active games of chat %d", chatID), s.chatGamesKey(chatID),
		func(g *storage.GameRecord) bool { return g.ChatID == chatID })
}

// ActiveGamesByUser lists the active games the user plays in, oldest first.
func (s *Store) ActiveGamesByUser(ctx context.Context, userID int64) ([]string, error) {
	return s.activeGames(ctx, fmt.Sprintf("active games of user %d", userID), s.userGamesKey(userID),
		func(g *storage.GameRecord) bool { return slices.Contains(g.HumanIDs(), userID) })
}

// activeGames reads the hint set at key and keeps the ids whose game is
// active and belongs. Hints for games that have finished or moved are
// removed; hints for missing games are kept, as their create may be in
// flight.
func (s *Store) activeGames(ctx context.Context, op, key string, belongs func(*storage.GameRecord) bool) ([]string, error) {
	if err := start(ctx, op); err != nil {
		return nil, err
	}
	ids, err := s.rdb.ZRange(ctx, key, 0, -1).Result()
	if err != nil {
		return nil, fail(op, err)
	}
	games, err := s.loadGames(ctx, ids)
	if err != nil {
		return nil, fail(op, err)
	}
	var live []string
	var stale []any
	for i, g := range games {
		switch {
		case g == nil:
		case g.Active() && belongs(g):
			live = append(live, ids[i])
		default:
			stale = append(stale, ids[i])
		}
	}
	if len(stale) > 0 {
		_ = s.rdb.ZRem(ctx, key, stale...).Err() // tidying; the next reader retries
	}
	return live, nil
}

// dueBatch is how many hints DueGames examines per round trip.
const dueBatch = 64

// DueGames returns games whose Due time is not after now, earliest
// first. It walks the hints scored up to now, checks each against its game
// and repairs the hints that were early or stale as it goes.
func (s *Store) DueGames(ctx context.Context, now time.Time, limit int) ([]string, error) {
	const op = "due games"
	if err := start(ctx, op); err != nil {
		return nil, err
	}
	if limit <= 0 {
		return nil, nil
	}
	type due struct {
		id string
		at time.Time
	}
	var found []due
	nowMs := ms(now)
	offset := int64(0)
	for len(found) < limit {
		hints, err := s.rdb.ZRangeByScoreWithScores(ctx, s.deadlinesKey(), &goredis.ZRangeBy{
			Min: "-inf", Max: strconv.FormatFloat(nowMs, 'f', -1, 64), Offset: offset, Count: dueBatch,
		}).Result()
		if err != nil {
			return nil, fail(op, err)
		}
		ids := make([]string, len(hints))
		for i, h := range hints {
			ids[i] = h.Member.(string)
		}
		games, err := s.loadGames(ctx, ids)
		if err != nil {
			return nil, fail(op, err)
		}
		left := 0 // hints that leave the range scored up to now
		for i, g := range games {
			id, seen := ids[i], hints[i].Score
			var d time.Time
			if g != nil {
				d = g.Due()
			}
			switch {
			case g == nil && seen > nowMs-float64(missingGrace.Milliseconds()):
				// Perhaps a create in flight: leave it.
			case d.IsZero():
				// Missing for long, finished, or no deadline any more.
				if s.repairDeadline(ctx, id, seen, "") {
					left++
				}
			case d.After(now):
				if s.repairDeadline(ctx, id, seen, strconv.FormatFloat(ms(d), 'f', -1, 64)) && ms(d) > nowMs {
					left++
				}
			default:
				found = append(found, due{id, d})
			}
		}
		if len(hints) < dueBatch {
			break
		}
		offset += int64(len(hints) - left)
	}
	slices.SortFunc(found, func(a, b due) int {
		return cmp.Or(a.at.Compare(b.at), cmp.Compare(a.id, b.id))
	})
	ids := make([]string, 0, min(len(found), limit))
	for _, f := range found[:min(len(found), limit)] {
		ids = append(ids, f.id)
	}
	return ids, nil
}

// repairDeadline moves or removes one deadline hint if it still has the
// score seen, and reports whether it did. Failure only leaves the hint for
// the next reader.
func (s *Store) repairDeadline(ctx context.Context, id string, seen float64, score string) bool {
	n, err := repairDeadline.Run(ctx, s.rdb, []string{s.deadlinesKey()},
		id, strconv.FormatFloat(seen, 'f', -1, 64), score).Int()
	return err == nil && n == 1
}
