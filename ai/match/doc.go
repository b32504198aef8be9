// Package match plays engine-against-engine matches to measure strength:
// games in colour-swapped pairs from balanced openings, ended by the rules
// (no legal move, threefold repetition, the 15-move rule) or adjudicated as
// a draw at a ply limit, with the score, the Elo difference and its 95%
// confidence interval.
//
// Every game gets fresh engines and seeds derived from the match seed and
// the game's number, so a match with node or depth limits replays exactly.
//
// A player may also be another build of bashni (Player.Exe), asked for
// each move through its think command, so two versions of the engine can
// be measured against each other (see external.go for the protocol).
package match
