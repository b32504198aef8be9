package outbox

import (
	"context"
	"time"

	"github.com/bashni/bashni/storage"
)

// Journal keeps replies in the store until they are sent (Options.Journal):
// storage.Outbox bound to one process.
type Journal interface {
	// Commit marks updateID handled and keeps owed, in one write; see
	// storage.Outbox.MarkUpdateOwing.
	Commit(ctx context.Context, updateID int64, owed [][]byte) (first bool, ids []string, err error)
	Append(ctx context.Context, owed [][]byte) ([]string, error)
	Ack(ctx context.Context, ids []string) error
	Claim(ctx context.Context) ([]storage.Owed, error)
	Release(ctx context.Context) error
}

// StoreJournal is a Journal in st for the process named owner, whose lease
// on what it keeps lasts lease from each write or claim (Run renews it
// every Options.ClaimEvery); updates are marked for markTTL.
func StoreJournal(st storage.Outbox, owner string, lease, markTTL time.Duration) Journal {
	return storeJournal{st: st, owner: owner, lease: lease, markTTL: markTTL}
}

type storeJournal struct {
	st             storage.Outbox
	owner          string
	lease, markTTL time.Duration
}

func (j storeJournal) Commit(ctx context.Context, updateID int64, owed [][]byte) (bool, []string, error) {
	return j.st.MarkUpdateOwing(ctx, updateID, j.markTTL, j.owner, j.lease, owed)
}

func (j storeJournal) Append(ctx context.Context, owed [][]byte) ([]string, error) {
	return j.st.AppendOutbox(ctx, j.owner, j.lease, owed)
}

func (j storeJournal) Ack(ctx context.Context, ids []string) error {
	return j.st.AckOutbox(ctx, j.owner, ids)
}

func (j storeJournal) Claim(ctx context.Context) ([]storage.Owed, error) {
	return j.st.ClaimOutbox(ctx, j.owner, j.lease)
}

func (j storeJournal) Release(ctx context.Context) error { return j.st.ReleaseOutbox(ctx, j.owner) }
