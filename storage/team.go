package storage

import (
	"slices"
	"time"
)

// TeamGame is what a game the chat plays against the AI by vote keeps
// besides the board: the vote on the group's current move, and every
// vote closed so far. The group's side is the game's player that is not
// the AI.
type TeamGame struct {
	// Window is how long a vote stays open after its first ballot.
	Window time.Duration `json:"window"`
	// Ply is the board version the open vote is for; Ballots are the votes
	// cast on it, in the order cast; ClosesAt is when it closes (zero until
	// the first ballot).
	Ply      int       `json:"ply"`
	Ballots  []Ballot  `json:"ballots,omitempty"`
	ClosesAt time.Time `json:"closes_at,omitzero"`
	// OpenedAt is when the open vote's first ballot came (zero until it).
	OpenedAt time.Time `json:"opened_at,omitzero"`
	// StartedBy is the member who started the game: their vote to resign
	// ends it at once.
	StartedBy int64 `json:"started_by,omitzero"`
	// Turns are the votes closed so far, oldest first.
	Turns []TeamTurn `json:"turns,omitempty"`
	// ByPoll: the chat votes in a native Telegram poll of the engine's
	// shortlist (and by /vote), not by buttons on the card.
	ByPoll bool `json:"by_poll,omitempty"`
	// Poll is the poll of the chat's current or latest turn (ByPoll only).
	Poll *TeamPoll `json:"poll,omitempty"`
	// Sides is set in a game two chats play against each other, each by
	// vote (play/versus): White's chat first. Each side votes in its own
	// chat, on its own moves only, and its vote closes when Quorum
	// members have voted or, at the latest, at ClosesAt, which is then
	// set when its turn begins: the turn's start plus Pace.
	Sides []TeamSide    `json:"sides,omitempty"`
	Pace  time.Duration `json:"pace,omitzero"`
}

// TeamSide is one chat's side of a game between two chats.
type TeamSide struct {
	Chat int64 `json:"chat"`
	// Quorum is how many votes close the side's vote before its time runs
	// out (0: only the time closes it).
	Quorum int `json:"quorum,omitzero"`
	// LeavesAt is when the side resigns, having said it leaves (zero:
	// it stays).
	LeavesAt time.Time `json:"leaves_at,omitzero"`
}

// TeamPoll is the native poll a turn is voted in: claimed for the board
// version Ply with its options (moves in notation) before it is sent,
// then named by the id and message Telegram gave it.
type TeamPoll struct {
	Ply       int      `json:"ply"`
	Moves     []string `json:"moves"`
	ID        string   `json:"id,omitzero"`
	MessageID int      `json:"message_id,omitzero"`
	// Stopped is set once the bot has asked Telegram to stop it.
	Stopped bool `json:"stopped,omitempty"`
}

// Ballot is one member's vote: a move in notation.
type Ballot struct {
	UserID int64  `json:"user_id"`
	Name   string `json:"name,omitzero"`
	Move   string `json:"move"`
	// ByPoll marks a ballot cast in the turn's poll: the member may
	// retract it or change it there, unlike a ballot by button or /vote.
	ByPoll bool `json:"by_poll,omitempty"`
}

// TeamTurn is a closed vote: the move played, the ballots for it and the
// ballots for other moves, each in the order cast.
type TeamTurn struct {
	Ply int `json:"ply"`
	// Chat is the chat whose vote it was, in a game between two chats.
	Chat   int64    `json:"chat,omitzero"`
	Move   string   `json:"move"`
	For    []Ballot `json:"for,omitempty"`
	Others []Ballot `json:"others,omitempty"`
}

// Clone returns a copy of t that shares nothing it could change.
func (t *TeamGame) Clone() *TeamGame {
	if t == nil {
		return nil
	}
	c := *t
	c.Ballots = slices.Clone(t.Ballots)
	c.Sides = slices.Clone(t.Sides)
	if t.Poll != nil {
		p := *t.Poll
		p.Moves = slices.Clone(t.Poll.Moves)
		c.Poll = &p
	}
	if t.Turns != nil {
		c.Turns = make([]TeamTurn, len(t.Turns))
		for i, turn := range t.Turns {
			turn.For = slices.Clone(turn.For)
			turn.Others = slices.Clone(turn.Others)
			c.Turns[i] = turn
		}
	}
	return &c
}
