// Package puzzle is Bashni's tactics trainer without the chat: the puzzle
// line format and the shipped set (puzzles.txt, embedded) and the finder
// that turns games into puzzles. The Glicko-2 ratings that puzzles and
// their solvers earn from each attempt are package rating's.
//
// A puzzle is a position where the side to move (the solver) has exactly
// one move that wins decisively, every other move does not, and the same
// holds after each of the opponent's replies, which are the engine's best:
// the rule lichess-puzzler uses for chess, with this engine as the judge.
// Every judgement is a node-budgeted search on a freshly reset engine, so
// it is the same on any machine and a test can repeat it exactly.
package puzzle
