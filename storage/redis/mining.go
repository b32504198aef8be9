package redis

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/bashni/bashni/storage"
)

// The puzzle miner's keys. finishedKey is a sorted set: finished game ids
// scored by when their finishing write was made (unix ms). minedKey is a
// versioned record (putVersioned) per puzzle, minedOrderKey a sorted set
// of their ids by Seq, which minedSeqKey counts; mineMarkKey the one
// versioned MineMark. Each key is read and written on its own.
func (s *Store) finishedKey() string       { return s.prefix + "finished" }
func (s *Store) minedKey(id string) string { return s.prefix + "mined:{" + id + "}" }
func (s *Store) minedOrderKey() string     { return s.prefix + "mined" }
func (s *Store) minedSeqKey() string       { return s.prefix + "minedseq" }
func (s *Store) mineMarkKey() string       { return s.prefix + "minemark" }
func msTime(ms float64) time.Time          { return time.UnixMilli(int64(ms)).UTC() }
func msText(t time.Time) string            { return strconv.FormatInt(t.UnixMilli(), 10) }

// logFinished puts game id in the log of finished games, before the write
// that finishes it: a game on another slot cannot be in the write's
// script, and an entry whose write then fails names a game still active,
// which the miner checks (storage.Mining). Only a write over an active
// game logs, so that the later writes of a finished game (its events
// shown, a review kept) do not move it; a finishing write retried after
// a conflict moves it to its own time (GT).
func (s *Store) logFinished(ctx context.Context, op string, g *storage.GameRecord) error {
	active, err := s.rdb.HGet(ctx, s.gameKey(g.ID), "a").Result()
	if errors.Is(err, goredis.Nil) || (err == nil && active != "1") {
		return nil
	}
	if err != nil {
		return fail(op, err)
	}
	z := goredis.Z{Score: float64(s.now().UnixMilli()), Member: g.ID}
	return fail(op, s.rdb.ZAddArgs(ctx, s.finishedKey(), goredis.ZAddArgs{GT: true, Members: []goredis.Z{z}}).Err())
}

// FinishedGames lists the log's entries after after and before before.
func (s *Store) FinishedGames(ctx context.Context, after storage.FinishedGame, before time.Time, n int) ([]storage.FinishedGame, error) {
	op := "finished games"
	out := []storage.FinishedGame{}
	if n <= 0 {
		return out, nil
	}
	if err := start(ctx, op); err != nil {
		return nil, err
	}
	add := func(zs []goredis.Z, afterID string) {
		for _, z := range zs {
			id, _ := z.Member.(string)
			if id > afterID && len(out) < n {
				out = append(out, storage.FinishedGame{ID: id, At: msTime(z.Score)})
			}
		}
	}
	from, end := "-inf", "("+msText(before)
	if after != (storage.FinishedGame{}) {
		// Entries of the mark's own millisecond come in id order; then
		// the later ones.
		ties, err := s.rdb.ZRangeArgsWithScores(ctx, goredis.ZRangeArgs{Key: s.finishedKey(), ByScore: true,
			Start: msText(after.At), Stop: msText(after.At)}).Result()
		if err != nil {
			return nil, fail(op, err)
		}
		if after.At.Before(before) {
			add(ties, after.ID)
		}
		from = "(" + msText(after.At)
	}
	if len(out) < n {
		zs, err := s.rdb.ZRangeArgsWithScores(ctx, goredis.ZRangeArgs{Key: s.finishedKey(), ByScore: true,
			Start: from, Stop: end, Count: int64(n - len(out))}).Result()
		if err != nil {
			return nil, fail(op, err)
		}
		add(zs, "")
	}
	return out, nil
}

// MineMark reads the miner's mark.
func (s *Store) MineMark(ctx context.Context) (*storage.MineMark, error) {
	m, err := readRecord[storage.MineMark](ctx, s, s.mineMarkKey(), "mine mark")
	if errors.Is(err, storage.ErrNotFound) {
		return &storage.MineMark{}, nil
	}
	return m, err
}

