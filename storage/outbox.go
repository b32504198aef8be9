package storage

import (
	"context"
	"time"
)

// Owed is one request the bot owes a chat (a reply, a card edit, a
// notice), kept in the store from the write that made it owed until it has
// been sent. Data is opaque to the store: the bot's outbox encodes it.
type Owed struct {
	// ID is given by the store when the request is appended; ids sort in
	// the order the requests were appended, so that a replica that takes
	// over the requests of one that died sends each chat's in order.
	ID   string
	Data []byte
}

// Outbox is the store's side of the transactional outbox: what a handled
// update owes the players is written with the update's mark in one write,
// so that no reply exists only in the memory of the process that made it.
// Each request belongs to one owner (a bot process) while that owner's
// lease lasts; the owner renews its lease by claiming, sends, and acks.
// When a process dies its lease runs out and the next claim by any other
// process takes its requests over.
//
// Both stores implement it and pass storagetest's outbox tests.
type Outbox interface {
	// MarkUpdateOwing is MarkUpdate that, when the update is seen for the
	// first time, also appends owed in the same atomic write, owned by
	// owner, and renews owner's lease until now+lease. It returns the ids
	// given to owed, in order; none when the update was marked already.
	MarkUpdateOwing(ctx context.Context, updateID int64, ttl time.Duration, owner string, lease time.Duration, owed [][]byte) (first bool, ids []string, err error)
	// AppendOutbox appends owed for owner in one write and renews owner's
	// lease.
	AppendOutbox(ctx context.Context, owner string, lease time.Duration, owed [][]byte) ([]string, error)
	// AckOutbox removes sent (or given up) requests. Acking an id that is
	// gone is no error.
	AckOutbox(ctx context.Context, owner string, ids []string) error
	// ClaimOutbox renews owner's lease until now+lease and takes over the
	// requests of every other owner whose lease has ended, returning them
	// oldest first. A request is claimed by one claimer only.
	ClaimOutbox(ctx context.Context, owner string, lease time.Duration) ([]Owed, error)
	// ReleaseOutbox ends owner's lease at once (a clean shutdown): what it
	// still owes goes to the next claimer without waiting for the lease.
	ReleaseOutbox(ctx context.Context, owner string) error
}
