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

// ackReq is a journal id for the acker, and what it closes once the
// batch holding it is written.
type ackReq struct {
	id   string
	done chan struct{}
}

// journalTimeout bounds one journal write made outside a caller's context.
const journalTimeout = 5 * time.Second

// keep encodes it for the journal, if it is a request worth keeping.
func (o *Outbox) keep(it *item) ([]byte, bool) {
	if priorityMethods[it.req.method] || it.req.method == "sendChatAction" {
		return nil, false
	}
	data, err := encodeReply(it.r)
	if err != nil {
		o.log.Warn("outbox: reply cannot be kept", "method", it.req.method, "err", err)
		return nil, false
	}
	return data, true
}

// Reclaim renews this process's lease on what the journal keeps for it,
// takes over what processes whose lease ended kept, and queues it, oldest
// first. Run calls it at start and every Options.ClaimEvery; it returns
// how many replies it took over.
func (o *Outbox) Reclaim(ctx context.Context) (int, error) {
	if o.opts.Journal == nil {
		return 0, nil
	}
	owed, err := o.opts.Journal.Claim(ctx)
	if err != nil {
		return 0, err
	}
	for _, ow := range owed {
		r, err := decodeReply(ow.Data)
		if err != nil {
			o.log.Error("outbox: kept reply unreadable, dropped", "id", ow.ID, "err", err)
			o.ack(ow.ID)
			continue
		}
		it, err := o.prepare(r)
		if err != nil {
			o.ack(ow.ID)
			continue
		}
		it.jid, it.again = ow.ID, true
		if err := o.queue(it); err != nil {
			o.log.Warn(notQueued(it), "chat", it.r.ChatID, "err", err)
		}
	}
	if len(owed) > 0 {
		o.log.Info("outbox: took over replies of a process that ended", "count", len(owed))
	}
	return len(owed), nil
}

// ack tells the acker that the journal may forget id, and returns what is
// closed once it has (or has failed to). It counts as pending until then,
// so Flush waits for it.
func (o *Outbox) ack(id string) <-chan struct{} {
	o.mu.Lock()
	o.addPending()
	o.mu.Unlock()
	done := make(chan struct{})
	o.acks <- ackReq{id: id, done: done}
	return done
}

// runAcker acks journal ids in batches (one store write for whatever
// piled up while the last one was written) until stop is closed and
// nothing is left.
func (o *Outbox) runAcker(stop <-chan struct{}) {
	for {
		var req ackReq
		select {
		case req = <-o.acks:
		case <-stop:
			select {
			case req = <-o.acks:
			default:
				return
			}
		}
		batch := []ackReq{req}
	more:
		for len(batch) < 256 {
			select {
			case req := <-o.acks:
				batch = append(batch, req)
			default:
				break more
			}
		}
		ids := make([]string, len(batch))
		for i, req := range batch {
			ids[i] = req.id
		}
		ctx, cancel := context.WithTimeout(context.Background(), journalTimeout)
		if err := o.opts.Journal.Ack(ctx, ids); err != nil {
			// Sent again by whoever claims them: a duplicate, not a loss.
			o.log.Warn("outbox: sent replies not forgotten by the store", "count", len(batch), "err", err)
		}
		cancel()
		o.mu.Lock()
		for _, req := range batch {
			o.donePending()
			close(req.done)
		}
		o.mu.Unlock()
	}
}

// runClaims calls Reclaim now and every Options.ClaimEvery until ctx ends.
func (o *Outbox) runClaims(ctx context.Context) {
	t := time.NewTicker(o.opts.ClaimEvery)
	defer t.Stop()
	for {
		if _, err := o.Reclaim(ctx); err != nil && ctx.Err() == nil {
			o.log.Warn("outbox: claim failed", "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}
