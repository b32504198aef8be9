// Package aiqueue carries AI searches from bots to `bashni worker`
// processes, and their answers back, over Redis streams (see Queue): AI
// players' moves, and the positions of games being analysed, one job per
// position (Job.Kind). It is a queue, not storage: the game records stay
// in package storage.
//
// One Queue type serves both ends. The bot's side, submit.go: Submit a
// job and Await its answer. The worker's side: take.go takes the next job
// (Take: new, or reclaimed from a worker that held it too long), and
// complete.go answers it (Complete), gives it back (Release) and leaves
// the consumer group (Leave). job.go is what travels between them.
package aiqueue

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/bashni/bashni/storage"
	"github.com/bashni/bashni/storage/redis"
)

// Queue carries AI searches from bots to `bashni worker` processes and
// their answers back, so that a bot never spends its own CPU on thinking
// and more workers can be started when AI games pile up.
//
// # Jobs: streams with a consumer group
//
// Jobs are entries of Redis streams read through a consumer group.
// A list moved with BLMOVE into a processing list could hand a job out
// atomically too, but it keeps no record of when a job was taken, so a
// reaper would need a second key written in a second step (and a crash in
// between leaves a job that nobody ever retries). The consumer group keeps
// that record itself: XREADGROUP gives each entry to exactly one worker and,
// in the same step, enters it in the group's pending list with its delivery
// time; XAUTOCLAIM atomically hands an entry that has been pending longer
// than the visibility timeout to the worker that asks, resetting its clock.
// So a worker that dies mid-job delays that job by the visibility timeout
// and never loses it, and two workers never hold the same job at once
// (short of one overrunning its lease: see Job.LeaseEnds). A completed job
// is acknowledged and deleted (XACK and XDEL in one MULTI), a released one
// is made eligible for XAUTOCLAIM at once, and jobs whose deadline has
// passed are dropped unanswered by whichever worker finds them: the bot has
// stopped waiting. Every XADD trims entries older than ten minutes (MINID),
// which bounds the streams even when no worker runs.
//
// # Two lanes: moves before review positions
//
// A job is an AI player's move (KindMove) or one position of a game
// being analysed (KindReview). An analysis is not one long job: its
// positions go one at a time, each sent when the last is answered, so a
// worker that dies mid-analysis costs one position's retry and leases
// stay as short as moves need. But every bot replica works on as many
// analyses at once as it has engines, so a stream shared by both kinds
// would queue a move behind a position of each, in order of arrival. So
// the kinds go in two streams, lanes, with one consumer group each: moves
// in the jobs stream, review positions in the reviews stream. Take looks
// at the moves first, without waiting; only when none is there does it
// take a review position, or wait for a job of either kind. Having got a
// review position it looks at the moves once more (Redis serves a waiting
// read from the stream that woke it, and a move may come a moment after
// the position): if a move is there, the position is given back
// (released) and the move taken. A move so waits for the searches already
// under way, never for a queued position. Redis streams have no
// priorities; a sorted set could have one, but it would lose what the
// consumer group gives (a pending list with delivery times, XAUTOCLAIM).
// The moves keep the stream every version used, so a worker from before
// the lanes still serves them (review positions then wait for an
// upgraded worker: upgrade workers first), and review positions from a
// bot from before the lanes are served as moves are.
//
// # Answers: one reply stream per Queue
//
// Submit names the submitting Queue's own reply stream in the job, and
// Complete appends the answer to it. One goroutine per Queue reads that
// stream with a blocking XREAD while answers are awaited, and hands each to
// its Await. A key per job read with BLPOP would hold one pooled connection
// per AI move in flight, so a busy bot could starve its own game reads and
// writes of connections; here a bot holds one, however many games think at
// once, and Await returns the moment its context ends, without a round trip.
// Reading is by entry id, not destructive, so a reply lost on the wire and
// resent by the client is read again rather than lost. A reply stream is
// capped at about a thousand entries and expires ResultTTL after its last
// answer, so the streams of bots that are gone vanish by themselves.
//
// # Cluster
//
// Every command touches the job streams (their hash tag is {queue}, so
// the two lanes share a slot and one XREADGROUP may read both) or one
// reply stream (tagged by its Queue's random instance id), and each MULTI
// stays on one of them, so everything works unchanged on a Redis Cluster. Complete writes the answer and then acknowledges the job, two
// steps on two slots: answer first, so a crash in between means the job is
// answered twice (the second answer is ignored), never that it is lost. All
// job traffic goes to the one shard that owns the job streams; at a few AI
// moves a second per bot that is nothing, and the reply traffic spreads over
// the shards with the bots.
//
// # Faults
//
// Every call has a timeout (the client's, plus a context deadline around
// each command). A dead server makes Submit, Take, Complete and Release fail
// at once, and the Awaits of the moment fail together when the reading
// goroutine hits the error, all with errors wrapping storage.ErrUnavailable.
// A caller's own context ending is reported as that context's error instead.
// Redis 6.2 or newer is needed (XAUTOCLAIM, XADD MINID).
type Queue struct {
	rdb        goredis.UniversalClient
	prefix     string
	lanes      []*lane // the job streams, moves first
	consumer   string
	instance   string // names this Queue's reply stream
	visibility time.Duration
	resultTTL  time.Duration
	now        func() time.Time

	groupReady  atomic.Bool
	lastReclaim atomic.Int64 // unix nanoseconds of the last reclaim scan

	mu        sync.Mutex
	pending   map[string]*answer // by job id: jobs submitted here and not yet collected
	listening bool               // the reply reader runs
	lastReply string             // id of the last reply read
	lastSweep time.Time
}

