package storage

import (
	"strings"
	"time"
)

// User is what the bot remembers about a Telegram user.
type User struct {
	ID       int64  `json:"id"`
	Name     string `json:"name,omitzero"`
	Username string `json:"username,omitzero"` // without "@"; looked up case-insensitively
	Lang     string `json:"lang,omitzero"`
	CanDM    bool   `json:"can_dm,omitzero"`  // has started the bot
	Blocked  bool   `json:"blocked,omitzero"` // a 403 was seen: do not DM
	Theme    string `json:"theme,omitzero"`
	Flip     bool   `json:"flip,omitzero"`
	Notify   bool   `json:"notify,omitzero"`

	// Rating, RD and Vol are the global Glicko-2 rating (package rating).
	// RD 0 is a record from before Glicko-2: Rating is an Elo number,
	// which play carries over once (play/glicko.go).
	Rating float64 `json:"rating,omitzero"` // global; play starts people at 1500
	RD     float64 `json:"rd,omitzero"`     // rating deviation
	Vol    float64 `json:"vol,omitzero"`    // volatility
	Stats  Stats   `json:"stats"`
	// Counted are the last games counted in Stats and Rating (their ids):
	// a finished game's count is written once, whoever tries again
	// (package play, rating.go).
	Counted []string `json:"counted,omitempty"`

	// Training is the course's and the puzzles' progress (training.go).
	Training Training `json:"training,omitzero"`
	// Slow is the slow-play module's part: an absence, move confirmation
	// (slow.go).
	Slow SlowPlay `json:"slow,omitzero"`

	UpdatedAt time.Time `json:"updated_at,omitzero"`

	// Version is 0 for a user never stored (and for a record stored
	// before users had versions); PutUser checks it and moves it on.
	Version int64 `json:"v,omitzero"`
}

// Stats counts a user's finished games.
type Stats struct {
	Games  int `json:"games,omitzero"`
	Wins   int `json:"wins,omitzero"`
	Draws  int `json:"draws,omitzero"`
	Losses int `json:"losses,omitzero"`
	Streak int `json:"streak,omitzero"` // as play keeps it
}

// Standing is one line of a leaderboard. A leaderboard has a scope: a chat id
// for a group's table, 0 for the global one.
type Standing struct {
	UserID int64   `json:"user_id"`
	Name   string  `json:"name,omitzero"`
	Rating float64 `json:"rating"`
	Games  int     `json:"games,omitzero"`
	// RD and Vol complete Rating to a Glicko-2 rating, as in User (RD 0:
	// an Elo line from before Glicko-2).
	RD  float64 `json:"rd,omitzero"`
	Vol float64 `json:"vol,omitzero"`
	// Counted are the last games counted in the line (a chat's; the
	// global line follows the user's record), as User.Counted.
	Counted []string `json:"counted,omitempty"`
	// UserVersion is, in the global line, the version of the user's record
	// it was written from, so that a line from an older record never
	// replaces one from a newer (play, rating.go). 0 in a chat's line.
	UserVersion int64 `json:"uv,omitzero"`

	// Version is 0 for a line never stored (and for one stored before
	// lines had versions); SetStanding checks it and moves it on.
	Version int64 `json:"v,omitzero"`
}

// UsernameKey is the form under which stores index usernames: without a
// leading "@" and in lower case, because Telegram usernames are
// case-insensitive and people type them either way.
func UsernameKey(name string) string {
	return strings.ToLower(strings.TrimPrefix(strings.TrimSpace(name), "@"))
}
