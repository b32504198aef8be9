// Package ai is the Bashni engine: an iterative-deepening alpha-beta search
// with principal-variation search, a transposition table, quiescence over
// captures and an evaluation that understands towers, plus the difficulty
// levels players choose from. It plays every ruleset of package rules; the
// evaluation's weights are chosen by the root position's variant
// (WeightsFor: RussianWeights for Russian draughts, DefaultWeights for
// both schools of Bashni).
//
// An Engine owns its transposition table and search buffers; make one with
// New and call Search. An Engine may be shared by goroutines, but its
// searches run one at a time (Search holds an internal lock); for parallel
// searches use one Engine per goroutine. Options.Threads makes one search
// use several cores: helper threads search the same position and share the
// table without locks (Lazy SMP, threads.go).
//
// Scores are in hundredths of a man from the side to move's point of view.
// A won position scores above MateScore-MaxPly, a lost one below its
// negation.
//
// Strength comes from Levels: each is a fixed node budget, from level 1
// ("Novice", 60 nodes: it sees the captures in front of it and little
// else) to the ladder's top (LadderTop, "Grandmaster", 700,000 nodes),
// spaced so that each level scores 60 to 75% against the one below, as
// measured in matches (package ai/match; the table is in levels.go and
// docs/engine.md). A node budget is searched on one thread, so a level
// plays alike on any machine; Options.Threads speed up time-limited
// searches, among them level 19 ("Champion") above the ladder, which has no
// node budget and thinks for its whole time on every move.
package ai