// QueueOptions tune a Queue; zero fields take the defaults.
type QueueOptions struct {
	// VisibilityTimeout is how long a taken job belongs to its worker; after
	// that another worker may take it (default 5s). It must exceed the
	// longest search a worker makes: workers bound theirs by the job's
	// lease (Job.LeaseEnds), and every AI level thinks for 3s at most.
	VisibilityTimeout time.Duration
	// ResultTTL is how long answers are kept (default 1m): a reply stream
	// expires this long after its last answer, and Await finds an answer
	// for this long after its Submit.
	ResultTTL time.Duration
	// Consumer names this Queue in the job streams' consumer groups, for
	// XINFO (default: a random name). Two live Queues must not share one.
	Consumer string
}

const (
	defaultVisibility = 5 * time.Second
	defaultResultTTL  = time.Minute
	// callTimeout bounds each command beyond its own blocking time, also
	// with a client made without timeouts.
	callTimeout = 3 * time.Second
	// jobRetention: a job this old is of no use to anyone.
	jobRetention = 10 * time.Minute
	// replySlice is how long the reply reader blocks per XREAD; it stops
	// within that once nothing is awaited.
	replySlice  = 500 * time.Millisecond
	replyMaxLen = 1000
	group       = "workers"
	// released owns the jobs given back by Release; XAUTOCLAIM takes them.
	released = "released"
)

// New makes the AI job queue on client, with keys under prefix (the
// store's, the store's default if empty). The client stays the caller's. now is
// the caller's clock, which decides jobs' deadlines and leases; waits on
// Redis itself (a blocking read, the reclaim scan's pace) are wall time,
// since no clock of ours makes the network answer sooner. It panics if now
// is nil or the prefix contains a brace.
func New(client goredis.UniversalClient, prefix string, now func() time.Time, opts QueueOptions) *Queue {
	if now == nil {
		panic("aiqueue: New without a clock")
	}
	if prefix == "" {
		prefix = redis.DefaultPrefix
	}
	if strings.ContainsAny(prefix, "{}") {
		panic(fmt.Sprintf("aiqueue: key prefix %q contains a brace", prefix))
	}
	q := &Queue{
		rdb:        client,
		prefix:     prefix,
		lanes:      []*lane{newLane(prefix + "ai:{queue}:jobs"), newLane(prefix + "ai:{queue}:reviews")},
		consumer:   opts.Consumer,
		instance:   strings.ToLower(rand.Text()[:16]),
		visibility: opts.VisibilityTimeout,
		resultTTL:  opts.ResultTTL,
		now:        now,
		pending:    make(map[string]*answer),
		lastReply:  "0-0", // the reply stream is this Queue's own and new
	}
	if q.consumer == "" {
		q.consumer = "c-" + q.instance
	}
	if q.visibility <= 0 {
		q.visibility = defaultVisibility
	}
	if q.resultTTL <= 0 {
		q.resultTTL = defaultResultTTL
	}
	return q
}

// lane is one of the job streams, in the order Take serves them.
type lane struct {
	key         string
	reclaimFrom atomic.Pointer[string] // where the reclaim scan goes on
}

func newLane(key string) *lane {
	l := &lane{key: key}
	start := "0-0"
	l.reclaimFrom.Store(&start)
	return l
}

// laneOf is the lane of jobs of kind: review positions in the second,
// everything else (moves, kinds to come) in the first.
func (q *Queue) laneOf(kind string) *lane {
	if kind == KindReview {
		return q.lanes[1]
	}
	return q.lanes[0]
}

// VisibilityTimeout is how long a taken job belongs to its worker.
func (q *Queue) VisibilityTimeout() time.Duration { return q.visibility }

func (q *Queue) replyKey(instance string) string { return q.prefix + "ai:reply:{" + instance + "}" }

// ctxErr reports a context that has already ended as such (the store's
// start would call a deadline an outage).
func ctxErr(ctx context.Context, op string) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("aiqueue: %s: %w", op, err)
	}
	return nil
}

// fail is the store's fail, except that the end of the caller's own
// context is reported as such, not as Redis being unavailable.
func (q *Queue) fail(ctx context.Context, op string, err error) error {
	if err == nil {
		return nil
	}
	if ctx.Err() != nil {
		return fmt.Errorf("aiqueue: %s: %w", op, ctx.Err())
	}
	if dl, ok := ctx.Deadline(); ok && !time.Now().Before(dl) {
		// The network timed out on the caller's deadline a moment before
		// the context's own timer fired.
		return fmt.Errorf("aiqueue: %s: %w", op, context.DeadlineExceeded)
	}
	return fail(op, err)
}

// fail wraps a Redis error as storage.ErrUnavailable (the bot then says
// "try again shortly"), but for a cancel, which is the caller's own.
func fail(op string, err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, context.Canceled):
		return fmt.Errorf("aiqueue: %s: %w", op, err)
	default:
		return fmt.Errorf("aiqueue: %s: %w: %w", op, storage.ErrUnavailable, err)
	}
}
