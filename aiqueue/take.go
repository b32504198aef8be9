package aiqueue

// The worker's side of the queue, first half: take the next job, moves
// before review positions, a new one or one reclaimed from a worker that
// held it too long.

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
// all if block <= 0); ErrNoJob when none came. Moves come before review
// positions, and within each lane jobs another worker took and did not
// complete within the visibility timeout come before new ones. Jobs past
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
		if err := q.ensureGroups(ctx); err != nil {
			return Job{}, err
		}
		wait := min(time.Until(end), slice)
		if dl, has := ctx.Deadline(); has {
			wait = min(wait, time.Until(dl)) // a timeout from Redis, not the network
		}
		job, ok, err := q.next(ctx, wait)
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

// next takes one job, looking at the lanes in order (moves, then review
// positions): in each, a job held too long by its worker (when the shared
// reclaim scan is due) and then a new one, without waiting; failing all,
// it waits up to wait for a new job in any lane.
func (q *Queue) next(ctx context.Context, wait time.Duration) (Job, bool, error) {
	scan := q.reclaimDue()
	for i, l := range q.lanes {
		if scan {
			if job, ok, err := q.reclaim(ctx, l); err != nil || ok {
				return job, ok, err
			}
		}
		if i < len(q.lanes)-1 { // the last lane is read below, with the wait
			if job, ok, err := q.read(ctx, q.lanes[i:i+1], 0); err != nil || ok {
				return job, ok, err
			}
		}
	}
	job, ok, err := q.read(ctx, q.lanes, wait)
	if err != nil || !ok || job.lane == q.lanes[0] {
		return job, ok, err
	}
	// A review position. A move may have come with it or just after: a
	// read that waited is woken by the stream that got an entry first, and
	// a move submitted a moment later would wait behind a whole search.
	// One more look at the moves; if one is there, the review position
	// goes back for the next Take.
	move, ok, err := q.read(ctx, q.lanes[:1], 0)
	if err != nil || !ok {
		return job, true, nil // the move, if any, is the next Take's
	}
	q.giveBack(ctx, job)
	return move, true, nil
}

// ensureGroups creates the consumer group (and the stream) of each lane
// once. They read from the streams' start, so jobs submitted before any
// worker ran are served too.
func (q *Queue) ensureGroups(ctx context.Context) error {
	if q.groupReady.Load() {
		return nil
	}
	cctx, cancel := context.WithTimeout(ctx, callTimeout)
	defer cancel()
	for _, l := range q.lanes {
		err := q.rdb.XGroupCreateMkStream(cctx, l.key, group, "0").Err()
		if err != nil && !strings.HasPrefix(err.Error(), "BUSYGROUP") {
			return q.fail(ctx, "create consumer group", err)
		}
	}
	q.groupReady.Store(true)
	return nil
}

func isNoGroup(err error) bool { return err != nil && strings.HasPrefix(err.Error(), "NOGROUP") }

// reclaimDue says whether this caller runs the reclaim scan now. The
// worker goroutines of a Queue share it: it runs at most every
// visibility/4, over every lane.
func (q *Queue) reclaimDue() bool {
	every := min(max(q.visibility/4, 10*time.Millisecond), time.Second)
	last := q.lastReclaim.Load()
	now := time.Now().UnixNano()
	return now-last >= int64(every) && q.lastReclaim.CompareAndSwap(last, now)
}

// reclaim takes one job of lane l whose worker has held it past the
// visibility timeout.
func (q *Queue) reclaim(ctx context.Context, l *lane) (Job, bool, error) {
	// XAUTOCLAIM looks at a few pending entries per call and returns where
	// to go on; a few calls cover the pending list of any sane deployment.
	for range 10 {
		from := *l.reclaimFrom.Load()
		cctx, cancel := context.WithTimeout(ctx, callTimeout)
		msgs, next, err := q.rdb.XAutoClaim(cctx, &goredis.XAutoClaimArgs{
			Stream: l.key, Group: group, Consumer: q.consumer, MinIdle: q.visibility, Start: from, Count: 1,
		}).Result()
		cancel()
		if err != nil {
			return Job{}, false, err
		}
		l.reclaimFrom.Store(&next)
		for _, m := range msgs {
			if job, ok := q.decode(ctx, l, m); ok {
				return job, true, nil
			}
		}
		if next == "0-0" { // the whole pending list has been looked at
			return Job{}, false, nil
		}
	}
	return Job{}, false, nil
}

// read takes one new job from lanes, blocking up to wait (not at all if
// wait is under a millisecond). XREADGROUP gives up to one entry of each
// lane; the job of the first lane is kept and the others' are given back.
func (q *Queue) read(ctx context.Context, lanes []*lane, wait time.Duration) (Job, bool, error) {
	streams := make([]string, 0, 2*len(lanes))
	for _, l := range lanes {
		streams = append(streams, l.key)
	}
	for range lanes {
		streams = append(streams, ">")
	}
	args := &goredis.XReadGroupArgs{Group: group, Consumer: q.consumer, Streams: streams, Count: 1, Block: -1}
	if wait >= time.Millisecond {
		args.Block = wait
	}
	cctx, cancel := context.WithTimeout(ctx, max(wait, 0)+callTimeout)
	got, err := q.rdb.XReadGroup(cctx, args).Result()
	cancel()
	if errors.Is(err, goredis.Nil) {
		return Job{}, false, nil
	}
	if err != nil {
		return Job{}, false, err
	}
	var kept Job
	ok := false
	for _, l := range lanes { // in the lanes' order, whatever the reply's
		for _, s := range got {
			if s.Stream != l.key {
				continue
			}
			for _, m := range s.Messages {
				job, valid := q.decode(ctx, l, m)
				switch {
				case !valid:
				case !ok:
					kept, ok = job, true
				default:
					q.giveBack(ctx, job)
				}
			}
		}
	}
	return kept, ok, nil
}

// decode turns an entry delivered from lane l into a job. Entries that are
// no use (deleted meanwhile, not a job, past the deadline) are
// acknowledged and deleted, and ok is false.
func (q *Queue) decode(ctx context.Context, l *lane, m goredis.XMessage) (Job, bool) {
	var w jobWire
	s, _ := m.Values["j"].(string)
	now := q.now()
	if s == "" || json.Unmarshal([]byte(s), &w) != nil || w.ID == "" ||
		!w.Deadline.IsZero() && !now.Before(w.Deadline) {
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), callTimeout)
		_ = q.done(cctx, l, m.ID)
		cancel()
		return Job{}, false
	}
	job := w.Job
	job.entry, job.lane, job.replyTo, job.lease = m.ID, l, w.ReplyTo, now.Add(q.visibility)
	return job, true
}
