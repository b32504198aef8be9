package redis

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	goredis "github.com/redis/go-redis/v9"

	"github.com/bashni/bashni/storage"
)

// SetStanding writes the rank and the line in one MULTI/EXEC; both keys
// carry the scope's hash tag.
func (s *Store) SetStanding(ctx context.Context, scope int64, st storage.Standing) error {
	op := fmt.Sprintf("set standing %d in %d", st.UserID, scope)
	if err := start(ctx, op); err != nil {
		return err
	}
	data, err := json.Marshal(st)
	if err != nil {
		return fmt.Errorf("storage: redis: %s: %w", op, err)
	}
	m := member(st.UserID)
	_, err = s.rdb.TxPipelined(ctx, func(p goredis.Pipeliner) error {
		// Negated, so that ascending order is highest rating first and equal
		// ratings fall back to the member's (the user id's) order.
		p.ZAdd(ctx, s.rankKey(scope), goredis.Z{Score: -st.Rating, Member: m})
		p.HSet(ctx, s.linesKey(scope), m, data)
		return nil
	})
	return fail(op, err)
}

// Top returns the n best lines of a scope.
func (s *Store) Top(ctx context.Context, scope int64, n int) ([]storage.Standing, error) {
	op := fmt.Sprintf("top %d of %d", n, scope)
	if err := start(ctx, op); err != nil {
		return nil, err
	}
	if n <= 0 {
		return nil, nil
	}
	lines, err := top.Run(ctx, s.rdb, []string{s.rankKey(scope), s.linesKey(scope)}, n).StringSlice()
	if err != nil {
		return nil, fail(op, err)
	}
	out := make([]storage.Standing, 0, len(lines))
	for _, line := range lines {
		var st storage.Standing
		if err := json.Unmarshal([]byte(line), &st); err != nil {
			return nil, fail(op, fmt.Errorf("decode line: %w", err))
		}
		out = append(out, st)
	}
	return out, nil
}

// Standing reads one user's line.
func (s *Store) Standing(ctx context.Context, scope, userID int64) (storage.Standing, error) {
	op := fmt.Sprintf("standing %d in %d", userID, scope)
	if err := start(ctx, op); err != nil {
		return storage.Standing{}, err
	}
	var st storage.Standing
	data, err := s.rdb.HGet(ctx, s.linesKey(scope), member(userID)).Bytes()
	if errors.Is(err, goredis.Nil) {
		return st, fmt.Errorf("storage: redis: %s: %w", op, storage.ErrNotFound)
	}
	if err != nil {
		return st, fail(op, err)
	}
	if err := json.Unmarshal(data, &st); err != nil {
		return st, fail(op, fmt.Errorf("decode: %w", err))
	}
	return st, nil
}
