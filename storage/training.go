package storage

import "time"

// Training is a user's progress in the course (/learn) and the puzzles
// (/puzzle). It lives in the user's record, like the rest of what the bot
// remembers about a person.
type Training struct {
	// Lesson is the course's next lesson for this user, 0-based: the
	// number completed.
	Lesson int `json:"lesson,omitzero"`
	// Task is the next task of that lesson, 0-based; Missed says a wrong
	// move was tried in it, so that answering it earns no star.
	Task   int  `json:"task,omitzero"`
	Missed bool `json:"missed,omitzero"`
	// Stars has, by lesson key, a bit for each task (1<<task) ever
	// answered at the first try: kept when the course starts over.
	Stars map[string]int `json:"stars,omitzero"`
	// Rating is the user's puzzle rating; zero until the first attempt.
	Rating Glicko `json:"rating,omitzero"`
	// Solved and Failed list the puzzles tried, oldest first, so that the
	// next puzzle is one not seen before.
	Solved []string `json:"solved,omitzero"`
	Failed []string `json:"failed,omitzero"`
	// Puzzle is the puzzle being solved now, if any.
	Puzzle *PuzzleAttempt `json:"puzzle,omitzero"`
	// Paced is the pace of the user's puzzle answers: when the next
	// answer would be due had every answer come at the pace allowed
	// (play/training/puzzlepace.go).
	Paced time.Time `json:"paced,omitzero"`
	// History is the user's puzzle rating after each of their last rated
	// attempts (at most HistoryLen, oldest first), for /stats.
	History []int `json:"history,omitzero"`
	// Streak is the user's Puzzle Streak under way: the puzzles solved in
	// a row so far; StreakRuns counts the runs begun (it varies the
	// puzzles of the next one); StreakBest is their longest run.
	Streak     int `json:"streak,omitzero"`
	StreakRuns int `json:"streak_runs,omitzero"`
	StreakBest int `json:"streak_best,omitzero"`
	// StreakGroups are the groups whose streak board the user's best is
	// entered on (those they asked for /streak in), newest last.
	StreakGroups []int64 `json:"streak_groups,omitzero"`
}

// HistoryLen is how many ratings Training.History keeps: a sparkline of
// them fits a line of /stats on a phone.
const HistoryLen = 20

// StreakScope is the scope of chat's board of Puzzle Streak bests (0:
// everyone's), kept by SetStanding and Top like a leaderboard of ratings,
// a line's Rating being the best run. Telegram's chat ids have at most 52
// significant bits, so a scope 2^53 above the chat's id is no chat's.
func StreakScope(chat int64) int64 { return chat + 1<<53 }

// Glicko is a Glicko-2 rating: rating, deviation, volatility.
type Glicko struct {
	R   float64 `json:"r"`
	RD  float64 `json:"rd"`
	Vol float64 `json:"vol"`
}

// PuzzleAttempt is a puzzle under way: which one, and how many of its
// solution's moves have been played.
type PuzzleAttempt struct {
	ID    string `json:"id"`
	Moves int    `json:"moves,omitzero"`
	// Streak says the puzzle is one of a Puzzle Streak: unrated, and its
	// end goes on with the run or ends it.
	Streak bool `json:"streak,omitzero"`
}

// PuzzleStats is what the bot keeps about one puzzle: its rating, which
// players' attempts move as lichess moves its puzzles', and counts.
type PuzzleStats struct {
	ID       string `json:"id"`
	Rating   Glicko `json:"rating"`
	Attempts int    `json:"attempts,omitzero"`
	Solves   int    `json:"solves,omitzero"`
	// Version is 0 for a puzzle never stored; PutPuzzleStats checks it.
	Version int64 `json:"version"`
}
