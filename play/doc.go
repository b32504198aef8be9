// Package play is the game service: challenges, accepting
// them, moves with compare-and-set, the AI's turns, draw offers,
// resignation, reminders and wins on time, ratings and stats, and the
// engine's help: hints and takebacks, on the local engine pool or on
// remote workers (RemoteThinker); both also search the positions of the
// reviews of finished games that package play/review keeps.
//
// It imports no Telegram client, but it is not blind to the chat: its
// records name the chats and messages that show a game (which card to
// edit), since what a stored change owes a chat is decided with it.
//
// Every operation reads a game from the store, decides with package rules,
// and writes it back with a compare-and-set on the record's version; a lost
// race is retried from a fresh read, so of two players tapping at once
// exactly one move lands and the other is told the board has changed. The
// board's own version, shown to players and carried by the bot's buttons,
// is the ply count: bookkeeping writes (which message shows the game) never
// make a player's buttons stale.
//
// The service returns what happened (an Outcome); the bot decides what to
// send. What it refuses is a *Error of a Kind (errors.go: invalid,
// forbidden, conflict, not found, ...), and the doors answer by the kind:
// the Mini App's HTTP status, whether the bot logs a fault. Clock, id
// generator, AI and store are injected.
package play
