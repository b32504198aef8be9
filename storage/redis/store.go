package redis

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"strings"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/bashni/bashni/storage"
)

// Store is a storage.Store in Redis. It is safe for concurrent use.
type Store struct {
	rdb    goredis.UniversalClient
	prefix string
	now    func() time.Time
	// keepFinished is how long a finished game is kept; 0 keeps it for
	// ever.
	keepFinished time.Duration
}

var _ storage.Store = (*Store)(nil)

// Option changes a Store made by New, Open or OpenConfig.
type Option func(*Store)

// WithFinishedTTL makes finished games expire d after they end (0, the
// default, keeps them for ever). Players' ratings and statistics live in
// their own records and stay; what goes is the game itself, which the
// result card's Rematch, PDN and Replay buttons read. Without it Redis's
// memory grows with every game ever played.
func WithFinishedTTL(d time.Duration) Option { return func(s *Store) { s.keepFinished = max(d, 0) } }

// WithPrefix puts every key under prefix (default "bashni:"), so that
// several bots, or tests, can share a server. It must not contain braces,
// which would change the keys' hash tags.
func WithPrefix(prefix string) Option { return func(s *Store) { s.prefix = prefix } }

// DefaultPrefix starts every key unless WithPrefix says otherwise.
const DefaultPrefix = "bashni:"

// New makes a store on client, which the store then owns: Close closes it.
// Give the client timeouts (Open and OpenConfig do) or a dead server will
// make calls hang. now is the caller's clock, the one play.Service decides
// with: challenges and update marks expire by it, and Redis's own expiry
// (a relative TTL) only frees the memory afterwards. It panics if now is
// nil or the prefix contains a brace.
func New(client goredis.UniversalClient, now func() time.Time, opts ...Option) *Store {
	if now == nil {
		panic("storage: redis: New without a clock")
	}
	s := &Store{rdb: client, prefix: DefaultPrefix, now: now}
	for _, o := range opts {
		o(s)
	}
	if strings.ContainsAny(s.prefix, "{}") {
		panic(fmt.Sprintf("storage: redis: key prefix %q contains a brace", s.prefix))
	}
	return s
}

// Prefix is what every key of the store starts with; a queue beside the
// store on the same client (package aiqueue) uses it too.
func (s *Store) Prefix() string { return s.prefix }

// Client returns the underlying client, for health checks and metrics.
func (s *Store) Client() goredis.UniversalClient { return s.rdb }

// Close closes the client; later calls fail with storage.ErrUnavailable.
func (s *Store) Close() error {
	if err := s.rdb.Close(); err != nil && !errors.Is(err, goredis.ErrClosed) {
		return fmt.Errorf("storage: redis: close: %w", err)
	}
	return nil
}

// Ping checks that the server answers.
func (s *Store) Ping(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return fail("ping", err)
	}
	return fail("ping", s.rdb.Ping(ctx).Err())
}

// Writable sets a key of its own that expires at once: Redis refuses it
// when it refuses writes (a replica, maxmemory reached, a failed
// background save, too few replicas).
func (s *Store) Writable(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return fail("writable", err)
	}
	return fail("writable", s.rdb.Set(ctx, s.prefix+"writable", "1", time.Second).Err())
}

// fail prefixes an error with the operation. Anything Redis or the network
// says is a failure of the backend, hence storage.ErrUnavailable; only a
// canceled context is the caller's own doing. redis.Nil is handled by the
// callers before it gets here.
func fail(op string, err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, context.Canceled):
		return fmt.Errorf("storage: redis: %s: %w", op, err)
	default:
		return fmt.Errorf("storage: redis: %s: %w: %w", op, storage.ErrUnavailable, err)
	}
}

// start checks the context before a call: go-redis may still send a command
// on a canceled context, and a canceled request must change nothing.
func start(ctx context.Context, op string) error {
	if err := ctx.Err(); err != nil {
		return fail(op, err)
	}
	return nil
}

// newToken names one write, so that a write the client retried after a lost
// reply is recognised as already done rather than as a conflict.
func newToken() string { return rand.Text() }
