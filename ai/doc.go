// Package ai is the Bashni engine: an iterative-deepening alpha-beta search
// with principal-variation search, a transposition table, quiescence over
// captures and an evaluation that understands towers, plus the difficulty
// levels players choose from.
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
// Strength comes from Levels: level 1 ("Novice") searches two plies and
// picks among moves within a wide margin of the best at random; level 6
// ("Master") searches at full strength for up to three seconds. Each level
// beats the one below it in matches (package ai/match).
package ai
