package play

import (
	"context"
	"crypto/rand"
	"log/slog"
	"sync/atomic"
	"time"

	"github.com/bashni/bashni/ai"
	"github.com/bashni/bashni/rules"
	"github.com/bashni/bashni/storage"
)

// Store is what the service needs of storage; storage/redis and
// storage/bolt provide it.
type Store interface {
	CreateGame(ctx context.Context, g *storage.GameRecord) error
	CreateGameCapped(ctx context.Context, g *storage.GameRecord, userID int64, max int) error
	Game(ctx context.Context, id string) (*storage.GameRecord, error)
	UpdateGame(ctx context.Context, g *storage.GameRecord) error
	ActiveGamesByChat(ctx context.Context, chatID int64) ([]string, error)
	ActiveGamesByUser(ctx context.Context, userID int64) ([]string, error)
	DueGames(ctx context.Context, now time.Time, limit int) ([]string, error)
	EndedGameByReceipt(ctx context.Context, receipt int64) (string, error)
	PutChallenge(ctx context.Context, c *storage.Challenge) error
	Challenge(ctx context.Context, id string) (*storage.Challenge, error)
	TakeChallenge(ctx context.Context, id string) (*storage.Challenge, error)
	User(ctx context.Context, id int64) (*storage.User, error)
	PutUser(ctx context.Context, u *storage.User) error
	UserByUsername(ctx context.Context, username string) (*storage.User, error)
	SetStanding(ctx context.Context, scope int64, s *storage.Standing) error
	Top(ctx context.Context, scope int64, n int) ([]storage.Standing, error)
	Standing(ctx context.Context, scope, userID int64) (storage.Standing, error)
	// UpdateSeen says whether a receipt (the id of the update that made a
	// change, see WithReceipt) is marked: its replies are stored.
	UpdateSeen(ctx context.Context, updateID int64) (bool, error)
	storage.Chats
}

// Thinker chooses the AI's move in a game at a level (1..Config.MaxLevel,
// the numbers of ai.Levels).
type Thinker interface {
	Think(ctx context.Context, g *rules.Game, level int) (rules.Move, error)
}

// Config holds the service's timings.
type Config struct {
	ChallengeTTL time.Duration // how long a challenge stays open
	RemindAfter  time.Duration // first reminder after this long without a move
	RemindEvery  time.Duration // then again this often
	TimeoutAfter time.Duration // the player to move loses after this long
	AITimeout    time.Duration // upper bound on one AI move
	MaxLevel     int           // highest AI level
	// NoticeDelay is how long the player to move may take before they are
	// told it is their move (Tick reports a ClockEvent with Notice). Two
	// players moving as they see the board need no notice, and in a group
	// each would spend one of the bot's 20 messages a minute. Zero: the
	// caller tells them at once, no notice is scheduled.
	NoticeDelay time.Duration
	// ShowGrace is the longest a live game's clock waits for the board
	// showing the opponent's move to reach the player to move (shown.go):
	// its clock starts when the board is shown, at the latest this long
	// after the move was stored. Zero: clocks start when a move is stored.
	ShowGrace time.Duration
}

// DefaultConfig is what a bot gets unless configured otherwise.
var DefaultConfig = Config{
	ChallengeTTL: 24 * time.Hour,
	RemindAfter:  12 * time.Hour,
	RemindEvery:  12 * time.Hour,
	TimeoutAfter: 72 * time.Hour,
	AITimeout:    10 * time.Second,
	MaxLevel:     len(ai.Levels),
	NoticeDelay:  time.Minute,
	ShowGrace:    DefaultShowGrace,
}

// Service is the game service. It is safe for concurrent use.
type Service struct {
	store Store
	ai    Thinker
	cfg   Config
	now   func() time.Time
	newID func() string
	log   *slog.Logger
	hooks Hooks
	// aiTurns are the AI moves this process claimed (aiturns.go).
	aiTurns *aiTurns
	// replays keeps the rules state of the games read last (replays.go).
	replays *replays
	// owed shows the events of detached changes (events.go).
	owed atomic.Pointer[OwedFunc]
	// wake, if set, tells the bot replicas of a change nobody in this
	// process shows (events.go, WithWake).
	wake func(ctx context.Context, gameID string)
	// deadlines are the features' own deadlines (change.go).
	deadlines []Deadline
	// moveHooks run within a player's move's write (feature.go).
	moveHooks []MoveHook
}

// Hooks are told about game events, for metrics. Either may be nil.
type Hooks struct {
	GameStarted  func()
	GameFinished func()
}

// WithHooks injects event hooks.
func WithHooks(h Hooks) Option { return func(s *Service) { s.hooks = h } }

// Option configures a Service.
type Option func(*Service)

// WithWake sets how a process that shows nothing itself (`bashni
// worker`) tells the bot replicas that a change it stored owes the players
// something (events.go): on Redis, a message on a pub/sub channel. The
// stored event stays the truth: a wake-up lost is a change the clock's
// tick shows.
func WithWake(fn func(ctx context.Context, gameID string)) Option {
	return func(s *Service) { s.wake = fn }
}

// WithLogger injects the logger.
func WithLogger(l *slog.Logger) Option { return func(s *Service) { s.log = l } }

// New returns a service over store, asking ai for the AI's moves. now is
// the one clock every decision about time is made by (deadlines, reminders,
// expiry of challenges): give the store the same one, so that the two never
// disagree; tests pass a clock they move by hand. It panics if now is nil.
func New(store Store, ai Thinker, cfg Config, now func() time.Time, opts ...Option) *Service {
	if now == nil {
		panic("play: New without a clock")
	}
	s := &Service{store: store, ai: ai, cfg: cfg, now: now, newID: randomID, log: slog.New(slog.DiscardHandler), aiTurns: newAITurns(), replays: newReplays()}
	for _, o := range opts {
		o(s)
	}
	return s
}

// Now is the service's clock: the one every decision about time is made
// by, for layers above that show time (the live clocks on cards).
func (s *Service) Now() time.Time { return s.now() }

// Config returns the service's timings.
func (s *Service) Config() Config { return s.cfg }

// NewID returns a new random id, as the service names its games: for a
// feature that names a game before it starts it (StartGame), or names
// records of its own.
func NewID() string { return randomID() }

// randomID returns 10 characters of base32 (50 random bits): short enough
// for Telegram's 64-byte callback data, far too many to guess or collide.
func randomID() string {
	const alphabet = "abcdefghijklmnopqrstuvwxyz234567"
	var b [10]byte
	_, _ = rand.Read(b[:]) // never fails (crypto/rand panics instead)
	for i := range b {
		b[i] = alphabet[b[i]%32]
	}
	return string(b[:])
}
