// Package aiqueue carries AI searches from bots to `bashni worker`
// processes, and their answers back, over Redis streams (see Queue): AI
// players' moves, and the positions of games being analysed, one job per
// position (Job.Kind). It is a queue, not storage: the game records stay
// in package storage.
package aiqueue

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
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
// # Jobs: a stream with a consumer group
//
// Jobs are entries of one Redis stream read through one consumer group.
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
// which bounds the stream even when no worker runs.
//
// # Kinds: moves and analyses share the stream
//
// A job is an AI player's move (KindMove) or one position of a game
// being analysed (KindReview). An analysis is not one long job: its
// positions go one at a time, each sent when the last is answered, so a
// worker that dies mid-analysis costs one position's retry, leases stay
// as short as moves need, and a move submitted meanwhile waits behind at
// most one position in the stream's order, with no priorities to keep.
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
// Every command touches one key: the job stream (its hash tag is {queue}),
// or one reply stream (tagged by its Queue's random instance id), and
// each MULTI stays on one of them, so everything works unchanged on a Redis
// Cluster. Complete writes the answer and then acknowledges the job, two
// steps on two slots: answer first, so a crash in between means the job is
// answered twice (the second answer is ignored), never that it is lost. All
// job traffic goes to the one shard that owns the job stream; at a few AI
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
	jobs       string // the job stream
	consumer   string
	instance   string // names this Queue's reply stream
	visibility time.Duration
	resultTTL  time.Duration
	now        func() time.Time

	groupReady  atomic.Bool
	lastReclaim atomic.Int64 // unix nanoseconds of the last XAUTOCLAIM
	reclaimFrom atomic.Pointer[string]

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
	// Consumer names this Queue in the job stream's consumer group, for
	// XINFO (default: a random name). Two live Queues must not share one.
	Consumer string
}

// Job is one position for an AI worker to answer.
//
// The wire format is JSON that only ever gains optional fields, so bots
// and workers of neighbouring versions understand each other; what a job
// asks for is its Kind. A worker that meets a kind it does not know
// answers with an error saying so (Result.Err), and a worker older than
// the kinds refuses a review job as well, since it carries no level.
type Job struct {
	ID string `json:"id"`
	// Kind is what is asked: KindMove (the empty string, the only kind
	// before there were kinds) or KindReview.
	Kind       string    `json:"kind,omitempty"`
	GameID     string    `json:"game,omitempty"` // for logs
	Position   string    `json:"pos"`            // the project's position format
	Variant    string    `json:"variant,omitempty"`
	History    []uint64  `json:"hist,omitempty"` // hashes of earlier positions, oldest first
	QuietPlies int       `json:"quiet,omitempty"`
	Level      int       `json:"level"`             // a move's AI level, 1 and up; 0 for a review
	Limits     *Limits   `json:"limits,omitempty"`  // a review's search limits
	Deadline   time.Time `json:"deadline,omitzero"` // zero: none; a job past it is dropped

	entry   string    // stream entry id, set by Take
	replyTo string    // the submitting Queue's instance
	lease   time.Time // set by Take
}

// Job kinds.
const (
	// KindMove asks for an AI player's move at the job's Level.
	KindMove = ""
	// KindReview asks for one position of a game's analysis: a search
	// within the job's Limits, with no level and no randomness, answered
	// with the best move and its score (Result.Score).
	KindReview = "review"
)

// Limits bound a review search; zero fields do not limit. They are the
// engine's limits (ai.Limits), which this package does not import.
type Limits struct {
	Depth    int           `json:"depth,omitempty"`
	Nodes    uint64        `json:"nodes,omitempty"`
	MoveTime time.Duration `json:"movetime,omitempty"` // nanoseconds on the wire
}

// LeaseEnds is when the visibility timeout of a job returned by Take runs
// out and other workers may take it again. A worker should have completed
// (or released) the job by then, or the job will be worked on twice.
func (j Job) LeaseEnds() time.Time { return j.lease }

// Result is a worker's answer to a job.
type Result struct {
	Move  string `json:"move,omitempty"`  // in notation
	Score int    `json:"score,omitempty"` // a review's: for the side to move, hundredths of a man
	Depth int    `json:"depth,omitempty"`
	Nodes uint64 `json:"nodes,omitempty"`
	// Err says why the worker could not answer (an invalid position, no
	// legal moves); Move is empty then.
	Err string `json:"err,omitempty"`
}

