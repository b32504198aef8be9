package training

import "github.com/bashni/bashni/play"

// Refusals of the course, the puzzles and the daily puzzle: play's kinds,
// so that the doors answer them as they answer a game's (the Mini App's
// status, whether the bot logs), and texts gives each its words.
var (
	ErrNoPuzzle     = refusal(play.NotFound, "training: no puzzle is under way; send /puzzle for one")
	ErrStalePuzzle  = refusal(play.Conflict, "training: that board is from an earlier puzzle or move")
	ErrNoPuzzlesSet = refusal(play.NotFound, "training: no puzzles are loaded")
	ErrDailyClosed  = refusal(play.Conflict, "training: that daily puzzle is closed; its day is over")
	ErrDailyTried   = refusal(play.TooMany, "training: one try each a day, and this member has had theirs")
	ErrNoDaily      = refusal(play.NotFound, "training: no daily puzzles are loaded")
	ErrNotTheTask   = refusal(play.Invalid, "training: a legal move, but not the one the lesson asks for")
	ErrStaleLesson  = refusal(play.Conflict, "training: that board is from another lesson")
	ErrCourseDone   = refusal(play.NotFound, "training: the course is complete")
	// ErrPuzzleTooFast: answers come faster than a person solves
	// (puzzlepace.go); nothing is changed, and the answer may come again.
	ErrPuzzleTooFast = refusal(play.TooMany, "training: puzzle answers are coming faster than anyone solves; wait a few seconds")
)

// maxAttempts bounds the compare-and-set retries of a shared record (a
// puzzle's rating, a group's daily puzzle), as play bounds a game's.
const maxAttempts = 8

func refusal(k play.Kind, msg string) *play.Error { return &play.Error{Kind: k, Message: msg} }
