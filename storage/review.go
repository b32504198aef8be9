package storage

import (
	"context"
	"errors"
	"time"
)

// ReviewTicket is a finished game's review admitted to the review queue:
// waiting, or under way, until the review is kept with the game.
type ReviewTicket struct {
	GameID string    `json:"game"`
	UserID int64     `json:"user"`   // who asked for it
	Queued time.Time `json:"queued"` // when it was admitted
}

// Refusals of EnqueueReview.
var (
	// ErrQueueFull: the queue holds as many reviews as it may.
	ErrQueueFull = errors.New("storage: the review queue is full")
	// ErrUserQueueFull: the user has as many reviews queued as they may.
	ErrUserQueueFull = errors.New("storage: the user has as many reviews queued as allowed")
)

// ReviewQueue is the queue of game reviews, kept in the store so that any
// replica can take the next review up, and none is lost with a process.
// Both stores provide it and pass storagetest's suite for it.
type ReviewQueue interface {
	// EnqueueReview admits t unless the queue holds max tickets already
	// (ErrQueueFull) or t's user holds perUser (ErrUserQueueFull), in one
	// atomic step, and returns its place, 1 for the head. A game already
	// in the queue is not admitted twice: its place comes back, whoever
	// asked, with no limit applied.
	EnqueueReview(ctx context.Context, t ReviewTicket, max, perUser int) (place int, err error)
	// ReviewPlace is game id's place in the queue, 0 if it is not there.
	ReviewPlace(ctx context.Context, id string) (int, error)
	// ReviewQueue lists up to n tickets from the head, in the order they
	// were admitted.
	ReviewQueue(ctx context.Context, n int) ([]ReviewTicket, error)
	// FinishReview takes game id out of the queue; one not there is no
	// error.
	FinishReview(ctx context.Context, id string) error
}
