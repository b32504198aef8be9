package storage

import "context"

// Chat is what a group chose for itself, apart from any one game: the
// language the bot posts there in (empty: none chosen, the players'
// language decides game by game).
type Chat struct {
	ID   int64  `json:"id"`
	Lang string `json:"lang,omitzero"`
}

// Chats keeps the groups' own settings.
type Chats interface {
	// PutChat stores c, replacing what c.ID had; a chat without an id is
	// an error.
	PutChat(ctx context.Context, c Chat) error
	// Chat reads a chat's settings, or ErrNotFound if it never chose any.
	Chat(ctx context.Context, id int64) (*Chat, error)
}
