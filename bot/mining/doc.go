// Package mining is the Telegram side of the puzzles found in the games
// played here (play/mining): on each clock tick it brings the puzzles
// found since the last tick into the pool /puzzle draws from, and tells
// each game's players, once and in private, that their game became a
// puzzle, with a button to solve it and one to share its link
// (t.me/<bot>?start=pz<id>, which bot/training opens) to any chat.
package mining
