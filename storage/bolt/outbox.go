package bolt

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"sync"
	"time"

	bbolt "go.etcd.io/bbolt"

	"github.com/bashni/bashni/storage"
)

var _ storage.Outbox = (*Store)(nil)

// leases are the outbox owners' leases. A bbolt file is held by one
// process, so they live in that process: after a restart every stored
// request belongs to an owner nobody renews, and the first claim takes
// them all, at once.
type leases struct {
	mu    sync.Mutex
	until map[string]time.Time
}

func (l *leases) renew(owner string, until time.Time) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.until == nil {
		l.until = make(map[string]time.Time)
	}
	l.until[owner] = until
}

func (l *leases) live(owner string, now time.Time) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return now.Before(l.until[owner])
}

func (l *leases) release(owner string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	delete(l.until, owner)
}

// An outbox record is the owner's length (2 bytes), the owner, then the
// data; its key is the bucket's sequence, so keys sort in append order.
func owedValue(owner string, data []byte) []byte {
	v := binary.BigEndian.AppendUint16(make([]byte, 0, 2+len(owner)+len(data)), uint16(len(owner)))
	return append(append(v, owner...), data...)
}

func owedOwner(v []byte) (string, []byte) {
	if len(v) < 2 {
		return "", nil
	}
	n := int(binary.BigEndian.Uint16(v))
	if len(v) < 2+n {
		return "", nil
	}
	return string(v[2 : 2+n]), v[2+n:]
}

// owedID is the id callers see: the sequence as 16 decimal digits, which
// sort as the keys do.
func owedID(seq uint64) string { return fmt.Sprintf("%016d", seq) }

func owedKey(id string) ([]byte, bool) {
	var seq uint64
	if _, err := fmt.Sscanf(id, "%d", &seq); err != nil {
		return nil, false
	}
	return binary.BigEndian.AppendUint64(nil, seq), true
}

func appendOwed(tx *bbolt.Tx, owner string, owed [][]byte) ([]string, error) {
	b := tx.Bucket(bucketOutbox)
	ids := make([]string, 0, len(owed))
	for _, data := range owed {
		seq, err := b.NextSequence()
		if err != nil {
			return nil, err
		}
		if err := b.Put(binary.BigEndian.AppendUint64(nil, seq), owedValue(owner, data)); err != nil {
			return nil, err
		}
		ids = append(ids, owedID(seq))
	}
	return ids, nil
}

// MarkUpdateOwing marks the update and appends owed in one transaction.
func (s *Store) MarkUpdateOwing(ctx context.Context, updateID int64, ttl time.Duration, owner string, lease time.Duration, owed [][]byte) (bool, []string, error) {
	if ttl <= 0 {
		return false, nil, fmt.Errorf("storage: bolt: mark update %d: ttl %v: %w", updateID, ttl, errInvalid)
	}
	var first bool
	var ids []string
	err := s.update(ctx, fmt.Sprintf("mark update %d owing %d", updateID, len(owed)), func(tx *bbolt.Tx) error {
		now := s.now()
		var err error
		if first, err = markTx(tx, updateID, ttl, now); err != nil || !first {
			return err
		}
		ids, err = appendOwed(tx, owner, owed)
		return err
	})
	if err != nil {
		return false, nil, err
	}
	s.leases.renew(owner, s.now().Add(lease))
	return first, ids, nil
}

// AppendOutbox appends owed for owner in one transaction.
func (s *Store) AppendOutbox(ctx context.Context, owner string, lease time.Duration, owed [][]byte) ([]string, error) {
	var ids []string
	err := s.update(ctx, fmt.Sprintf("append %d owed", len(owed)), func(tx *bbolt.Tx) error {
		var err error
		ids, err = appendOwed(tx, owner, owed)
		return err
	})
	if err != nil {
		return nil, err
	}
	s.leases.renew(owner, s.now().Add(lease))
	return ids, nil
}

// AckOutbox deletes sent requests.
func (s *Store) AckOutbox(ctx context.Context, owner string, ids []string) error {
	return s.update(ctx, fmt.Sprintf("ack %d owed", len(ids)), func(tx *bbolt.Tx) error {
		b := tx.Bucket(bucketOutbox)
		for _, id := range ids {
			if k, ok := owedKey(id); ok {
				if err := b.Delete(k); err != nil {
					return err
				}
			}
		}
		return nil
	})
}

// ClaimOutbox renews owner's lease and takes over what owners without a
// live lease owe.
func (s *Store) ClaimOutbox(ctx context.Context, owner string, lease time.Duration) ([]storage.Owed, error) {
	now := s.now()
	s.leases.renew(owner, now.Add(lease))
	// A read first: most claims find nothing to take, and a read-only
	// transaction costs no sync of the file.
	orphans := false
	err := s.view(ctx, "look for owed", func(tx *bbolt.Tx) error {
		return tx.Bucket(bucketOutbox).ForEach(func(_, v []byte) error {
			if o, _ := owedOwner(v); o != owner && !s.leases.live(o, now) {
				orphans = true
			}
			return nil
		})
	})
	if err != nil || !orphans {
		return nil, err
	}
	var out []storage.Owed
	err = s.update(ctx, "claim owed", func(tx *bbolt.Tx) error {
		out = out[:0]
		b := tx.Bucket(bucketOutbox)
		type take struct{ k, v []byte }
		var takes []take
		err := b.ForEach(func(k, v []byte) error {
			o, data := owedOwner(v)
			if o == owner || s.leases.live(o, now) {
				return nil
			}
			takes = append(takes, take{bytes.Clone(k), owedValue(owner, data)})
			out = append(out, storage.Owed{ID: owedID(binary.BigEndian.Uint64(k)), Data: bytes.Clone(data)})
			return nil
		})
		if err != nil {
			return err
		}
		for _, t := range takes {
			if err := b.Put(t.k, t.v); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// ReleaseOutbox ends owner's lease.
func (s *Store) ReleaseOutbox(ctx context.Context, owner string) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("storage: bolt: release outbox: %w", err)
	}
	s.leases.release(owner)
	return nil
}
