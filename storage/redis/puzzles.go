package redis

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"

	goredis "github.com/redis/go-redis/v9"

	"github.com/bashni/bashni/storage"
)

// puzzleKey is a hash: v (version), w (token of the last write), d (the
// PuzzleStats as JSON).
func (s *Store) puzzleKey(id string) string { return s.prefix + "puzzle:{" + id + "}" }

// putPuzzle: KEYS[1] puzzle; ARGV expected version, new version, json,
// token. Returns 1 written (or already written by this token: a retry
// after a lost reply), 0 the version differs.
var putPuzzle = goredis.NewScript(`
local cur = redis.call('HMGET', KEYS[1], 'v', 'w')
local v = cur[1] or '0'
if v ~= ARGV[1] then
  if v == ARGV[2] and cur[2] == ARGV[4] then return 1 end
  return 0
end
redis.call('HSET', KEYS[1], 'v', ARGV[2], 'w', ARGV[4], 'd', ARGV[3])
return 1
`)

// PuzzleStats reads a puzzle's stats.
func (s *Store) PuzzleStats(ctx context.Context, id string) (*storage.PuzzleStats, error) {
	op := "puzzle " + id
	return readRecord[storage.PuzzleStats](ctx, s, s.puzzleKey(id), op)
}

// PutPuzzleStats writes p if the stored version is p.Version.
func (s *Store) PutPuzzleStats(ctx context.Context, p *storage.PuzzleStats) error {
	op := "put puzzle " + p.ID
	if p.ID == "" {
		return fmt.Errorf("storage: redis: put puzzle: empty id")
	}
	if err := start(ctx, op); err != nil {
		return err
	}
	rec := *p
	rec.Version = p.Version + 1
	if err := s.putVersioned(ctx, op, s.puzzleKey(p.ID), p.Version, rec.Version, &rec); err != nil {
		return err
	}
	p.Version = rec.Version
	return nil
}

// putVersioned writes rec as JSON at key, as version to, if the
// stored version is from (0: none stored), by putPuzzle's script, which
// every versioned JSON record shares (puzzle stats, daily puzzles,
// tournaments); ErrConflict if another write came first.
func (s *Store) putVersioned(ctx context.Context, op, key string, from, to int64, rec any) error {
	data, err := json.Marshal(rec)
	if err != nil {
		return fmt.Errorf("storage: redis: %s: %w", op, err)
	}
	n, err := putPuzzle.Run(ctx, s.rdb, []string{key},
		strconv.FormatInt(from, 10), strconv.FormatInt(to, 10), data, newToken()).Int()
	if err != nil {
		return fail(op, err)
	}
	if n == 0 {
		return fmt.Errorf("storage: redis: %s: written from version %d: %w", op, from, storage.ErrConflict)
	}
	return nil
}
