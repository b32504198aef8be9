package storage

import (
	"encoding/json"
	"maps"
	"slices"
	"time"
)

// GameStatus says whether a game is still being played.
type GameStatus string

const (
	GameActive   GameStatus = "active"
	GameFinished GameStatus = "finished"
)

// Player is one side of a game or challenge.
type Player struct {
	UserID  int64  `json:"user_id,omitzero"`
	Name    string `json:"name,omitzero"`
	AILevel int    `json:"ai_level,omitzero"` // 0 = human
}

// Human reports whether the player is a person with a Telegram account.
func (p Player) Human() bool { return p.AILevel == 0 && p.UserID != 0 }

// GameRecord is one game as stored, named so beside rules.Game (the rules
// state) and play.Game (a game as the service gives it out). Version is
// owned by the store: CreateGame sets it to 1 and each successful
// UpdateGame increments it.
type GameRecord struct {
	ID       string     `json:"id"`
	Variant  string     `json:"variant,omitzero"`
	White    Player     `json:"white"`
	Black    Player     `json:"black"`
	Start    string     `json:"start,omitzero"`    // start position text
	Moves    []string   `json:"moves,omitempty"`   // moves in notation
	Position string     `json:"position,omitzero"` // current position text
	Status   GameStatus `json:"status"`
	Result   string     `json:"result,omitzero"` // "1-0", "0-1", "1/2-1/2" or ""
	Reason   string     `json:"reason,omitzero"`
	Version  int64      `json:"version"`

	CreatedAt time.Time `json:"created_at,omitzero"`
	UpdatedAt time.Time `json:"updated_at,omitzero"`

	// Where the live card is: a chat message, or an inline message.
	ChatID          int64  `json:"chat_id,omitzero"`
	MessageID       int    `json:"message_id,omitzero"`
	InlineMessageID string `json:"inline_message_id,omitzero"`
	// InlineText: the inline message is text (a challenge offered as text,
	// where no photo of the start board could be had), which Telegram
	// will not edit into a photo: its card's edits are made as text.
	InlineText bool `json:"inline_text,omitzero"`

	// DrawDeclinedBy is the player who declined the last draw offer, until
	// the next move or offer: the card says so, in place of a message.
	DrawDeclinedBy int64 `json:"draw_declined_by,omitzero"`

	DrawOfferBy int64     `json:"draw_offer_by,omitzero"` // user id, 0 = none
	RemindAt    time.Time `json:"remind_at,omitzero"`     // zero = none
	TimeoutAt   time.Time `json:"timeout_at,omitzero"`    // zero = none
	Reminders   int       `json:"reminders,omitzero"`
	// NoticeAt is when the player to move is told it is their move, if they
	// have not moved by then (zero = no notice due). A notice is for a
	// player who is away: players who answer at once need none.
	NoticeAt time.Time `json:"notice_at,omitzero"`
	// AIAt is set while the AI is to move: its move is owed, and the
	// process that wrote this claimed it until AIAt. If that process dies
	// before the AI has moved, the game is due at AIAt and whoever finds
	// it then claims it again (package play).
	AIAt time.Time `json:"ai_at,omitzero"`

	// Live play: a time control such as "5+3" (minutes each, seconds added
	// per move), the time each side has left when its turn begins, when the
	// turn's clock starts, and the time spent on each move. All empty in
	// correspondence games. TimeoutAt is then the flag's fall.
	//
	// TurnStart is when the board showing the opponent's move reached the
	// player to move (package play, shown.go): the move stores it at its
	// own time plus a grace, the latest the clock may start, and the first
	// sight of a board of version TurnVersion or newer (the card's edit
	// taken by Telegram, the Mini App's event) brings it forward to that
	// moment, by compare-and-set as every change.
	TimeControl string          `json:"time_control,omitzero"`
	WhiteLeft   time.Duration   `json:"white_left,omitzero"`
	BlackLeft   time.Duration   `json:"black_left,omitzero"`
	TurnStart   time.Time       `json:"turn_start,omitzero"`
	TurnVersion int64           `json:"turn_version,omitzero"`
	Spent       []time.Duration `json:"spent,omitempty"`

	// DaysPerMove, if set, is a correspondence game's pace: each player
	// has that many days for each move (TimeoutAt, the reminders before
	// it). Zero: the server's one timeout (package play, Config).
	DaysPerMove int `json:"days_per_move,omitzero"`
	// HoldWhite and HoldBlack stop a side's clock in a paced game until
	// then (a player away): its turn's deadlines run from the hold's end
	// (package play, pace.go).
	HoldWhite time.Time `json:"hold_white,omitzero"`
	HoldBlack time.Time `json:"hold_black,omitzero"`

	// Notices maps a user id to the message id of the live DM or mention for
	// this game, so the previous one can be deleted when a new one is sent.
	Notices map[int64]int `json:"notices,omitempty"`

	// A rematch after the end: offered by RematchBy (a user id) until
	// RematchUntil, or started as the game RematchID. At most one per game.
	RematchBy    int64     `json:"rematch_by,omitzero"`
	RematchUntil time.Time `json:"rematch_until,omitzero"`
	RematchID    string    `json:"rematch_id,omitzero"`

	Rated bool   `json:"rated,omitzero"`
	Lang  string `json:"lang,omitzero"`

	// Help taken in a game against the AI: hints shown, moves taken back.
	// A game with a takeback is Casual: it counts in no statistics.
	Hints     int  `json:"hints,omitzero"`
	Takebacks int  `json:"takebacks,omitzero"`
	Casual    bool `json:"casual,omitzero"`
	// A hint's search holds the game until HintUntil (a lease, zero when
	// none runs): one search a game at a time.
	HintUntil time.Time `json:"hint_until,omitzero"`

	// Review is the engine's review of the finished game, once one was
	// made: kept with the game so that every replica, for the chat's
	// Analyse button and the Mini App alike, shows the same one and none
	// reviews the game again. Only package play/review writes it and
	// ReviewWork.
	Review *GameReview `json:"review,omitempty"`
	// ReviewWork is a queued review under way: the runner holding it and
	// the positions searched so far, so that another replica takes up
	// where a dead one stopped. Gone once Review is kept.
	ReviewWork *ReviewWork `json:"review_work,omitempty"`

	// Team is set in a game the chat plays against the AI by vote.
	Team *TeamGame `json:"team,omitempty"`

	// Owed is what the game's latest changes owe the players, written
	// with each change (the transactional outbox: a change and what it
	// owes are one write). The writer shows it and commits those replies
	// with the event's Receipt marked (storage.Outbox.MarkUpdateOwing);
	// if it dies first, the game is due at ShowAt and whoever finds it
	// then shows what is still owed, drawn from the game as stored then.
	// Whoever marks a receipt first is the one whose replies go out.
	Owed   []GameEvent `json:"owed,omitempty"`
	ShowAt time.Time   `json:"show_at,omitzero"`
	// Receipts are the last update ids (receipts) applied to the game, so
	// that an update Telegram delivers again after a crash is recognised
	// as applied rather than refused as a stale move.
	Receipts []int64 `json:"receipts,omitempty"`

	// Link is set in a game a feature started and shows in two chats (a
	// tournament's pairing); its JSON name predates the generic link.
	Link *GameLink `json:"tour,omitempty"`

	// RateAt is set while the finished game's count in its players'
	// statistics and ratings is owed: the write that ended the game
	// stores it, claiming that count for its writer until RateAt. If the
	// writer dies first, the game is due at RateAt and whoever finds it
	// then counts it (package play, rating.go). RateDue is the count's
	// reckoning, fixed in the game before any player's record is written,
	// so that every try writes the same.
	RateAt  time.Time `json:"rate_at,omitzero"`
	RateDue *RateDue  `json:"rate_due,omitempty"`

	// Features are the parts of the record that features own, by the
	// feature's name (a player's conditional moves, a takeback asked for):
	// kept with the game, so that they change in the game's own
	// compare-and-set, while the core reads none of them.
	Features map[string]json.RawMessage `json:"features,omitempty"`
}

