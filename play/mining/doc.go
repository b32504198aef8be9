// Package mining finds puzzles in the games played here, so that the
// puzzle set grows with the players: the games finished since a stored
// mark are read from the store's log of finished games (rated games
// between people, and the AI's games against people), each is searched
// by package puzzle's finder with the rule the shipped set was made by
// (one winning move at each of the solver's turns, the only one at the
// judge's budget and at twice it), and each puzzle found passes the same
// check as the shipped set before it is kept with its game (Miner).
//
// The miner is engine work in the background: `bashni puzzles -mine`
// runs it on one thread at the lowest CPU priority, as often as an
// operator schedules it. Two runs at once do not mine a game twice: the
// mark is held under a lease by compare-and-set, and a run that finds it
// held leaves. A game mined again after a crash finds its puzzles kept
// already (a puzzle's id is its position's), so a run is idempotent.
//
// Feed is the serving side, in every replica of the bot: it adds the
// puzzles found to the pool /puzzle draws from (training.Puzzles.Add)
// and gives the bot the puzzles whose players are still to be told, each
// once (Told, by compare-and-set, after the notice is committed).
package mining