// jobWire is a job as stored in the stream.
type jobWire struct {
	Job
	ReplyTo string `json:"reply"`
}

// replyWire is an answer as stored in a reply stream.
type replyWire struct {
	Job string `json:"job"`
	Result
}

// answer is a job submitted through this Queue: its result once read.
type answer struct {
	done      chan struct{} // closed when res or err is set
	res       Result
	err       error
	submitted time.Time
}

// ErrNoJob is what Take returns when no job came within its wait.
var ErrNoJob = errors.New("aiqueue: no AI job waiting")

// ErrUnknownKind is a job kind this version does not know (Job.Kind):
// Submit refuses it, and a worker answers it with this error's text.
var ErrUnknownKind = errors.New("aiqueue: unknown job kind")

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
		jobs:       prefix + "ai:{queue}:jobs",
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
	start := "0-0"
	q.reclaimFrom.Store(&start)
	return q
}

// VisibilityTimeout is how long a taken job belongs to its worker.
func (q *Queue) VisibilityTimeout() time.Duration { return q.visibility }

func (q *Queue) replyKey(instance string) string { return q.prefix + "ai:reply:{" + instance + "}" }

// Submit adds a job for the workers. Its answer is collected with Await on
// this same Queue.
func (q *Queue) Submit(ctx context.Context, job Job) error {
	op := "submit job " + job.ID
	if err := ctxErr(ctx, op); err != nil {
		return err
	}
	switch {
	case job.ID == "" || len(job.ID) > 200:
		return fmt.Errorf("aiqueue: submit job: id %q: want 1 to 200 bytes", job.ID)
	case job.Position == "":
		return fmt.Errorf("aiqueue: %s: no position", op)
	case !job.Deadline.IsZero() && !q.now().Before(job.Deadline):
		return fmt.Errorf("aiqueue: %s: its deadline has passed", op)
	case job.Kind == KindReview && (job.Limits == nil || *job.Limits == Limits{}):
		return fmt.Errorf("aiqueue: %s: a review without limits", op)
	case job.Kind != KindMove && job.Kind != KindReview:
		return fmt.Errorf("aiqueue: %s: %w %q", op, ErrUnknownKind, job.Kind)
	}
	data, err := json.Marshal(jobWire{Job: job, ReplyTo: q.instance})
	if err != nil {
		return fmt.Errorf("aiqueue: %s: %w", op, err)
	}

	// Wait for the answer before asking: a fast worker may answer before
	// Submit returns.
	q.mu.Lock()
	if _, dup := q.pending[job.ID]; dup {
		q.mu.Unlock()
		return fmt.Errorf("aiqueue: %s: already submitted", op)
	}
	q.sweepLocked()
	q.pending[job.ID] = &answer{done: make(chan struct{}), submitted: q.now()}
	q.listenLocked()
	q.mu.Unlock()

	cctx, cancel := context.WithTimeout(ctx, callTimeout)
	defer cancel()
	minID := strconv.FormatInt(q.now().Add(-jobRetention).UnixMilli(), 10)
	err = q.rdb.XAdd(cctx, &goredis.XAddArgs{
		Stream: q.jobs, MinID: minID, Approx: true, Values: []any{"j", data},
	}).Err()
	if err != nil {
		q.mu.Lock()
		delete(q.pending, job.ID)
		q.mu.Unlock()
		return q.fail(ctx, op, err)
	}
	return nil
}

// Await waits for the answer to a job submitted through this Queue, until
// ctx ends. The answer of a job it did not submit never comes: Await then
// returns ctx's error, as it does for a job no worker answered in time.
// Answers are kept for Await for ResultTTL after Submit.
func (q *Queue) Await(ctx context.Context, jobID string) (Result, error) {
	op := "await job " + jobID
	q.mu.Lock()
	a := q.pending[jobID]
	q.mu.Unlock()
	if a == nil {
		<-ctx.Done()
		return Result{}, fmt.Errorf("aiqueue: %s: %w", op, ctx.Err())
	}
	select {
	case <-a.done:
		q.forget(jobID, a)
		if a.err != nil {
			return Result{}, fmt.Errorf("aiqueue: %s: %w", op, a.err)
		}
		return a.res, nil
	case <-ctx.Done():
		q.forget(jobID, a)
		return Result{}, fmt.Errorf("aiqueue: %s: %w", op, ctx.Err())
	}
}

