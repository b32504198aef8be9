package team

import (
	"fmt"

	"github.com/bashni/bashni/play"
)

// The refusals of games a chat plays by vote, of the core's kinds (the
// doors answer by the kind), each naming the text the player reads
// (texts/catalog/team.*.yaml).
var (
	ErrNotTeamGame  = play.Refusal(play.Invalid, "err_not_team_game", "team: this is not a game the chat plays by vote")
	ErrVoteClosed   = play.Refusal(play.Conflict, "err_vote_closed", "team: this vote has closed")
	ErrAlreadyVoted = play.Refusal(play.Conflict, "err_already_voted", "team: you have voted on this move already")
	ErrBadWindow    = play.Refusal(play.Invalid, "err_bad_window", "team: a vote lasts from 10 seconds to an hour")
	// ErrNotYourTurn: a ballot from the chat that is not to move in a
	// game between two chats.
	ErrNotYourTurn = play.Refusal(play.Conflict, "err_vote_other_side", "team: the other chat is to move")
	// Poll answers, which the player is never told of (a poll shows its
	// own answer). ErrUnknownPoll is an ErrVoteClosed: the poll's vote is
	// over and forgotten, or (for a moment after it is sent) not yet
	// recorded.
	ErrBadPollAnswer = play.Refusal(play.Invalid, "", "team: the answer names no option of the poll")
	ErrUnknownPoll   = fmt.Errorf("%w: no game is voted in this poll", ErrVoteClosed)
)
