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
	// played. 0 plays the best move. No level uses it today: a noisy
	// search must score every root move exactly, which at the levels'
	// budgets cost about 250 Elo, more than a step between levels.
	Noise int
}

// Levels are the difficulties, weakest first: Levels[n-1] is level n.
// Each is a node budget searched on one thread, so it plays alike on any
// machine; the budgets grow by about 1.5 at the bottom and 2 at the top,
// where doubling the search is worth less. Each level's score against the
// one below is measured with package ai/match (bashni match -a level=N+1
// -b level=N -games 200 -concurrency 2, colour-swapped pairs from the
// shipped openings), not assumed; the ladder aims at 60 to 75%:
//
//	 2 vs  1      90 nodes    63.0%  (113-26-61, 200 games)  Elo +92 ± 47
//	 3 vs  2     130 nodes    70.5%  (130-22-48, 200 games)  Elo +151 ± 50
//	 4 vs  3     195 nodes    71.5%  (130-26-44, 200 games)  Elo +160 ± 49
//	 5 vs  4     290 nodes    68.2%  (128-17-55, 200 games)  Elo +133 ± 50
//	 6 vs  5     430 nodes    68.5%  (128-18-54, 200 games)  Elo +135 ± 50
//	 7 vs  6     630 nodes    68.0%  (127-18-55, 200 games)  Elo +131 ± 49
//	 8 vs  7   1,000 nodes    73.5%  (136-22-42, 200 games)  Elo +177 ± 51
//	 9 vs  8   1,600 nodes    68.0%  (131-10-59, 200 games)  Elo +131 ± 51
//	10 vs  9   2,500 nodes    70.5%  (135-12-53, 200 games)  Elo +151 ± 51
//	11 vs 10   4,000 nodes    69.0%  (135-6-59, 200 games)  Elo +139 ± 52
//	12 vs 11   8,000 nodes    69.5%  (66-7-27, 100 games)  Elo +143 ± 72
//	13 vs 12  16,000 nodes    73.5%  (70-7-23, 100 games)  Elo +177 ± 76
//	14 vs 13  32,000 nodes    70.0%  (66-8-26, 100 games)  Elo +147 ± 72
//	15 vs 14  65,000 nodes    64.0%  (61-6-33, 100 games)  Elo +100 ± 70
//	16 vs 15  140,000 nodes    64.0%  (62-4-34, 100 games)  Elo +100 ± 71
//	17 vs 16  300,000 nodes    65.0%  (62-6-32, 100 games)  Elo +108 ± 70
//	18 vs 17  700,000 nodes    62.5%  (59-7-34, 100 games)  Elo +89 ± 69
//
// Level 1 searches 60 positions: it takes what it must and sees a capture
// coming one move ahead, little more; it is meant for someone who has just
// learned the rules.
var Levels = []Level{
	{Number: 1, Name: "Novice", Limits: Limits{Nodes: 60, MoveTime: time.Second}},
	{Number: 2, Name: "Beginner", Limits: Limits{Nodes: 90, MoveTime: time.Second}},
	{Number: 3, Name: "Learner", Limits: Limits{Nodes: 130, MoveTime: time.Second}},
	{Number: 4, Name: "Weekend player", Limits: Limits{Nodes: 195, MoveTime: time.Second}},
	{Number: 5, Name: "Amateur", Limits: Limits{Nodes: 290, MoveTime: time.Second}},
	{Number: 6, Name: "Park player", Limits: Limits{Nodes: 430, MoveTime: time.Second}},
	{Number: 7, Name: "Club player", Limits: Limits{Nodes: 630, MoveTime: time.Second}},
	{Number: 8, Name: "Club regular", Limits: Limits{Nodes: 1_000, MoveTime: time.Second}},
	{Number: 9, Name: "Junior III", Limits: Limits{Nodes: 1_600, MoveTime: time.Second}},
	{Number: 10, Name: "Junior II", Limits: Limits{Nodes: 2_500, MoveTime: time.Second}},
	{Number: 11, Name: "Junior I", Limits: Limits{Nodes: 4_000, MoveTime: time.Second}},
	{Number: 12, Name: "Category III", Limits: Limits{Nodes: 8_000, MoveTime: time.Second}},
	{Number: 13, Name: "Category II", Limits: Limits{Nodes: 16_000, MoveTime: time.Second}},
	{Number: 14, Name: "Category I", Limits: Limits{Nodes: 32_000, MoveTime: time.Second}},
	{Number: 15, Name: "Candidate master", Limits: Limits{Nodes: 65_000, MoveTime: time.Second}},
	{Number: 16, Name: "Master", Limits: Limits{Nodes: 140_000, MoveTime: time.Second}},
	{Number: 17, Name: "International master", Limits: Limits{Nodes: 300_000, MoveTime: 3 * time.Second}},
	{Number: 18, Name: "Grandmaster", Limits: Limits{Nodes: 700_000, MoveTime: 3 * time.Second}},
}
