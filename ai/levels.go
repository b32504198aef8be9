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
// -b level=N -games 522 -concurrency 2: every shipped opening with each
// colour, 200 games from level 16 up), not assumed; the ladder aims at 60
// to 75%. Strength does not grow smoothly with the budget (a search that
// just finishes one more iteration plays better than one a little
// larger), so budgets such as 900 and 14,500 were found by measuring
// their neighbours, not by a formula:
//
//	 2 vs  1      90 nodes    68.2%  (322-68-132, 522 games)  Elo +133 ± 30
//	 3 vs  2     130 nodes    70.2%  (336-61-125, 522 games)  Elo +149 ± 30
//	 4 vs  3     195 nodes    67.4%  (324-56-142, 522 games)  Elo +126 ± 30
//	 5 vs  4     290 nodes    70.9%  (346-48-128, 522 games)  Elo +155 ± 31
//	 6 vs  5     430 nodes    69.1%  (342-37-143, 522 games)  Elo +139 ± 31
//	 7 vs  6     630 nodes    69.8%  (351-27-144, 522 games)  Elo +146 ± 32
//	 8 vs  7     900 nodes    71.6%  (349-49-124, 522 games)  Elo +160 ± 31
//	 9 vs  8   1,400 nodes    70.0%  (344-43-135, 522 games)  Elo +147 ± 31
//	10 vs  9   2,500 nodes    70.1%  (348-36-138, 522 games)  Elo +148 ± 31
//	11 vs 10   4,000 nodes    66.8%  (337-23-162, 522 games)  Elo +121 ± 31
//	12 vs 11   8,000 nodes    71.3%  (360-24-138, 522 games)  Elo +158 ± 32
//	13 vs 12  14,500 nodes    68.5%  (336-43-143, 522 games)  Elo +135 ± 31
//	14 vs 13  32,000 nodes    73.5%  (364-39-119, 522 games)  Elo +177 ± 32
//	15 vs 14  65,000 nodes    71.0%  (358-25-139, 522 games)  Elo +155 ± 32
//	16 vs 15  140,000 nodes   70.0%  (134-12-54, 200 games)   Elo +147 ± 51
//	17 vs 16  300,000 nodes   70.5%  (132-18-50, 200 games)   Elo +151 ± 50
//	18 vs 17  700,000 nodes   67.8%  (126-19-55, 200 games)   Elo +129 ± 49
//
// Level 19 above the ladder is timed, not a node budget; its step over 18
// at 1 s a move is in docs/engine.md (measured on a loaded machine).
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
	{Number: 8, Name: "Club regular", Limits: Limits{Nodes: 900, MoveTime: time.Second}},
	{Number: 9, Name: "Junior III", Limits: Limits{Nodes: 1_400, MoveTime: time.Second}},
	{Number: 10, Name: "Junior II", Limits: Limits{Nodes: 2_500, MoveTime: time.Second}},
	{Number: 11, Name: "Junior I", Limits: Limits{Nodes: 4_000, MoveTime: time.Second}},
	{Number: 12, Name: "Category III", Limits: Limits{Nodes: 8_000, MoveTime: time.Second}},
	{Number: 13, Name: "Category II", Limits: Limits{Nodes: 14_500, MoveTime: time.Second}},
	{Number: 14, Name: "Category I", Limits: Limits{Nodes: 32_000, MoveTime: time.Second}},
	{Number: 15, Name: "Candidate master", Limits: Limits{Nodes: 65_000, MoveTime: time.Second}},
	{Number: 16, Name: "Master", Limits: Limits{Nodes: 140_000, MoveTime: time.Second}},
	{Number: 17, Name: "International master", Limits: Limits{Nodes: 300_000, MoveTime: 3 * time.Second}},
	{Number: 18, Name: "Grandmaster", Limits: Limits{Nodes: 700_000, MoveTime: 3 * time.Second}},
	// Level 19 is the engine at full strength, above the ladder: no node
	// budget, so it thinks for its whole MoveTime on every move, with the
	// engine's helper threads (ai.threads) where the machine has cores.
	// Unlike the levels below it plays more strongly on a faster machine.
	{Number: 19, Name: "Champion", Limits: Limits{MoveTime: 3 * time.Second}},
}

// LadderTop is the highest level with a node budget (18): the top of the
// measured ladder. The level above it is bounded by time alone, so its play
// depends on the machine and it costs its whole time on every move; what
// needs a fixed or cheap amount of search (rating puzzles by level, a
// player's hint) stops here.
const LadderTop = 18
