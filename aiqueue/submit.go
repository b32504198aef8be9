package aiqueue

// The bot's side of the queue: submit a job, and wait for its answer on
// this Queue's reply stream.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	goredis "github.com/redis/go-redis/v9"
)

// answer is a job submitted through this Queue: its result once read.
type answer struct {
	done      chan struct{} // closed when res or err is set
	res       Result
	err       error
	submitted time.Time
}

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
		Stream: q.laneOf(job.Kind).key, MinID: minID, Approx: true, Values: []any{"j", data},
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
