package storage

import "context"

// DailyChat is a group that turned the daily puzzle on in /settings, and
// the language its card is written in (that of whoever turned it on).
type DailyChat struct {
	ChatID int64  `json:"chat"`
	Lang   string `json:"lang,omitzero"`
}

// DailyPuzzle is one group's puzzle of one day. The record is claimed
// before the card is posted, so that of several replicas only the one
// whose claim wins posts: one card a day, never more.
type DailyPuzzle struct {
	ChatID   int64  `json:"chat"`
	Date     string `json:"date"` // the UTC day, 2006-01-02
	PuzzleID string `json:"puzzle"`
	Lang     string `json:"lang,omitzero"`
	// Solvers are the first correct solvers, in order, as named on the
	// card; Solved counts every correct solver.
	Solvers []DailySolver `json:"solvers,omitzero"`
	Solved  int           `json:"solved,omitzero"`
	// Tried lists every member who tapped a move: one try a day each.
	Tried []int64 `json:"tried,omitzero"`
	// Version is 1 once claimed; UpdateDaily checks it.
	Version int64 `json:"version"`
}

// DailySolver is a member named on the card.
type DailySolver struct {
	UserID int64  `json:"id"`
	Name   string `json:"name"`
}

// Daily keeps the groups' daily puzzles.
type Daily interface {
	// SetDailyChat turns the daily puzzle on (stores c, replacing its
	// language) or off for c.ChatID; turning off an absent chat is no error.
	SetDailyChat(ctx context.Context, c DailyChat, on bool) error
	// DailyChats lists the chats that turned it on, by chat id.
	DailyChats(ctx context.Context) ([]DailyChat, error)
	// ClaimDaily stores d as version 1 (also set on d) only if no puzzle
	// is stored for d.ChatID and d.Date: of any number of concurrent
	// claimers exactly one succeeds, the others get ErrConflict.
	ClaimDaily(ctx context.Context, d *DailyPuzzle) error
	// DailyPuzzle reads a chat's puzzle of a day, or ErrNotFound.
	DailyPuzzle(ctx context.Context, chatID int64, date string) (*DailyPuzzle, error)
	// UpdateDaily writes d if the stored version is d.Version, as version
	// d.Version+1 (also set on d); ErrConflict if another write came first,
	// ErrNotFound if it was never claimed.
	UpdateDaily(ctx context.Context, d *DailyPuzzle) error
}