// forget drops a collected or abandoned answer.
func (q *Queue) forget(jobID string, a *answer) {
	q.mu.Lock()
	if q.pending[jobID] == a {
		delete(q.pending, jobID)
	}
	q.mu.Unlock()
}

// sweepLocked drops answers nobody collected within ResultTTL (a caller
// that submitted and never awaited).
func (q *Queue) sweepLocked() {
	now := q.now()
	if now.Sub(q.lastSweep) < q.resultTTL/2 {
		return
	}
	q.lastSweep = now
	for id, a := range q.pending {
		if now.Sub(a.submitted) > q.resultTTL {
			delete(q.pending, id)
		}
	}
}

// listenLocked starts the reply reader unless it runs.
func (q *Queue) listenLocked() {
	if !q.listening {
		q.listening = true
		go q.listen()
	}
}

// awaitedLocked reports whether some submitted job still has no answer.
func (q *Queue) awaitedLocked() bool {
	for _, a := range q.pending {
		select {
		case <-a.done:
		default:
			return true
		}
	}
	return false
}

// listen reads this Queue's reply stream and hands answers to their
// Awaits. It runs while some answer is missing and ends by itself after
// that (within replySlice), so it needs no Close; an error from Redis fails
// every missing answer at once, and the next Submit starts it again.
func (q *Queue) listen() {
	key := q.replyKey(q.instance)
	for {
		q.mu.Lock()
		if !q.awaitedLocked() {
			q.listening = false
			q.mu.Unlock()
			return
		}
		from := q.lastReply
		q.mu.Unlock()

		ctx, cancel := context.WithTimeout(context.Background(), replySlice+callTimeout)
		streams, err := q.rdb.XRead(ctx, &goredis.XReadArgs{
			Streams: []string{key, from}, Count: 100, Block: replySlice,
		}).Result()
		cancel()
		if errors.Is(err, goredis.Nil) {
			continue
		}
		q.mu.Lock()
		if err != nil {
			err = fail("read replies", err)
			for _, a := range q.pending {
				select {
				case <-a.done:
				default:
					a.err = err
					close(a.done)
				}
			}
			q.listening = false
			q.mu.Unlock()
			return
		}
		for _, s := range streams {
			for _, m := range s.Messages {
				q.lastReply = m.ID
				q.deliverLocked(m)
			}
		}
		q.mu.Unlock()
	}
}

// deliverLocked hands one reply to its Await. Replies to jobs nobody waits
// for any more, and second answers to a job, are dropped.
func (q *Queue) deliverLocked(m goredis.XMessage) {
	s, _ := m.Values["r"].(string)
	var r replyWire
	if err := json.Unmarshal([]byte(s), &r); err != nil {
		return
	}
	a := q.pending[r.Job]
	if a == nil {
		return
	}
	select {
	case <-a.done:
	default:
		a.res = r.Result
		close(a.done)
	}
}

// Take gives the caller the next job, waiting up to block for one (not at
// all if block <= 0); ErrNoJob when none came. Jobs another worker took
// and did not complete within the visibility timeout come first. Jobs past
// their deadline, and entries that are not jobs, are dropped on the way.
// The caller must Complete or Release the job before its LeaseEnds.
func (q *Queue) Take(ctx context.Context, block time.Duration) (Job, error) {
	const op = "take job"
	if err := ctxErr(ctx, op); err != nil {
		return Job{}, err
	}
	end := time.Now().Add(block)
	// Blocking reads are cut into slices so that jobs going stale are
	// noticed and a canceled ctx is honoured promptly.
	slice := min(max(q.visibility/4, 10*time.Millisecond), 500*time.Millisecond)
	for {
		if err := q.ensureGroup(ctx); err != nil {
			return Job{}, err
		}
		job, ok, err := q.reclaim(ctx)
		if err == nil && !ok {
			wait := min(time.Until(end), slice)
			if dl, has := ctx.Deadline(); has {
				wait = min(wait, time.Until(dl)) // a timeout from Redis, not the network
			}
			job, ok, err = q.read(ctx, wait)
		}
		if err != nil {
			if isNoGroup(err) {
				q.groupReady.Store(false)
				continue
			}
			return Job{}, q.fail(ctx, op, err)
		}
		if ok {
			if ctx.Err() != nil {
				// Read just as the caller gave up: hand it on at once.
				rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), callTimeout)
				_ = q.Release(rctx, job)
				cancel()
				return Job{}, fmt.Errorf("aiqueue: %s: %w", op, ctx.Err())
			}
			return job, nil
		}
		if err := ctx.Err(); err != nil {
			return Job{}, fmt.Errorf("aiqueue: %s: %w", op, err)
		}
		if !time.Now().Before(end) {
			return Job{}, ErrNoJob
		}
	}
}