// PutMineMark writes m if the stored version is m.Version.
func (s *Store) PutMineMark(ctx context.Context, m *storage.MineMark) error {
	op := "put mine mark"
	if err := start(ctx, op); err != nil {
		return err
	}
	rec := *m
	rec.Version = m.Version + 1
	if err := s.putVersioned(ctx, op, s.mineMarkKey(), m.Version, rec.Version, &rec); err != nil {
		return err
	}
	m.Version = rec.Version
	return nil
}

// AddMinedPuzzle stores p unless its id is stored. The record is written
// first, then listed: a process that dies in between leaves it unlisted
// until the miner finds it again (its game is mined again from the mark),
// whose add, refused, lists the stored one.
func (s *Store) AddMinedPuzzle(ctx context.Context, p *storage.MinedPuzzle) error {
	op := "add mined puzzle " + p.ID
	if p.ID == "" {
		return fmt.Errorf("storage: redis: add mined puzzle: empty id")
	}
	if err := start(ctx, op); err != nil {
		return err
	}
	seq, err := s.rdb.Incr(ctx, s.minedSeqKey()).Result()
	if err != nil {
		return fail(op, err)
	}
	rec := *p
	rec.Seq, rec.Version = seq, 1
	err = s.putVersioned(ctx, op, s.minedKey(p.ID), 0, 1, &rec)
	if errors.Is(err, storage.ErrConflict) {
		stored, rerr := readRecord[storage.MinedPuzzle](ctx, s, s.minedKey(p.ID), op)
		if rerr != nil {
			return rerr
		}
		rec = *stored
	} else if err != nil {
		return err
	}
	z := goredis.Z{Score: float64(rec.Seq), Member: p.ID}
	if lerr := s.rdb.ZAddArgs(ctx, s.minedOrderKey(), goredis.ZAddArgs{NX: true, Members: []goredis.Z{z}}).Err(); lerr != nil {
		return fail(op, lerr)
	}
	if err != nil {
		return err
	}
	p.Seq, p.Version = rec.Seq, rec.Version
	return nil
}

// MinedPuzzles lists up to n puzzles after Seq after.
func (s *Store) MinedPuzzles(ctx context.Context, after int64, n int) ([]storage.MinedPuzzle, error) {
	op := "mined puzzles"
	out := []storage.MinedPuzzle{}
	if n <= 0 {
		return out, nil
	}
	if err := start(ctx, op); err != nil {
		return nil, err
	}
	ids, err := s.rdb.ZRangeArgs(ctx, goredis.ZRangeArgs{Key: s.minedOrderKey(), ByScore: true,
		Start: "(" + strconv.FormatInt(after, 10), Stop: "+inf", Count: int64(n)}).Result()
	if err != nil {
		return nil, fail(op, err)
	}
	for _, id := range ids {
		p, err := readRecord[storage.MinedPuzzle](ctx, s, s.minedKey(id), op)
		if errors.Is(err, storage.ErrNotFound) {
			continue
		}
		if err != nil {
			return nil, err
		}
		out = append(out, *p)
	}
	return out, nil
}

// UpdateMinedPuzzle writes p if the stored version is p.Version.
func (s *Store) UpdateMinedPuzzle(ctx context.Context, p *storage.MinedPuzzle) error {
	op := "update mined puzzle " + p.ID
	stored, err := readRecord[storage.MinedPuzzle](ctx, s, s.minedKey(p.ID), op)
	if err != nil {
		return err
	}
	rec := *p
	rec.Seq, rec.Version = stored.Seq, p.Version+1
	if err := s.putVersioned(ctx, op, s.minedKey(p.ID), p.Version, rec.Version, &rec); err != nil {
		return err
	}
	p.Version = rec.Version
	return nil
}
