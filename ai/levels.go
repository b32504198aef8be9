package ai

import "time"

// Level is one difficulty players choose from: search limits and how far
// from the best move it may stray.
type Level struct {
	Number int
	Name   string
	// Limits bound each move's search. Every level's MoveTime is at most
	// three seconds, so no level is ever slow.
	Limits Limits
	// Noise is the root randomness: each root move's score gets a random
	// bonus of 0..Noise (hundredths of a man) and the highest total is
	// played. 0 plays the best move.
	Noise int
}

// Levels are the six difficulties, weakest first: Levels[n-1] is level n.
// Their order of strength is measured with package ai/match, not assumed.
var Levels = []Level{
	{Number: 1, Name: "Novice", Limits: Limits{Depth: 2, MoveTime: 500 * time.Millisecond}, Noise: 150},
	{Number: 2, Name: "Beginner", Limits: Limits{Depth: 3, MoveTime: 500 * time.Millisecond}, Noise: 70},
	{Number: 3, Name: "Amateur", Limits: Limits{Depth: 5, MoveTime: time.Second}, Noise: 25},
	{Number: 4, Name: "Club player", Limits: Limits{Nodes: 150_000, MoveTime: time.Second}},
	{Number: 5, Name: "Expert", Limits: Limits{Nodes: 600_000, MoveTime: 2 * time.Second}},
	{Number: 6, Name: "Master", Limits: Limits{MoveTime: 3 * time.Second}},
}
