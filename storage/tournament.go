package storage

import (
	"context"
	"slices"
	"time"
)

// TournamentStatus says where an arena tournament is in its life.
type TournamentStatus string

const (
	// TournamentRunning: players join and are paired as they come free.
	TournamentRunning TournamentStatus = "running"
	// TournamentEnding: time is up; nobody is paired any more, and the
	// games still in progress are played to their end.
	TournamentEnding TournamentStatus = "ending"
	// TournamentFinished: every game is over and the results are final.
	TournamentFinished TournamentStatus = "finished"
)

// Tournament is a group's arena tournament as stored: one record a group
// (its current or latest tournament), written by compare-and-set on
// Version like a GameRecord, so that any replica may pair players, record
// a result or end it, and exactly one of them does each.
type Tournament struct {
	ID     string `json:"id"`
	ChatID int64  `json:"chat"`
	// MessageID is the group's tournament card.
	MessageID   int              `json:"message_id,omitzero"`
	Lang        string           `json:"lang,omitzero"`
	TimeControl string           `json:"time_control"`
	Variant     string           `json:"variant,omitzero"`
	CreatedBy   Player           `json:"created_by"`
	StartedAt   time.Time        `json:"started_at"`
	EndsAt      time.Time        `json:"ends_at"`
	Status      TournamentStatus `json:"status"`
	Players     []TourPlayer     `json:"players,omitempty"`
	// Games are the games in progress (and, in records written before
	// they were bounded, finished ones): a finished game is counted in
	// Played and on its players' sheets and leaves the record, so that
	// the record's size follows the players, not the games played.
	Games  []TourGame `json:"games,omitempty"`
	Played int        `json:"played,omitzero"`
	// The group's card is edited at most once every few seconds: CardAt is
	// when the last edit was claimed, CardDirty that something it shows
	// changed since.
	CardAt    time.Time `json:"card_at,omitzero"`
	CardDirty bool      `json:"card_dirty,omitzero"`
	// The final standings are owed from the write that finishes the
	// tournament until FinalShown: they are sent committed with Receipt
	// (a mark in the outbox, as a game's events are), and the clock shows
	// them again from FinalAt+a few seconds (the mark then keeps a second
	// copy from going out) until one writer records FinalShown.
	Receipt    int64     `json:"receipt,omitzero"`
	FinalAt    time.Time `json:"final_at,omitzero"`
	FinalShown bool      `json:"final_shown,omitzero"`
	// FinalRefused counts the copies of the final standings Telegram
	// refused; FinalGaveUp is set when the bot stops trying (the group
	// may then start the next tournament, as after FinalShown).
	FinalRefused int  `json:"final_refused,omitzero"`
	FinalGaveUp  bool `json:"final_gave_up,omitzero"`
	// FinalTries counts the clock's copies of the final standings under
	// the current Receipt: past a bound, a copy nobody recorded (refused
	// or lost where no process heard Telegram's answer) counts as refused.
	FinalTries int   `json:"final_tries,omitzero"`
	Version    int64 `json:"version"`
}

// Listed reports whether the tournament belongs in the running list: it
// runs, or its final standings are still owed.
func (t *Tournament) Listed() bool {
	return t.Status != TournamentFinished || !t.FinalShown && !t.FinalGaveUp
}

// TourPlayer is one player of a tournament.
type TourPlayer struct {
	UserID int64  `json:"user_id"`
	Name   string `json:"name"`
	Lang   string `json:"lang,omitzero"`
	// Results are the player's latest finished games in order: 'W', 'D'
	// or 'L' each (the scores follow from them, streaks included), at
	// most a few dozen; Opps are those games' opponents, in step. Earlier
	// games are summed up in Carry.
	Results string    `json:"results,omitzero"`
	Opps    []int64   `json:"opps,omitempty"`
	Carry   TourCarry `json:"carry,omitzero"`
	// NoShow: paused because a game ran out while they never moved (an
	// aborted game); they are not paired until they come back.
	NoShow bool `json:"no_show,omitzero"`
	// Game is the game being played, "" while waiting (or paused).
	Game   string `json:"game,omitzero"`
	Paused bool   `json:"paused,omitzero"`
	// Last is the opponent of the last game, not paired again at once.
	Last   int64 `json:"last,omitzero"`
	Whites int   `json:"whites,omitzero"` // games played with White
	// FreeSince is when the player last came free (joined, resumed, or
	// finished a game): who waited longest is paired first among equals.
	FreeSince time.Time `json:"free_since,omitzero"`
}

// TourCarry sums up the games cut from the front of a player's Results:
// their points, wins and count, and the wins in a row they ended with
// (a streak goes on into the games kept).
type TourCarry struct {
	Points int `json:"points,omitzero"`
	Wins   int `json:"wins,omitzero"`
	Games  int `json:"games,omitzero"`
	Streak int `json:"streak,omitzero"`
}

// TourGame is one game of a tournament: its players and, once over, its
// result ("1-0", "0-1", "1/2-1/2"). Posted is when the players' cards were
// last claimed for posting (a replica that dies before posting them
// leaves the game to be posted again by the clock), Reposts how often
// they were claimed again.
type TourGame struct {
	ID      string    `json:"id"`
	White   int64     `json:"white"`
	Black   int64     `json:"black"`
	Result  string    `json:"result,omitzero"`
	Posted  time.Time `json:"posted,omitzero"`
	Reposts int       `json:"reposts,omitzero"`
}

// Clone returns a copy of t that shares nothing it could change.
func (t *Tournament) Clone() *Tournament {
	c := *t
	c.Players = slices.Clone(t.Players)
	for i := range c.Players {
		c.Players[i].Opps = slices.Clone(t.Players[i].Opps)
	}
	c.Games = slices.Clone(t.Games)
	return &c
}

// Tournaments keeps the groups' arena tournaments. Both stores implement
// it and pass storagetest's tournament tests.
type Tournaments interface {
	// CreateTournament stores t as its chat's tournament unless the chat
	// has one that is Listed (ErrConflict); a finished one whose final
	// standings were shown is replaced. The version goes on from the replaced record's (1 if
	// none), so that a write from a copy of an older tournament never
	// lands; it is set on t.
	CreateTournament(ctx context.Context, t *Tournament) error
	// Tournament returns a chat's current (or latest) tournament, or
	// ErrNotFound.
	Tournament(ctx context.Context, chatID int64) (*Tournament, error)
	// UpdateTournament writes t if the stored version is t.Version, as
	// version t.Version+1 (also set on t); ErrConflict if another write
	// came first, ErrNotFound if the chat has none. A tournament that is
	// no longer Listed leaves the running list.
	UpdateTournament(ctx context.Context, t *Tournament) error
	// RunningTournaments lists the chats whose tournament is Listed (it
	// runs, or its final standings are owed), by chat id.
	RunningTournaments(ctx context.Context) ([]int64, error)
}
