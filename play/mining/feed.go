package mining

import (
	"context"
	"errors"
	"hash/fnv"
	"log/slog"
	"sync"

	"github.com/bashni/bashni/puzzle"
	"github.com/bashni/bashni/storage"
)

// Found is a puzzle found here, read back: the puzzle and its record (its
// game and players).
type Found struct {
	Puzzle puzzle.Puzzle
	Rec    storage.MinedPuzzle
}

// Notice is what a game's players are told: the puzzles found in it that
// they were not told of yet.
type Notice struct {
	Game    string
	Puzzles []storage.MinedPuzzle
}

// Feed brings the puzzles found into a replica of the bot: Refresh reads
// those found since it last looked and hands them to add (the pool
// /puzzle draws from), and Due gives the notices still owed. It is safe
// for concurrent use.
type Feed struct {
	store FeedStore
	add   func([]Found)
	log   *slog.Logger

	mu     sync.Mutex
	after  int64                 // the last Seq read
	untold []storage.MinedPuzzle // read, their players not told yet, oldest first
}

// NewFeed reads the puzzles found from store into add.
func NewFeed(store FeedStore, add func([]Found), log *slog.Logger) *Feed {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Feed{store: store, add: add, log: log}
}

// refreshPage is how many puzzles Refresh reads at a time.
const refreshPage = 256

// Refresh reads the puzzles found since the last call (all of them the
// first time), adds them to the pool, and keeps those whose players are
// still to be told.
func (f *Feed) Refresh(ctx context.Context) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	for {
		recs, err := f.store.MinedPuzzles(ctx, f.after, refreshPage)
		if err != nil {
			return err
		}
		found := make([]Found, 0, len(recs))
		for _, rec := range recs {
			f.after = rec.Seq
			pz, err := puzzle.ParseLine(rec.Line)
			if err != nil {
				f.log.Warn("mining: a stored puzzle does not read", "puzzle", rec.ID, "err", err)
				continue
			}
			found = append(found, Found{Puzzle: pz, Rec: rec})
			if !rec.Told && len(rec.Players) > 0 {
				f.untold = append(f.untold, rec)
			}
		}
		if len(found) > 0 {
			f.add(found)
		}
		if len(recs) < refreshPage {
			return nil
		}
	}
}

// Due takes the notices of up to n games, oldest first, for the caller to
// send and then record (Told), or to give back (Again).
func (f *Feed) Due(n int) []Notice {
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []Notice
	for len(f.untold) > 0 {
		p := f.untold[0]
		if len(out) > 0 && out[len(out)-1].Game == p.Game {
			last := &out[len(out)-1]
			last.Puzzles = append(last.Puzzles, p)
		} else {
			if len(out) == n {
				break
			}
			out = append(out, Notice{Game: p.Game, Puzzles: []storage.MinedPuzzle{p}})
		}
		f.untold = f.untold[1:]
	}
	return out
}

// Again gives back a notice that could not be sent, to be due again.
func (f *Feed) Again(n Notice) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.untold = append(append([]storage.MinedPuzzle(nil), n.Puzzles...), f.untold...)
}

// Told records that the notice's players were told. A puzzle written
// meanwhile by another replica was told by it, or is being told under
// the same receipt: nothing is left to do for it.
func (f *Feed) Told(ctx context.Context, n Notice) error {
	for i := range n.Puzzles {
		p := n.Puzzles[i]
		p.Told = true
		if err := f.store.UpdateMinedPuzzle(ctx, &p); err != nil && !errors.Is(err, storage.ErrConflict) {
			return err
		}
	}
	return nil
}

// Receipt is the receipt a notice is committed under: the same in every
// replica, so that whichever commits it first sends it and no other does.
// It is below the receipts play makes up (-1 to -2^62) and Telegram's
// update ids (positive), so it meets neither.
func (n Notice) Receipt() int64 {
	h := fnv.New64a()
	h.Write([]byte("mined:" + n.Game))
	for _, p := range n.Puzzles {
		h.Write([]byte{0})
		h.Write([]byte(p.ID))
	}
	return -(1 << 62) - 1 - int64(h.Sum64()%(1<<61))
}