// RateDue is what a finished game adds to each human player's record: a
// score and, in a rated game, the change of the global rating and of the
// rating in the chat's leaderboard (Chat, 0 for none).
type RateDue struct {
	Chat    int64        `json:"chat,omitzero"`
	Players []RatedScore `json:"players"`
}

// RatedScore is one player's part of a RateDue.
type RatedScore struct {
	UserID int64   `json:"user"`
	Name   string  `json:"name,omitzero"`
	Score  float64 `json:"score"`
	Rated  bool    `json:"rated,omitzero"`
	Global float64 `json:"global,omitzero"`  // change of User.Rating
	InChat float64 `json:"in_chat,omitzero"` // change of the chat's Standing.Rating
	// The changes of the deviation and the volatility (Glicko-2) that go
	// with Global's and InChat's; zero in a count reckoned with Elo.
	GlobalRD  float64 `json:"global_rd,omitzero"`
	GlobalVol float64 `json:"global_vol,omitzero"`
	InChatRD  float64 `json:"in_chat_rd,omitzero"`
	InChatVol float64 `json:"in_chat_vol,omitzero"`
}

// Counted appends game to marks (the last few games counted in a record,
// User.Counted, Standing.Counted) and reports true, or reports false
// when it is there already: a count written once, whoever tries again.
func Counted(marks *[]string, game string) bool {
	if slices.Contains(*marks, game) {
		return false
	}
	const keep = 8
	if len(*marks) >= keep {
		*marks = slices.Clone((*marks)[len(*marks)-keep+1:])
	}
	*marks = append(*marks, game)
	return true
}