// ensureGroup creates the consumer group (and the stream) once. It reads
// from the stream's start, so jobs submitted before any worker ran are
// served too.
func (q *Queue) ensureGroup(ctx context.Context) error {
	if q.groupReady.Load() {
		return nil
	}
	cctx, cancel := context.WithTimeout(ctx, callTimeout)
	defer cancel()
	err := q.rdb.XGroupCreateMkStream(cctx, q.jobs, group, "0").Err()
	if err != nil && !strings.HasPrefix(err.Error(), "BUSYGROUP") {
		return q.fail(ctx, "create consumer group", err)
	}
	q.groupReady.Store(true)
	return nil
}

func isNoGroup(err error) bool { return err != nil && strings.HasPrefix(err.Error(), "NOGROUP") }

// reclaim takes one job whose worker has held it past the visibility
// timeout. Workers share the scan: it runs at most every visibility/4.
func (q *Queue) reclaim(ctx context.Context) (Job, bool, error) {
	every := min(max(q.visibility/4, 10*time.Millisecond), time.Second)
	last := q.lastReclaim.Load()
	now := time.Now().UnixNano()
	if now-last < int64(every) || !q.lastReclaim.CompareAndSwap(last, now) {
		return Job{}, false, nil
	}
	// XAUTOCLAIM looks at a few pending entries per call and returns where
	// to go on; a few calls cover the pending list of any sane deployment.
	for range 10 {
		from := *q.reclaimFrom.Load()
		cctx, cancel := context.WithTimeout(ctx, callTimeout)
		msgs, next, err := q.rdb.XAutoClaim(cctx, &goredis.XAutoClaimArgs{
			Stream: q.jobs, Group: group, Consumer: q.consumer, MinIdle: q.visibility, Start: from, Count: 1,
		}).Result()
		cancel()
		if err != nil {
			return Job{}, false, err
		}
		q.reclaimFrom.Store(&next)
		for _, m := range msgs {
			if job, ok := q.decode(ctx, m); ok {
				return job, true, nil
			}
		}
		if next == "0-0" { // the whole pending list has been looked at
			return Job{}, false, nil
		}
	}
	return Job{}, false, nil
}

// read takes one new job, blocking up to wait.
func (q *Queue) read(ctx context.Context, wait time.Duration) (Job, bool, error) {
	args := &goredis.XReadGroupArgs{
		Group: group, Consumer: q.consumer, Streams: []string{q.jobs, ">"}, Count: 1, Block: -1,
	}
	if wait >= time.Millisecond {
		args.Block = wait
	}
	cctx, cancel := context.WithTimeout(ctx, max(wait, 0)+callTimeout)
	streams, err := q.rdb.XReadGroup(cctx, args).Result()
	cancel()
	if errors.Is(err, goredis.Nil) {
		return Job{}, false, nil
	}
	if err != nil {
		return Job{}, false, err
	}
	for _, s := range streams {
		for _, m := range s.Messages {
			if job, ok := q.decode(ctx, m); ok {
				return job, true, nil
			}
		}
	}
	return Job{}, false, nil
}

