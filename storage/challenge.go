package storage

import "time"

// Challenge is an invitation to play that has not been accepted yet. It
// vanishes at ExpiresAt.
type Challenge struct {
	ID              string `json:"id"`
	ChatID          int64  `json:"chat_id,omitzero"`
	MessageID       int    `json:"message_id,omitzero"`
	InlineMessageID string `json:"inline_message_id,omitzero"`

	From   Player  `json:"from"`
	To     *Player `json:"to,omitempty"`     // nil = open to anyone
	ToName string  `json:"to_name,omitzero"` // for a challenge to @name whose id is unknown

	Variant   string `json:"variant,omitzero"`
	FromColor string `json:"from_color,omitzero"` // "white", "black" or "random"
	AILevel   int    `json:"ai_level,omitzero"`
	// TimeControl makes the game a live one ("5+3"); empty: correspondence.
	TimeControl string `json:"time_control,omitzero"`
	// DaysPerMove makes it a correspondence game at that pace (days for
	// each move); zero: the server's one timeout.
	DaysPerMove int `json:"days_per_move,omitzero"`
	// Lang is the challenger's language, the game's if its group chose
	// none.
	Lang string `json:"lang,omitzero"`

	CreatedAt time.Time `json:"created_at,omitzero"`
	ExpiresAt time.Time `json:"expires_at,omitzero"` // zero = never
}