// GameEvent is one change of a game that the players are owed the sight
// of: small, not rendered, since delivery draws the game as stored when it
// sends. Receipt is the update id (negative for changes no update made)
// whose mark says the event's replies are stored in the outbox.
type GameEvent struct {
	Kind    string `json:"k"`
	Version int64  `json:"v"`
	Receipt int64  `json:"r,omitzero"`
	// By is the user who made the change (a move, a draw offer or its
	// refusal), if the record tells; Notice is the mover's turn notice
	// the move took off the record, for the bot to delete.
	By     int64 `json:"by,omitzero"`
	Notice int   `json:"n,omitzero"`
}

// Game event kinds.
const (
	EventMoved        = "moved"
	EventEnded        = "ended"
	EventDrawOffered  = "draw_offered"
	EventDrawDeclined = "draw_declined"
	EventReminder     = "reminder"
	EventNotice       = "notice"
	// EventStarted: a game created from a challenge or a rematch, whose
	// card is owed.
	EventStarted = "started"
	// EventRematch: a finished game's rematch started (RematchID set);
	// the rematch game's card is owed (created, if the writer died
	// before, by whoever shows the event).
	EventRematch = "rematch"
	// EventRematchOffered: a finished game's player (By) offered the
	// opponent a rematch; the chat is owed the offer's mention.
	EventRematchOffered = "rematch_offered"
	// EventRematchDeclined: the opponent (By) answered a finished game's
	// rematch offer with no; the chat is owed the words that say so.
	// EventRematchWithdrawn: the player who offered it (By) took it
	// back. Either way the card's buttons are owed the offer's end.
	EventRematchDeclined  = "rematch_declined"
	EventRematchWithdrawn = "rematch_withdrawn"
	// EventFirstTurn: a new game's first card is recorded, and its first
	// turn is owed its call, which follows the card: a team game's first
	// poll, or the first player's "your move" when notices go out at
	// once. By is a player who needs none (the one who accepted).
	EventFirstTurn = "first_turn"
)

// ReviewWork is a review's progress: who holds it until when (a lease
// renewed with each position), the positions searched (by their index in
// the game, 0 the start), and the runs that failed.
type ReviewWork struct {
	Holder   string        `json:"holder,omitzero"`
	Until    time.Time     `json:"until,omitzero"`
	Points   []ReviewPoint `json:"points,omitempty"`
	Failures int           `json:"failures,omitzero"`
}

// ReviewPoint is one searched position of a review: the engine's score for
// the side to move and its best move in notation.
type ReviewPoint struct {
	At    int    `json:"at"`
	Score int    `json:"score"`
	Best  string `json:"best"`
}

// GameReview is a finished game's review as stored: Scores has one score
// per position (the start and after each move, hundredths of a man from
// White's side), Best and Loss one entry per move (the engine's choice in
// notation, and how much the move played lost against it).
type GameReview struct {
	Scores []int    `json:"scores"`
	Best   []string `json:"best"`
	Loss   []int    `json:"loss"`
}

