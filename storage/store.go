package storage

import (
	"context"
	"time"
)

// Store is everything the bot persists. Both implementations pass the suite
// in storage/storagetest, which is the executable form of this contract.
//
// Records passed in are not retained; records returned are fresh copies the
// caller may change. Lists of ids come back empty (not an error) when there
// is nothing to list.
type Store interface {
	// CreateGame stores a new game with Version 1 (also set on g) and adds it
	// to the active indexes of its chat and of each human player, and to the
	// deadline index if it has a deadline. An id already taken by a different
	// game is ErrConflict.
	CreateGame(ctx context.Context, g *GameRecord) error
	// CreateGameCapped is CreateGame unless userID already plays max
	// active games (ErrCapReached, nothing written), counted and created
	// in one atomic step: of any number of concurrent calls, no more
	// than max games stand at the end. g.CreatedAt is the store's now, as
	// when a service creates a game: a seat taken for a game not stored
	// a minute after it may be taken for a create that failed.
	CreateGameCapped(ctx context.Context, g *GameRecord, userID int64, max int) error

	// Game returns the game, or ErrNotFound.
	Game(ctx context.Context, id string) (*GameRecord, error)

	// UpdateGame is a compare-and-set: it writes g only if the stored version
	// equals g.Version, stores it as version g.Version+1 and sets g.Version to
	// that on success. Otherwise it returns ErrConflict (ErrNotFound if there
	// is no such game) and changes nothing. The indexes follow in the same
	// step: a finished game leaves the active indexes and joins the log of
	// finished games (Mining.FinishedGames), and the deadline
	// entry moves to g.Due() (a finished game stays due only while it owes
	// the players the sight of its last changes, ShowAt). A finished game cannot become
	// active again (ErrConflict).
	UpdateGame(ctx context.Context, g *GameRecord) error

	// ActiveGamesByChat and ActiveGamesByUser list the ids of active games in
	// a chat, or with a user as a human player, oldest CreatedAt first (ties
	// by id).
	ActiveGamesByChat(ctx context.Context, chatID int64) ([]string, error)
	ActiveGamesByUser(ctx context.Context, userID int64) ([]string, error)

	// DueGames lists up to limit ids of games whose Due time is not after
	// now (active games by their Deadline; finished ones still owing their
	// events by ShowAt), earliest first (ties by id).
	DueGames(ctx context.Context, now time.Time, limit int) ([]string, error)

	// EndedGameByReceipt returns the id of a finished game that still
	// owes the players an event stored under receipt (Owed, ShowAt set),
	// or ErrNotFound: how an update Telegram delivers again after a crash
	// finds the game it ended, which has left the active indexes.
	EndedGameByReceipt(ctx context.Context, receipt int64) (string, error)

	// PutChallenge stores (or replaces) a challenge until its ExpiresAt;
	// afterwards it is gone as if deleted. One already expired is not stored.
	PutChallenge(ctx context.Context, c *Challenge) error
	// Challenge returns a live challenge, or ErrNotFound.
	Challenge(ctx context.Context, id string) (*Challenge, error)
	// TakeChallenge gets and deletes a challenge in one atomic step: of any
	// number of concurrent takers exactly one gets it, the others ErrNotFound.
	TakeChallenge(ctx context.Context, id string) (*Challenge, error)
	// DeleteChallenge removes a challenge; removing a missing one is no error.
	DeleteChallenge(ctx context.Context, id string) error

	// User returns a user, or ErrNotFound.
	User(ctx context.Context, id int64) (*User, error)
	// PutUser is a compare-and-set, as UpdateGame: it writes u only if the
	// stored user's version equals u.Version (0: no user stored, or one
	// stored before users had versions), stores it as version u.Version+1
	// and sets u.Version to that on success, keeping the username index.
	// Otherwise it returns ErrConflict and changes nothing.
	PutUser(ctx context.Context, u *User) error
	// UserByUsername finds a user by Telegram username, ignoring case and a
	// leading "@", or returns ErrNotFound.
	UserByUsername(ctx context.Context, username string) (*User, error)

	// SetStanding writes a user's line in a leaderboard (scope: a chat id, 0
	// for the global board) and its place, by compare-and-set as PutUser:
	// only if the stored line's version equals s.Version (0: no line
	// stored, or one stored before lines had versions); it stores it as
	// version s.Version+1 and sets s.Version to that on success. Otherwise
	// it returns ErrConflict and changes nothing.
	SetStanding(ctx context.Context, scope int64, s *Standing) error
	// Top returns up to n standings, highest rating first (ties by user id).
	Top(ctx context.Context, scope int64, n int) ([]Standing, error)
	// Standing returns one user's line, or ErrNotFound.
	Standing(ctx context.Context, scope, userID int64) (Standing, error)

	// MarkUpdate records a Telegram update id for ttl and reports whether this
	// is the first time it is seen within that time, so a redelivered update is
	// handled once.
	MarkUpdate(ctx context.Context, updateID int64, ttl time.Duration) (first bool, err error)
	// UpdateSeen reports whether updateID is marked (and the mark is live),
	// without marking it. The bot asks before handling an update and marks
	// it only once its effects are written, so a crash in between leaves
	// the update unmarked and its redelivery is handled.
	UpdateSeen(ctx context.Context, updateID int64) (bool, error)

	// Outbox keeps what handled updates owe the players (outbox.go).
	Outbox

	// Polls names the game of each team-vote poll (polls.go).
	Polls

	// Daily keeps the groups' daily puzzles (daily.go).
	Daily

	// Chats keeps the groups' own settings, their language (chat.go).
	Chats

	// ReviewQueue keeps the games' reviews waiting for the engine
	// (review.go).
	ReviewQueue

	// Tournaments keeps the groups' arena tournaments (tournament.go).
	Tournaments

	// Mining keeps the log of finished games, the puzzle miner's mark in
	// it and the puzzles it found (mining.go).
	Mining
	// Versus keeps the matches between groups (versus.go).
	Versus

	// PuzzleStats reads a puzzle's rating and counts; ErrNotFound if the
	// puzzle was never attempted.
	PuzzleStats(ctx context.Context, id string) (*PuzzleStats, error)
	// PutPuzzleStats writes p if the stored version is p.Version (0: none
	// stored yet), then sets p.Version to the new one; ErrConflict if
	// another write came first.
	PutPuzzleStats(ctx context.Context, p *PuzzleStats) error

	// Ping checks that the backend answers.
	Ping(ctx context.Context) error
	// Writable checks that the backend takes writes (a Redis that answers
	// may still refuse them: read-only replica, out of memory, disk
	// full), by a write that changes no record.
	Writable(ctx context.Context) error
	// Close releases the store; later calls fail with ErrUnavailable.
	Close() error
}
