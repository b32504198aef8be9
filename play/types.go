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
	// GameEvent is one change of a game the players are owed the sight
	// of, stored with the change (events.go).
	GameEvent = storage.GameEvent
)

// Game event kinds.
const (
	EventMoved        = storage.EventMoved
	EventEnded        = storage.EventEnded
	EventDrawOffered  = storage.EventDrawOffered
	EventDrawDeclined = storage.EventDrawDeclined
	EventReminder     = storage.EventReminder
	EventNotice       = storage.EventNotice
	EventStarted      = storage.EventStarted
	EventRematch      = storage.EventRematch
	// EventRematchOffered is storage.EventRematchOffered.
	EventRematchOffered = storage.EventRematchOffered
	// EventRematchDeclined is storage.EventRematchDeclined.
	EventRematchDeclined = storage.EventRematchDeclined
	// EventRematchWithdrawn is storage.EventRematchWithdrawn.
	EventRematchWithdrawn = storage.EventRematchWithdrawn
	// EventFirstTurn is storage.EventFirstTurn.
	EventFirstTurn = storage.EventFirstTurn
)
