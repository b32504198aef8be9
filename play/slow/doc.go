// Package slow is slow play's side of a player: an absence announced
// ("/away 5d") that stops their clocks in the games played at a pace of
// days per move (play.Game.DaysPerMove), drawn on a yearly allowance, and
// whether their picked moves wait for a second, confirming tap.
//
// The pace itself is the core's (a game's clock): this package holds a
// side's clock through the core's seam (play.Game.Hold and Release within
// play.Service.ChangeGame) and keeps the rest in the user's record
// (storage.User.Slow), changed by compare-and-set (play.ChangeUser). It
// knows nothing of Telegram; the bot's side is bot/slow.
package slow
