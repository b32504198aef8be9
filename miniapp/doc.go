// Package miniapp is the live board: a Telegram Mini App that shows a game
// as it is played, served by `bashni bot` itself.
//
// The page and its script are embedded (no build step, no framework): the
// board is SVG, towers drawn as stacks, coloured by Telegram's theme. The
// page talks to a small JSON API over play.Service (state, move, draw
// offer, resign, a loss on time claimed, a finished game's analysis; with
// puzzles configured, a puzzle page too) and hears every change to its
// game by server-sent events.
//
// Who is asking is told by Telegram's signed initData, checked on every
// request (initdata.go): players move, anyone else watches. A move made in
// the app goes through the same service as a tap on the card's picker and
// is stored with its event (play.Detached); the bot shows that event on
// the chat card as it shows its own (the app never calls into the bot;
// both take their words from package texts), so the card, the
// notices and the board stay one game. A refused request's HTTP status is
// its error's kind (play.KindOf; the table is errors.go): 422 invalid, 403
// forbidden, 409 conflict (with the game as it is now), 404, 429, 503.
//
// Opened without a game, the page is the lobby (lobby.go): it starts a
// game against the AI through the same play.NewAIGame the bot's AI menu
// calls, in the player's private chat with its first card owed (the bot
// posts it, as for an accepted challenge), then shows that game's board.
//
// Live updates: every write of a game record goes through WatchStore, which
// tells the Broker; on Redis the broker publishes the game id on a channel
// every replica listens to, so a board open on one replica hears a move
// made on another. Each open board then reads the game afresh, so an event
// lost or doubled changes nothing but timing.
package miniapp
