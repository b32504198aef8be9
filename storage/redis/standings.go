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

// storedStanding is a line as stored: its JSON with the token of the
// write that stored it, so that setStanding knows its own write again
// when go-redis resends it after a lost reply.
type storedStanding struct {
	*storage.Standing
	Token string `json:"w,omitzero"`
}

// SetStanding is a compare-and-set on the line by setStanding's script,
// which writes the rank and the line together; both keys carry the scope's
// hash tag.
func (s *Store) SetStanding(ctx context.Context, scope int64, st *storage.Standing) error {
	op := fmt.Sprintf("set standing %d in %d at version %d", st.UserID, scope, st.Version)
	if err := start(ctx, op); err != nil {
		return err
	}
	rec := *st
	rec.Version = st.Version + 1
	token := newToken()
	data, err := json.Marshal(storedStanding{Standing: &rec, Token: token})
	if err != nil {
		return fmt.Errorf("storage: redis: %s: %w", op, err)
	}
	// Negated, so that ascending order is highest rating first and equal
	// ratings fall back to the member's (the user id's) order.
	score := strconv.FormatFloat(-st.Rating, 'f', -1, 64)
	n, err := setStanding.Run(ctx, s.rdb, []string{s.rankKey(scope), s.linesKey(scope)}, member(st.UserID),
		strconv.FormatInt(st.Version, 10), strconv.FormatInt(rec.Version, 10), data, token, score).Int()
	if err != nil {
		return fail(op, err)
	}
	if n == 0 {
		return fmt.Errorf("storage: redis: %s: stored version differs: %w", op, storage.ErrConflict)
	}
	st.Version = rec.Version
	return nil
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