// Clone returns a copy of g that shares nothing it could change.
func (g *GameRecord) Clone() *GameRecord {
	c := *g
	c.Moves = slices.Clone(g.Moves)
	c.Notices = maps.Clone(g.Notices)
	c.Spent = slices.Clone(g.Spent)
	if g.Review != nil {
		c.Review = &GameReview{Scores: slices.Clone(g.Review.Scores), Best: slices.Clone(g.Review.Best), Loss: slices.Clone(g.Review.Loss)}
	}
	c.Team = g.Team.Clone()
	c.Owed = slices.Clone(g.Owed)
	c.Receipts = slices.Clone(g.Receipts)
	if g.RateDue != nil {
		d := *g.RateDue
		d.Players = slices.Clone(g.RateDue.Players)
		c.RateDue = &d
	}
	if g.Link != nil {
		l := *g.Link
		c.Link = &l
	}
	if g.ReviewWork != nil {
		w := *g.ReviewWork
		w.Points = slices.Clone(g.ReviewWork.Points)
		c.ReviewWork = &w
	}
	if g.Features != nil {
		c.Features = make(map[string]json.RawMessage, len(g.Features))
		for k, v := range g.Features {
			c.Features[k] = slices.Clone(v)
		}
	}
	return &c
}

// Deadline is the earliest non-zero of NoticeAt, RemindAt, TimeoutAt,
// AIAt, a team game's vote closing and a side's leaving: the moment the game next needs
// attention without anyone moving. Zero means never.
func (g *GameRecord) Deadline() time.Time {
	var d time.Time
	times := []time.Time{g.NoticeAt, g.RemindAt, g.TimeoutAt, g.AIAt}
	if g.Team != nil {
		times = append(times, g.Team.ClosesAt)
		for _, s := range g.Team.Sides {
			times = append(times, s.LeavesAt) // a side that leaves resigns then
		}
	}
	for _, t := range times {
		if !t.IsZero() && (d.IsZero() || t.Before(d)) {
			d = t
		}
	}
	return d
}

// Due is when the game is next due in the deadline index: the earliest of
// its Deadline (while it is active), ShowAt (what its last changes owe
// the players is still to be shown, finished or not) and RateAt (its
// count in the players' ratings is owed). Zero means never.
func (g *GameRecord) Due() time.Time {
	var d time.Time
	if g.Active() {
		d = g.Deadline()
	}
	for _, t := range []time.Time{g.ShowAt, g.RateAt} {
		if !t.IsZero() && (d.IsZero() || t.Before(d)) {
			d = t
		}
	}
	return d
}

// HumanIDs lists the user ids of the human players, each once, white first.
// These are the players whose "my games" index holds the game.
func (g *GameRecord) HumanIDs() []int64 {
	ids := make([]int64, 0, 2)
	for _, p := range []Player{g.White, g.Black} {
		if p.Human() && !slices.Contains(ids, p.UserID) {
			ids = append(ids, p.UserID)
		}
	}
	return ids
}

// Active reports whether the game is still being played and so belongs in
// the active and deadline indexes. Only GameFinished ends a game; a record
// without a status counts as active. A finished game cannot be reopened.
func (g *GameRecord) Active() bool { return g.Status != GameFinished }

// GameLink ties a game to the feature's record that started it (a
// tournament: ChatID is its group, ID its id) and says where its second
// card is: such a game is shown in both players' private chats, the
// game's own card in White's (GameRecord.ChatID) and this one in Black's.
type GameLink struct {
	ChatID int64  `json:"chat"` // the feature's chat (a tournament's group)
	ID     string `json:"id"`
	// Feature names the feature whose game it is ("": a tournament's,
	// as every link made before others had any).
	Feature string `json:"feature,omitzero"`
	// MirrorChat and MirrorMessage are Black's card; MirrorLang is the
	// language it is written in.
	MirrorChat    int64  `json:"mirror_chat,omitzero"`
	MirrorMessage int    `json:"mirror_message,omitzero"`
	MirrorLang    string `json:"mirror_lang,omitzero"`
	// EndsAt is when the feature's time is up (a tournament's), for the
	// game's card.
	EndsAt time.Time `json:"ends_at,omitzero"`
}