// decode turns a delivered entry into a job. Entries that are no use
// (deleted meanwhile, not a job, past the deadline) are acknowledged and
// deleted, and ok is false.
func (q *Queue) decode(ctx context.Context, m goredis.XMessage) (Job, bool) {
	var w jobWire
	s, _ := m.Values["j"].(string)
	now := q.now()
	if s == "" || json.Unmarshal([]byte(s), &w) != nil || w.ID == "" ||
		!w.Deadline.IsZero() && !now.Before(w.Deadline) {
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), callTimeout)
		_ = q.done(cctx, m.ID)
		cancel()
		return Job{}, false
	}
	job := w.Job
	job.entry, job.replyTo, job.lease = m.ID, w.ReplyTo, now.Add(q.visibility)
	return job, true
}

// done acknowledges and deletes a job's entry in one transaction.
func (q *Queue) done(ctx context.Context, entry string) error {
	_, err := q.rdb.TxPipelined(ctx, func(p goredis.Pipeliner) error {
		p.XAck(ctx, q.jobs, group, entry)
		p.XDel(ctx, q.jobs, entry)
		return nil
	})
	return err
}

// Complete delivers the answer to a job returned by Take and removes the
// job. The answer is written first: a crash before the job is removed
// leaves a job that is answered again, never one that is lost.
func (q *Queue) Complete(ctx context.Context, job Job, res Result) error {
	op := "complete job " + job.ID
	if job.entry == "" {
		return fmt.Errorf("aiqueue: %s: not a job from Take", op)
	}
	if err := ctxErr(ctx, op); err != nil {
		return err
	}
	cctx, cancel := context.WithTimeout(ctx, callTimeout)
	defer cancel()
	if job.replyTo != "" {
		data, err := json.Marshal(replyWire{Job: job.ID, Result: res})
		if err != nil {
			return fmt.Errorf("aiqueue: %s: %w", op, err)
		}
		key := q.replyKey(job.replyTo)
		_, err = q.rdb.TxPipelined(cctx, func(p goredis.Pipeliner) error {
			p.XAdd(cctx, &goredis.XAddArgs{Stream: key, MaxLen: replyMaxLen, Approx: true, Values: []any{"r", data}})
			p.PExpire(cctx, key, q.resultTTL)
			return nil
		})
		if err != nil {
			return q.fail(ctx, op, err)
		}
	}
	return q.fail(ctx, op, q.done(cctx, job.entry))
}

// Release gives a job returned by Take back at once, for another worker
// to take (a worker shutting down before it could start on it).
func (q *Queue) Release(ctx context.Context, job Job) error {
	op := "release job " + job.ID
	if job.entry == "" {
		return fmt.Errorf("aiqueue: %s: not a job from Take", op)
	}
	if err := ctxErr(ctx, op); err != nil {
		return err
	}
	cctx, cancel := context.WithTimeout(ctx, callTimeout)
	defer cancel()
	// Owned by a consumer nobody reads as, and idle as long as the
	// visibility timeout: XAUTOCLAIM hands it out on the next scan, and this
	// consumer holds nothing when it leaves.
	err := q.rdb.Do(cctx, "XCLAIM", q.jobs, group, released, 0, job.entry,
		"IDLE", q.visibility.Milliseconds(), "JUSTID").Err()
	if err == nil {
		q.lastReclaim.Store(0) // look for it at once
	}
	return q.fail(ctx, op, err)
}

// Leave removes this Queue's consumer from the group when it holds no jobs,
// so that worker restarts do not pile up consumers. Call it when a worker
// stops; a consumer that still holds jobs stays until they are reclaimed.
func (q *Queue) Leave(ctx context.Context) error {
	const op = "leave consumer group"
	if err := ctxErr(ctx, op); err != nil {
		return err
	}
	cctx, cancel := context.WithTimeout(ctx, callTimeout)
	defer cancel()
	held, err := q.rdb.XPendingExt(cctx, &goredis.XPendingExtArgs{
		Stream: q.jobs, Group: group, Start: "-", End: "+", Count: 1, Consumer: q.consumer,
	}).Result()
	if isNoGroup(err) {
		return nil
	}
	if err != nil {
		return q.fail(ctx, op, err)
	}
	if len(held) > 0 {
		return nil
	}
	return q.fail(ctx, op, q.rdb.XGroupDelConsumer(cctx, q.jobs, group, q.consumer).Err())
}

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
