package storage

import "context"

// Polls maps the id of a native Telegram poll the bot sent for a team
// game's vote to that game. A poll's answers (poll_answer updates) name
// the poll and the voter but no chat or message, so whichever replica
// receives one finds the game here.
type Polls interface {
	// PutPoll records that pollID votes in game gameID.
	PutPoll(ctx context.Context, pollID, gameID string) error
	// PollGame returns the game of pollID, or ErrNotFound.
	PollGame(ctx context.Context, pollID string) (string, error)
	// DeletePoll forgets pollID (the poll has been stopped); forgetting
	// one never recorded is not an error.
	DeletePoll(ctx context.Context, pollID string) error
}
