package redis

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	goredis "github.com/redis/go-redis/v9"

	"github.com/bashni/bashni/storage"
)

// CreateGame adds the game's index hints, then creates the game at version
// 1 in one script. Hints first: a crash in between leaves a hint to a game
// that does not exist, which readers skip, never a game no index finds.
func (s *Store) CreateGame(ctx context.Context, g *storage.GameRecord) error {
	op := "create game " + g.ID
	if g.ID == "" {
		return fmt.Errorf("storage: redis: create game: empty id")
	}
	if err := start(ctx, op); err != nil {
		return err
	}
	rec := *g
	rec.Version = 1
	data, err := json.Marshal(&rec)
	if err != nil {
		return fmt.Errorf("storage: redis: %s: %w", op, err)
	}
	if err := s.addHints(ctx, &rec); err != nil {
		return fail(op, err)
	}
	if err := s.hintReceipts(ctx, &rec); err != nil {
		return fail(op, err)
	}
	n, err := createGame.Run(ctx, s.rdb, []string{s.gameKey(g.ID)}, data, activeFlag(&rec), newToken(),
		hintedBy(&rec), deadlineArg(&rec), s.keepFinished.Milliseconds()).Int()
	if err != nil {
		return fail(op, err)
	}
	if n == 0 {
		return fmt.Errorf("storage: redis: %s: id taken: %w", op, storage.ErrConflict)
	}
	g.Version = 1
	return nil
}

// Game reads the game's JSON.
func (s *Store) Game(ctx context.Context, id string) (*storage.GameRecord, error) {
	op := "game " + id
	return readRecord[storage.GameRecord](ctx, s, s.gameKey(id), op)
}

// UpdateGame is the compare-and-set: the script checks the version and
// writes the game. When the new state needs index hints the stored one did
// not have (see updateGame), the script says so without writing; the hints
// are added (so an earlier deadline is never missed) and the script runs
// again. On success, the hints that may only go once the game is written
// are settled (a finished game leaves its indexes).
func (s *Store) UpdateGame(ctx context.Context, g *storage.GameRecord) error {
	op := fmt.Sprintf("update game %s at version %d", g.ID, g.Version)
	if err := start(ctx, op); err != nil {
		return err
	}
	rec := *g
	rec.Version = g.Version + 1
	data, err := json.Marshal(&rec)
	if err != nil {
		return fmt.Errorf("storage: redis: %s: %w", op, err)
	}
	if err := s.hintReceipts(ctx, &rec); err != nil {
		return fail(op, err)
	}
	if !rec.Active() {
		if err := s.logFinished(ctx, op, &rec); err != nil {
			return err
		}
	}
	token, hinted, deadline := newToken(), hintedBy(&rec), deadlineArg(&rec)
	hintsAdded := false
	for {
		n, err := updateGame.Run(ctx, s.rdb, []string{s.gameKey(g.ID)},
			strconv.FormatInt(g.Version, 10), strconv.FormatInt(rec.Version, 10),
			data, activeFlag(&rec), token, hinted, deadline, flag(hintsAdded), s.keepFinished.Milliseconds()).Int()
		if err != nil {
			return fail(op, err)
		}
		switch n {
		case -1:
			return fmt.Errorf("storage: redis: %s: %w", op, storage.ErrNotFound)
		case 0:
			return fmt.Errorf("storage: redis: %s: stored version differs: %w", op, storage.ErrConflict)
		case -2:
			return fmt.Errorf("storage: redis: %s: finished games cannot be reopened: %w", op, storage.ErrConflict)
		case 2:
			if hintsAdded {
				return fail(op, errors.New("the update script asked for index hints twice"))
			}
			if err := s.addHints(ctx, &rec); err != nil {
				return fail(op, err)
			}
			hintsAdded = true
			continue
		}
		break
	}
	g.Version = rec.Version
	// The game is written; the rest only tidies hints, which readers would
	// also repair, so its failure is not the caller's failure. With no
	// hints added there is nothing for a reader to have raised in between.
	if hintsAdded || !rec.Active() {
		_ = s.settleHints(ctx, &rec)
	}
	return nil
}

// hintedBy names what an active game's index entries depend on besides its
// deadline: its chat and its people.
func hintedBy(g *storage.GameRecord) string {
	b := make([]byte, 0, 64)
	b = strconv.AppendInt(b, g.ChatID, 10)
	for _, id := range g.HumanIDs() {
		b = append(b, ':')
		b = strconv.AppendInt(b, id, 10)
	}
	return string(b)
}

// deadlineArg is the deadline a game's state was written with, in unix
// milliseconds, or "" when it has none.
func deadlineArg(g *storage.GameRecord) string {
	d := g.Due()
	if d.IsZero() {
		return ""
	}
	return strconv.FormatInt(d.UnixMilli(), 10)
}

func flag(b bool) string {
	if b {
		return "1"
	}
	return "0"
}

func activeFlag(g *storage.GameRecord) string { return flag(g.Active()) }

// loadGames reads many games in one round trip (on a Cluster, one per
// node). A missing game is nil.
func (s *Store) loadGames(ctx context.Context, ids []string) ([]*storage.GameRecord, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	cmds := make([]*goredis.StringCmd, len(ids))
	_, err := s.rdb.Pipelined(ctx, func(p goredis.Pipeliner) error {
		for i, id := range ids {
			cmds[i] = p.HGet(ctx, s.gameKey(id), "d")
		}
		return nil
	})
	if err != nil && !errors.Is(err, goredis.Nil) {
		return nil, err
	}
	games := make([]*storage.GameRecord, len(ids))
	for i, cmd := range cmds {
		data, err := cmd.Bytes()
		if errors.Is(err, goredis.Nil) {
			continue
		}
		if err != nil {
			return nil, err
		}
		var g storage.GameRecord
		if err := json.Unmarshal(data, &g); err != nil {
			return nil, fmt.Errorf("decode game %s: %w", ids[i], err)
		}
		games[i] = &g
	}
	return games, nil
}

// readRecord reads and decodes the JSON record in field "d" of key: the
// one way games, puzzle stats and daily puzzles are read back. A missing
// key is storage.ErrNotFound.
func readRecord[T any](ctx context.Context, s *Store, key, op string) (*T, error) {
	if err := start(ctx, op); err != nil {
		return nil, err
	}
	data, err := s.rdb.HGet(ctx, key, "d").Bytes()
	if errors.Is(err, goredis.Nil) {
		return nil, fmt.Errorf("storage: redis: %s: %w", op, storage.ErrNotFound)
	}
	if err != nil {
		return nil, fail(op, err)
	}
	var rec T
	if err := json.Unmarshal(data, &rec); err != nil {
		return nil, fail(op, fmt.Errorf("decode: %w", err))
	}
	return &rec, nil
}
