// Package training is how a player learns Bashni away from a game: the
// course (/learn, Course), puzzles rated against each player (/puzzle,
// Puzzles, answers paced as a person solves), and the groups' daily
// puzzle (Daily). It speaks no Telegram: bot/training and the Mini App
// are its doors.
//
// A player's progress (their lesson and task, the stars earned, their
// puzzle rating, the puzzles tried and the one under way) lives in their
// user record, changed through play.ChangeUser by compare-and-set, so
// that a game counted or a setting saved at the same instant keeps it and
// it keeps them. Each service has
// its own store port (store.go), and what it refuses is a *play.Error of
// play's kinds (errors.go), which the doors answer as they answer the
// game's. The puzzles themselves (positions, solutions, the Glicko-2
// rating) are package puzzle's.
package training
