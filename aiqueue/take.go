package aiqueue

// The worker's side of the queue, first half: take the next job, a new
// one or one reclaimed from a worker that held it too long.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	goredis "github.com/redis/go-redis/v9"
)

// ErrNoJob is what Take returns when no job came within its wait.
var ErrNoJob = errors.New("aiqueue: no AI job waiting")

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
