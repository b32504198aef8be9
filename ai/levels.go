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
// Their order of strength is measured with package ai/match (bashni match,
// 100 games each in colour-swapped pairs from the shipped openings, two at
// a time on a 2-core machine), not assumed:
//
//	2 vs 1                        93.5%  (93-1-6)    Elo +463 ± 169
//	3 vs 2                        93.0%  (92-2-6)    Elo +449 ± 155
//	4 vs 3                        94.5%  (94-1-5)    Elo +494 ± 195
//	5 vs 4, both at half budget   78.0%  (74-8-18)   Elo +220 ± 80
//	6 vs 5, both at 1/4 budget    84.5%  (79-11-10)  Elo +295 ± 88
//	6 vs 5, both at 1/10 budget   83.0%  (80-6-14)   Elo +275 ± 90
//	6 at 1/10 budget vs 3         96.5%  (96-1-3)    Elo +576 ± 469
//
// (A "budget" scales a level's node and time limits: scale=0.25 in a
// match spec; the depth-limited levels 1 to 3 need no scaling.)
var Levels = []Level{
	{Number: 1, Name: "Novice", Limits: Limits{Depth: 2, MoveTime: 500 * time.Millisecond}, Noise: 150},
	{Number: 2, Name: "Beginner", Limits: Limits{Depth: 3, MoveTime: 500 * time.Millisecond}, Noise: 70},
	{Number: 3, Name: "Amateur", Limits: Limits{Depth: 5, MoveTime: time.Second}, Noise: 25},
	{Number: 4, Name: "Club player", Limits: Limits{Nodes: 150_000, MoveTime: time.Second}},
	{Number: 5, Name: "Expert", Limits: Limits{Nodes: 600_000, MoveTime: 2 * time.Second}},
	{Number: 6, Name: "Master", Limits: Limits{MoveTime: 3 * time.Second}},
}
