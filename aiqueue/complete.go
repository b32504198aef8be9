package aiqueue

// The worker's side of the queue, second half: answer a job taken, give
// it back, leave the consumer group.

import (
	"context"
	"encoding/json"
	"fmt"

	goredis "github.com/redis/go-redis/v9"
)

// done acknowledges and deletes a job's entry in lane l in one
// transaction.
func (q *Queue) done(ctx context.Context, l *lane, entry string) error {
	_, err := q.rdb.TxPipelined(ctx, func(p goredis.Pipeliner) error {
		p.XAck(ctx, l.key, group, entry)
		p.XDel(ctx, l.key, entry)
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
	return q.fail(ctx, op, q.done(cctx, job.lane, job.entry))
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
	return q.fail(ctx, op, q.release(cctx, job))
}

// release hands a job to the consumer nobody reads as, idle as long as
// the visibility timeout: XAUTOCLAIM hands it out on the next scan (made
// due at once), and this consumer holds nothing when it leaves.
func (q *Queue) release(ctx context.Context, job Job) error {
	err := q.rdb.Do(ctx, "XCLAIM", job.lane.key, group, released, 0, job.entry,
		"IDLE", q.visibility.Milliseconds(), "JUSTID").Err()
	if err == nil {
		q.lastReclaim.Store(0) // look for it at once
	}
	return err
}

// giveBack releases a job Take read but does not hand out (a review
// position read with a move). Should Redis fail here, the job comes back
// after the visibility timeout instead.
func (q *Queue) giveBack(ctx context.Context, job Job) {
	cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), callTimeout)
	defer cancel()
	_ = q.release(cctx, job)
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
	for _, l := range q.lanes {
		held, err := q.rdb.XPendingExt(cctx, &goredis.XPendingExtArgs{
			Stream: l.key, Group: group, Start: "-", End: "+", Count: 1, Consumer: q.consumer,
		}).Result()
		if isNoGroup(err) {
			continue
		}
		if err != nil {
			return q.fail(ctx, op, err)
		}
		if len(held) > 0 {
			return nil
		}
	}
	for _, l := range q.lanes {
		if err := q.rdb.XGroupDelConsumer(cctx, l.key, group, q.consumer).Err(); err != nil && !isNoGroup(err) {
			return q.fail(ctx, op, err)
		}
	}
	return nil
}
