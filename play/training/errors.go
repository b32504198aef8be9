package training

import "github.com/bashni/bashni/play"

// Refusals of the course, the puzzles and the daily puzzle: play's kinds,
// so that the doors answer them as they answer a game's (the Mini App's
// status, whether the bot logs), each naming the text a player reads
// (texts/catalog/train.*.yaml, daily.*.yaml). ErrDailyClosed's text needs
// the day, and ErrNoDaily is a tick's, never a player's: the bot words
// those itself.
var (
	ErrNoPuzzle     = play.Refusal(play.NotFound, "err_no_puzzle", "training: no puzzle is under way; send /puzzle for one")
	ErrStalePuzzle  = play.Refusal(play.Conflict, "err_stale_puzzle", "training: that board is from an earlier puzzle or move")
	ErrNoPuzzlesSet = play.Refusal(play.NotFound, "err_no_puzzles", "training: no puzzles are loaded")
	ErrDailyClosed  = play.Refusal(play.Conflict, "", "training: that daily puzzle is closed; its day is over")
	ErrDailyTried   = play.Refusal(play.TooMany, "daily_tried", "training: one try each a day, and this member has had theirs")
	ErrNoDaily      = play.Refusal(play.NotFound, "", "training: no daily puzzles are loaded")
	ErrNotTheTask   = play.Refusal(play.Invalid, "lesson_not_task", "training: a legal move, but not the one the lesson asks for")
	ErrStaleLesson  = play.Refusal(play.Conflict, "err_stale_lesson", "training: that board is from another lesson")
	ErrCourseDone   = play.Refusal(play.NotFound, "course_done", "training: the course is complete")
	// ErrPuzzleTooFast: answers come faster than a person solves
	// (puzzlepace.go); nothing is changed, and the answer may come again.
	ErrPuzzleTooFast = play.Refusal(play.TooMany, "err_puzzle_too_fast", "training: puzzle answers are coming faster than anyone solves; wait a few seconds")
	// ErrNoTheme: /puzzle named a theme no puzzle has.
	ErrNoTheme = play.Refusal(play.Invalid, "err_puzzle_theme", "training: no puzzle has that theme")
)

// maxAttempts bounds the compare-and-set retries of a shared record (a
// puzzle's rating, a group's daily puzzle), as play bounds a game's.
const maxAttempts = 8
