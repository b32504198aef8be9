// Package slow is slow play's side in Telegram (over play/slow): /away and
// its settings row, the line on a card of a game whose player is away,
// the opponents told once, the absence ended by the player's move, and the
// "confirm moves" setting the picker asks (bot.Module.ConfirmMove).
package slow
