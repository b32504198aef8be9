package storage

import (
	"context"
	"time"
)

// FinishedGame is an entry of the log of finished games: a game, and when
// its finishing write was made by the store's clock. The store adds the
// entry with the write that finishes the game (UpdateGame), so the
// puzzle miner can go through the games finished since its mark.
type FinishedGame struct {
	ID string    `json:"id"`
	At time.Time `json:"at"`
}

// MineMark is where the puzzle miner stands in the log of finished games:
// the last entry it went through (At, Game; zero: none yet), and the run
// that holds the mark until Until, so that two runs at once do not mine
// the same games. Games counts the games gone through in all.
type MineMark struct {
	At      time.Time `json:"at,omitzero"`
	Game    string    `json:"game,omitzero"`
	Holder  string    `json:"holder,omitzero"`
	Until   time.Time `json:"until,omitzero"`
	Games   int       `json:"games,omitzero"`
	Version int64     `json:"version"`
}

// MinedPuzzle is a puzzle found in a game played here: the puzzle in the
// shipped set's line format (package puzzle), the game it came from and
// its players, and whether the players were told.
type MinedPuzzle struct {
	ID    string    `json:"id"`
	Line  string    `json:"line"`
	Game  string    `json:"game"`
	White string    `json:"white,omitzero"`
	Black string    `json:"black,omitzero"`
	Found time.Time `json:"found"`
	// Players are the game's people (not the AI), each told once that
	// the puzzle came from their game; Told says they were.
	Players []int64 `json:"players,omitzero"`
	Told    bool    `json:"told,omitzero"`
	// Seq is the puzzle's place in the order of finding, from 1, set by
	// AddMinedPuzzle: replicas read the puzzles found since the last
	// they saw. Version is set by the store, as in every versioned record.
	Seq     int64 `json:"seq"`
	Version int64 `json:"version"`
}

// Mining keeps what the puzzle miner needs: the log of finished games,
// its mark in that log, and the puzzles it found.
type Mining interface {
	// FinishedGames lists up to n entries of the log after the entry
	// after (zero: from the start) and before before, oldest first (ties
	// by id). An entry may name a game that did not finish after all (a
	// finishing write that lost its compare-and-set) or that is gone
	// (expired): the reader checks the game. A game is in the log once,
	// at its latest finishing write.
	FinishedGames(ctx context.Context, after FinishedGame, before time.Time, n int) ([]FinishedGame, error)
	// MineMark reads the mark; a mark never written is the zero MineMark.
	MineMark(ctx context.Context) (*MineMark, error)
	// PutMineMark writes m if the stored version is m.Version (0: none),
	// then sets m.Version to the new one; ErrConflict if another write
	// came first.
	PutMineMark(ctx context.Context, m *MineMark) error
	// AddMinedPuzzle stores p as version 1 with the next Seq (both set on
	// p) unless a puzzle of its id is stored (ErrConflict, nothing
	// changed but that the stored one is listed).
	AddMinedPuzzle(ctx context.Context, p *MinedPuzzle) error
	// MinedPuzzles lists up to n puzzles whose Seq is after seq, by Seq.
	MinedPuzzles(ctx context.Context, after int64, n int) ([]MinedPuzzle, error)
	// UpdateMinedPuzzle writes p if the stored version is p.Version, then
	// sets p.Version to the new one; ErrConflict if another write came
	// first, ErrNotFound if none is stored.
	UpdateMinedPuzzle(ctx context.Context, p *MinedPuzzle) error
}
