package team

import (
	"fmt"

	"github.com/bashni/bashni/play"
)

// The refusals of games a chat plays by vote, of the core's kinds (the
// doors answer by the kind; texts names what the player reads).
var (
	ErrNotTeamGame  = &play.Error{Kind: play.Invalid, Message: "team: this is not a game the chat plays by vote"}
	ErrVoteClosed   = &play.Error{Kind: play.Conflict, Message: "team: this vote has closed"}
	ErrAlreadyVoted = &play.Error{Kind: play.Conflict, Message: "team: you have voted on this move already"}
	ErrBadWindow    = &play.Error{Kind: play.Invalid, Message: "team: a vote lasts from 10 seconds to an hour"}
	// Poll answers. ErrUnknownPoll is an ErrVoteClosed: the poll's vote is
	// over and forgotten, or (for a moment after it is sent) not yet
	// recorded.
	ErrBadPollAnswer = &play.Error{Kind: play.Invalid, Message: "team: the answer names no option of the poll"}
	ErrUnknownPoll   = fmt.Errorf("%w: no game is voted in this poll", ErrVoteClosed)
)
