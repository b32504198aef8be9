// Package rating is the one Glicko-2 of the bot: players' game ratings
// (global and in each group), puzzles and their solvers, and anything else
// that wins and loses against something rated (a chat playing a chat).
// It is pure arithmetic: no storage, no time, no text.
//
// A rated game is a rating period of its own for each player, as lichess
// rates games: the two ratings before it give the two after it (Game).
// A rating is provisional while its deviation is above ProvisionalRD, as
// lichess shows it with a "?" (Shown).
package rating
