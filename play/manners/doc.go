// Package manners is what two people agree on in a game between them,
// beside the moves: a line of conditional moves ("if they play X, I play
// Y") a player leaves in a slow game, the abort of a game no side has
// moved in yet, and a takeback the opponent accepts.
//
// Everything it keeps is the game's own part of the record
// (play.Game.Feature, under the name "manners"), so it changes in the
// game's compare-and-set and survives crashes and replicas with the
// game; it needs no store of its own. A conditional answer is played by
// Service.Answer, the core's MoveHook (play.Service.AfterMove, at
// wiring), within the write of the opponent's move itself: a crash
// between the two cannot leave the move without its answer.
//
// The package builds on the core's seams (ChangeGame, PlayFor,
// TakeBackFor, AfterMove) and knows nothing of Telegram; the bot's side
// is bot/manners.
package manners
