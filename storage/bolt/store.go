package bolt

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	bbolt "go.etcd.io/bbolt"
	bolterrors "go.etcd.io/bbolt/errors"

	"github.com/bashni/bashni/storage"
)

// Store is a storage.Store in one bbolt file. It is safe for concurrent use.
type Store struct {
	db          *bbolt.DB
	now         func() time.Time
	lockTimeout time.Duration
	// keepFinished is how long a finished game is kept; 0 keeps it for
	// ever.
	keepFinished time.Duration
	// leases are the outbox owners' (outbox.go).
	leases leases
}

var _ storage.Store = (*Store)(nil)

// Option changes how Open opens the store.
type Option func(*Store)

// WithFinishedTTL makes finished games go d after they end (0, the
// default, keeps them for ever). Ratings and statistics live in the users'
// records and stay; what goes is the game, which the result card's Rematch,
// PDN and Replay buttons read. Expired games are removed a batch at a time
// by later game writes, so the file stops growing with every game played.
func WithFinishedTTL(d time.Duration) Option { return func(s *Store) { s.keepFinished = max(d, 0) } }

// Open opens or creates the store file at path. now is the clock that
// decides when challenges, update marks and finished games expire: the
// caller's own, the one play.Service decides with, so that the service and
// the store never disagree about what time it is.
func Open(path string, now func() time.Time, opts ...Option) (*Store, error) {
	if now == nil {
		return nil, fmt.Errorf("storage: bolt: open %s: no clock", path)
	}
	s := &Store{now: now, lockTimeout: time.Second}
	for _, o := range opts {
		o(s)
	}
	if err := checkFile(path); err != nil {
		return nil, fmt.Errorf("storage: bolt: open %s: %w", path, err)
	}
	var db *bbolt.DB
	err := guardFaults(func() (err error) {
		db, err = bbolt.Open(path, 0o600, &bbolt.Options{Timeout: s.lockTimeout})
		return err
	})
	if errors.Is(err, bolterrors.ErrTimeout) {
		return nil, fmt.Errorf("storage: bolt: open %s: still locked by another process after %v: %w: %w",
			path, s.lockTimeout, storage.ErrUnavailable, err)
	}
	if err != nil {
		return nil, fmt.Errorf("storage: bolt: open %s: %w", path, err)
	}
	err = guardFaults(func() error {
		return db.Update(func(tx *bbolt.Tx) error {
			for _, b := range allBuckets {
				if _, err := tx.CreateBucketIfNotExists(b); err != nil {
					return fmt.Errorf("bucket %s: %w", b, err)
				}
			}
			return nil
		})
	})
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("storage: bolt: open %s: %w", path, err)
	}
	s.db = db
	return s, nil
}

// Close closes the file; later calls fail with storage.ErrUnavailable.
func (s *Store) Close() error {
	if err := s.db.Close(); err != nil {
		return fmt.Errorf("storage: bolt: close: %w", err)
	}
	return nil
}

// Ping checks that the file is open and readable.
func (s *Store) Ping(ctx context.Context) error {
	return s.view(ctx, "ping", func(*bbolt.Tx) error { return nil })
}

// Writable commits an empty read-write transaction: it takes the write
// lock and syncs the file, so a file that cannot be written fails it.
func (s *Store) Writable(ctx context.Context) error {
	return s.update(ctx, "writable", func(*bbolt.Tx) error { return nil })
}

// view and update run fn in a read-only or read-write transaction. bbolt
// knows no context, so a canceled context is honoured before starting.
func (s *Store) view(ctx context.Context, op string, fn func(*bbolt.Tx) error) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("storage: bolt: %s: %w", op, err)
	}
	return wrap(op, s.db.View(fn))
}

func (s *Store) update(ctx context.Context, op string, fn func(*bbolt.Tx) error) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("storage: bolt: %s: %w", op, err)
	}
	return wrap(op, s.db.Update(fn))
}

// wrap prefixes an error with the operation. The caller-facing sentinels
// pass through; anything else comes from the file or the database itself
// (closed, I/O error, unreadable record) and means the store is unavailable.
func wrap(op string, err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, storage.ErrNotFound), errors.Is(err, storage.ErrConflict), errors.Is(err, errInvalid),
		errors.Is(err, storage.ErrQueueFull), errors.Is(err, storage.ErrUserQueueFull):
		return fmt.Errorf("storage: bolt: %s: %w", op, err)
	default:
		return fmt.Errorf("storage: bolt: %s: %w: %w", op, storage.ErrUnavailable, err)
	}
}

// errInvalid marks a request that can never succeed (a record without an id,
// a non-positive ttl).
var errInvalid = errors.New("invalid request")

// get decodes the JSON value at k in bucket b into v; false if absent.
func get(tx *bbolt.Tx, b, k []byte, v any) (bool, error) {
	data := tx.Bucket(b).Get(k)
	if data == nil {
		return false, nil
	}
	if err := json.Unmarshal(data, v); err != nil {
		return false, fmt.Errorf("decode %s %q: %w", b, k, err)
	}
	return true, nil
}

func put(tx *bbolt.Tx, b, k []byte, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("encode %s %q: %w", b, k, err)
	}
	return tx.Bucket(b).Put(k, data)
}
