package storage

import "errors"

// Errors that callers branch on. Stores wrap them with %w and add context, so
// compare with errors.Is.
var (
	// ErrNotFound: no record with that key (or it has expired).
	ErrNotFound = errors.New("storage: not found")

	// ErrConflict: the write lost a race. For UpdateGame the stored version
	// differs from the one the caller read; for CreateGame the id is taken.
	// Nothing was changed; reload and decide again.
	ErrConflict = errors.New("storage: conflict")

	// ErrUnavailable: the backend did not answer in time (down, unreachable,
	// too slow, or closed). A write that failed this way may still have been
	// applied; repeating the identical write is safe, because stores
	// recognise a replay of the write they last applied. Tell the user to
	// try again shortly.
	ErrUnavailable = errors.New("storage: unavailable")

	// ErrCapReached: CreateGameCapped found the user playing as many
	// active games as allowed. Nothing was written.
	ErrCapReached = errors.New("storage: as many active games as allowed")
)
