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
	// Turns are the votes closed so far, oldest first.
	Turns []TeamTurn `json:"turns,omitempty"`
}

// Ballot is one member's vote: a move in notation.
type Ballot struct {
	UserID int64  `json:"user_id"`
	Name   string `json:"name,omitzero"`
	Move   string `json:"move"`
}

// TeamTurn is a closed vote: the move played, the ballots for it and the
// ballots for other moves, each in the order cast.
type TeamTurn struct {
	Ply    int      `json:"ply"`
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
