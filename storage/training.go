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
}

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
