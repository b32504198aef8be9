package storage

import (
	"context"
	"slices"
	"time"
)

// VersusChallenge is a group's challenge to another group (package
// play/versus): made by /versus in From's chat and taken by the first
// group whose administrator accepts it, which starts Game.
type VersusChallenge struct {
	Code      string     `json:"code"`
	From      VersusSide `json:"from"`
	By        int64      `json:"by,omitzero"` // the member who made it
	CreatedAt time.Time  `json:"created_at"`
	ExpiresAt time.Time  `json:"expires_at"`
	// Game is the game the accepted challenge starts ("" while open),
	// To the group that accepted it, with the rules it chose and the lot
	// drawn for the colours: kept with the claim, so that an accept tried
	// again after a crash starts the same game.
	Game      string        `json:"game,omitzero"`
	To        VersusSide    `json:"to,omitzero"`
	Variant   string        `json:"variant,omitzero"`
	Pace      time.Duration `json:"pace,omitzero"`
	FromWhite bool          `json:"from_white,omitempty"`
	Version   int64         `json:"version"`
}

// VersusSide is a group as one side of a match: its chat, its title and
// the language the bot speaks there.
type VersusSide struct {
	Chat  int64  `json:"chat"`
	Title string `json:"title,omitzero"`
	Lang  string `json:"lang,omitzero"`
}

// VersusChat is a group's part in the matches between groups: what its
// administrators chose, its Glicko-2 rating, its season and its matches.
type VersusChat struct {
	ID    int64  `json:"id"`
	Title string `json:"title,omitzero"`
	Lang  string `json:"lang,omitzero"` // the language the bot speaks there
	// Off: an administrator turned the matches off (none made, none
	// accepted).
	Off bool `json:"off,omitempty"`
	// Quorum is how many members' votes close the group's vote before its
	// time runs out (0: the default).
	Quorum int `json:"quorum,omitzero"`
	// Rating is the group's Glicko-2 rating (zero: never rated).
	Rating float64 `json:"r,omitzero"`
	RD     float64 `json:"rd,omitzero"`
	Vol    float64 `json:"vol,omitzero"`
	// Season is the season Points and the counts are of; Last is the
	// group's standing at the end of the season it played before.
	Season int           `json:"season,omitzero"`
	Points float64       `json:"points,omitzero"`
	Played int           `json:"played,omitzero"`
	Last   *VersusSeason `json:"last,omitempty"`
	// Waiting is since when the group waits for another to be paired
	// with (zero: it does not).
	Waiting time.Time `json:"waiting,omitzero"`
	// Playing are the group's matches under way (game ids).
	Playing []string `json:"playing,omitempty"`
	// History is the group's latest matches, newest last.
	History []VersusMatch `json:"history,omitempty"`
	// Counted are the last games counted in the record (Counted).
	Counted []string `json:"counted,omitempty"`
	Version int64    `json:"version"`
}

// VersusSeason is a group's standing at the end of a season.
type VersusSeason struct {
	Season int     `json:"season"`
	Points float64 `json:"points"`
	Played int     `json:"played"`
	Rating float64 `json:"r"`
}

// VersusMatch is one match of a group: the game, the other group and the
// score (1 won, 0.5 drawn, 0 lost).
type VersusMatch struct {
	Game     string    `json:"game"`
	Opponent string    `json:"opponent,omitzero"`
	Score    float64   `json:"score"`
	At       time.Time `json:"at"`
}

// Clone returns a copy of c that shares nothing it could change.
func (c *VersusChat) Clone() *VersusChat {
	d := *c
	if c.Last != nil {
		l := *c.Last
		d.Last = &l
	}
	d.Playing = slices.Clone(c.Playing)
	d.History = slices.Clone(c.History)
	d.Counted = slices.Clone(c.Counted)
	return &d
}

// Versus keeps the matches between groups: the challenges and each
// group's record.
type Versus interface {
	// PutVersusChallenge writes c if the stored version is c.Version (0:
	// none stored), then sets c.Version to the new one; ErrConflict if
	// another write came first.
	PutVersusChallenge(ctx context.Context, c *VersusChallenge) error
	// VersusChallenge reads a challenge, or ErrNotFound.
	VersusChallenge(ctx context.Context, code string) (*VersusChallenge, error)
	// PutVersusChat writes c as PutVersusChallenge does, and lists it
	// among the groups that take part.
	PutVersusChat(ctx context.Context, c *VersusChat) error
	// VersusChat reads a group's record, or ErrNotFound.
	VersusChat(ctx context.Context, id int64) (*VersusChat, error)
	// VersusChats lists every group's record, in no order.
	VersusChats(ctx context.Context) ([]*VersusChat, error)
}
