package play

import "github.com/bashni/bashni/storage"

// The records play hands to its callers are the store's, named here so
// that the doors (bot, miniapp) and package texts speak play's vocabulary
// and import no storage package: play is the one that owns how a game, a
// challenge or a user is kept.
type (
	// Player is one side of a game or challenge.
	Player = storage.Player
	// User is what play knows of a Telegram user: name, language,
	// settings, whether the bot may write to them.
	User = storage.User
	// Challenge is an open or addressed challenge in a chat.
	Challenge = storage.Challenge
)
