// Package review analyses finished games with the engine: every position
// of a game searched within a bounded time, the evaluation of each move,
// and the worst mistakes of the game's people (an Analysis). A review is
// kept with the game in the store (kept.go), so every replica shows the
// same verdicts and none spends the engine on a game reviewed already.
//
// Reviews are the engine's heaviest work, and anyone may ask for one of
// any finished game. With a queue (WithQueue) a review is first admitted
// to a bounded, ordered queue kept in the store, within a per-user share
// (refused with ErrReviewsFull, ErrTooManyReviews), and worked on by the
// runners of every replica (Service.Run) position by position, each
// position stored as it is found under a lease, so a review whose replica
// dies is taken up by another where it stopped (queue.go, runner.go).
// Without one, a review runs at once in the caller's process, and callers
// asking for the same game at once share it (flights.go).
//
// The review is kept in the game's record (its Review and ReviewWork
// fields, which only this package writes), read and written through the
// package's own Store with the record's compare-and-set, as play writes
// the rest of it. The engines (play.EnginePool, play.RemoteThinker) search
// the positions; package play knows nothing else of reviews.
package review
