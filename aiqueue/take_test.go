package aiqueue_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/bashni/bashni/aiqueue"
	"github.com/bashni/bashni/internal/testkit"
	"github.com/bashni/bashni/storage/redis/redistest"
)

func TestQueueTwoWorkersNeverTakeTheSameJob(t *testing.T) {
	t.Parallel()
	db := redistest.New(t)
	bot := newQueue(t, db, aiqueue.QueueOptions{})
	const jobs, workers = 60, 4
	for i := range jobs {
		if err := bot.Submit(t.Context(), testJob(fmt.Sprint(i))); err != nil {
			t.Fatalf("Submit: %v", err)
		}
	}
	var (
		mu    sync.Mutex
		taken = map[string][]int{}
		wg    sync.WaitGroup
	)
	for w := range workers {
		q := newQueue(t, db, aiqueue.QueueOptions{})
		wg.Go(func() {
			for {
				job, err := q.Take(t.Context(), 200*time.Millisecond)
				if errors.Is(err, aiqueue.ErrNoJob) {
					return
				}
				if err != nil {
					t.Errorf("worker %d: Take: %v", w, err)
					return
				}
				mu.Lock()
				taken[job.ID] = append(taken[job.ID], w)
				mu.Unlock()
				if err := q.Complete(t.Context(), job, aiqueue.Result{Move: "a1-b2"}); err != nil {
					t.Errorf("worker %d: Complete: %v", w, err)
				}
			}
		})
	}
	wg.Wait()
	if len(taken) != jobs {
		t.Errorf("%d distinct jobs taken, want %d", len(taken), jobs)
	}
	by := map[int]int{}
	for id, ws := range taken {
		if len(ws) != 1 {
			t.Errorf("job %s taken by workers %v, want exactly one", id, ws)
		}
		by[ws[0]]++
	}
	t.Logf("jobs per worker: %v", by)
}

// A worker takes a job and dies: after the visibility timeout another
// worker gets it, and the answer reaches the bot.
func TestQueueJobOfDeadWorkerIsTakenAgain(t *testing.T) {
	t.Parallel()
	db := redistest.New(t)
	const visibility = 300 * time.Millisecond
	opts := aiqueue.QueueOptions{VisibilityTimeout: visibility}
	bot := newQueue(t, db, opts)
	dead := newQueue(t, db, opts)
	alive := newQueue(t, db, opts)

	if err := bot.Submit(t.Context(), testJob("orphan")); err != nil {
		t.Fatalf("Submit: %v", err)
	}
	first := take(t, dead, time.Second)
	taken := time.Now() // Redis measures the idle time by its own clock
	if _, err := alive.Take(t.Context(), 0); !errors.Is(err, aiqueue.ErrNoJob) {
		t.Fatalf("Take while the first worker holds the job: got %v, want ErrNoJob", err)
	}
	again := take(t, alive, 3*time.Second)
	// A floor Redis keeps (XAUTOCLAIM's min-idle-time): a busy machine
	// can only widen it.
	if waited := time.Since(taken); waited < visibility-50*time.Millisecond {
		t.Errorf("job taken again after %v, before the visibility timeout %v", waited, visibility)
	}
	if again.ID != first.ID {
		t.Fatalf("taken again: job %q, want %q", again.ID, first.ID)
	}
	want := aiqueue.Result{Move: "c3-d4"}
	if err := alive.Complete(t.Context(), again, want); err != nil {
		t.Fatalf("Complete: %v", err)
	}
	// The dead worker wakes up late: its answer is ignored, and its
	// complete removes nothing that is not already gone.
	if err := dead.Complete(t.Context(), first, aiqueue.Result{Move: "a1-b2"}); err != nil {
		t.Fatalf("late Complete: %v", err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), time.Second)
	defer cancel()
	if got, err := bot.Await(ctx, "orphan"); err != nil || got != want {
		t.Errorf("Await: got %+v, %v; want %+v", got, err, want)
	}
}

// A worker shutting down gives its job back, and another takes it at once.
func TestQueueReleasedJobIsTakenAtOnce(t *testing.T) {
	t.Parallel()
	db := redistest.New(t)
	opts := aiqueue.QueueOptions{VisibilityTimeout: 10 * time.Second}
	bot, leaving, staying := newQueue(t, db, opts), newQueue(t, db, opts), newQueue(t, db, opts)
	if err := bot.Submit(t.Context(), testJob("r")); err != nil {
		t.Fatalf("Submit: %v", err)
	}
	job := take(t, leaving, time.Second)
	if err := leaving.Release(t.Context(), job); err != nil {
		t.Fatalf("Release: %v", err)
	}
	if err := leaving.Leave(t.Context()); err != nil {
		t.Fatalf("Leave: %v", err)
	}
	// With a 10 s visibility timeout only a release lets a Take of a second
	// get the job.
	if got := take(t, staying, time.Second); got.ID != "r" {
		t.Errorf("after Release: took %q, want r", got.ID)
	}
}

func TestQueueDropsJobsPastTheirDeadline(t *testing.T) {
	t.Parallel()
	db := redistest.New(t)
	clock := testkit.NewClock(time.Now())
	q := newQueueAt(t, db, clock.Now, aiqueue.QueueOptions{})
	late := testJob("late")
	late.Deadline = clock.Now().Add(-time.Millisecond)
	if err := q.Submit(t.Context(), late); err == nil {
		t.Errorf("Submit of a job past its deadline: no error")
	}
	soon := testJob("soon")
	soon.Deadline = clock.Now().Add(30 * time.Second)
	if err := q.Submit(t.Context(), soon); err != nil {
		t.Fatalf("Submit: %v", err)
	}
	clock.Advance(time.Minute)
	if job, err := q.Take(t.Context(), 0); !errors.Is(err, aiqueue.ErrNoJob) {
		t.Errorf("Take of an expired job: got %q, %v; want ErrNoJob", job.ID, err)
	}
	if n, err := db.Client(t).XLen(t.Context(), db.Prefix+"ai:{queue}:jobs").Result(); err != nil || n != 0 {
		t.Errorf("job stream after dropping: %d entries (%v), want 0", n, err)
	}
}

// reviewJob is a review position's job.
func reviewJob(id string) aiqueue.Job {
	j := testJob(id)
	j.Kind, j.Level = aiqueue.KindReview, 0
	j.Limits = &aiqueue.Limits{MoveTime: 200 * time.Millisecond}
	return j
}

// With review positions queued, one worker takes an AI move as soon as it
// is submitted, before every position still queued; the positions keep
// their order among themselves. On one stream in order of arrival the
// move would come after them.
func TestQueueMovesBeforeReviewPositions(t *testing.T) {
	t.Parallel()
	db := redistest.New(t)
	bot, worker := newQueue(t, db, aiqueue.QueueOptions{}), newQueue(t, db, aiqueue.QueueOptions{})
	submit := func(j aiqueue.Job) {
		t.Helper()
		if err := bot.Submit(t.Context(), j); err != nil {
			t.Fatalf("Submit %s: %v", j.ID, err)
		}
	}
	next := func() string {
		t.Helper()
		job := take(t, worker, time.Second)
		if err := worker.Complete(t.Context(), job, aiqueue.Result{Move: "c3-d4"}); err != nil {
			t.Fatalf("Complete %s: %v", job.ID, err)
		}
		return job.ID
	}
	const positions = 6
	for i := range positions {
		submit(reviewJob(fmt.Sprint("r", i)))
	}
	submit(testJob("m1"))
	order := []string{next(), next()}
	submit(testJob("m2")) // while r0's search would be under way
	for len(order) < positions+2 {
		order = append(order, next())
	}
	want := []string{"m1", "r0", "m2", "r1", "r2", "r3", "r4", "r5"}
	if fmt.Sprint(order) != fmt.Sprint(want) {
		t.Errorf("served in the order %v, want %v", order, want)
	}
	if job, err := worker.Take(t.Context(), 0); !errors.Is(err, aiqueue.ErrNoJob) {
		t.Errorf("after all: took %q, %v; want ErrNoJob", job.ID, err)
	}
}

// A move and a review position that come together while the worker waits
// for work (one MULTI: the worker's read is woken by the position, added
// first) are taken move first; the position is given back and taken by
// the next Take at once, not after the visibility timeout.
func TestQueueMoveThatComesWithAReviewPositionFirst(t *testing.T) {
	t.Parallel()
	srv := redistest.Start(t) // a server of its own: its blocked clients are this worker's
	db := srv.DB(t)
	worker := newQueue(t, db, aiqueue.QueueOptions{VisibilityTimeout: time.Minute})
	rdb := db.Client(t)
	blocked := watchBlockingReads(t, srv.Addr())
	taken := make(chan aiqueue.Job, 1)
	go func() {
		job, err := worker.Take(t.Context(), 30*time.Second)
		if err != nil {
			t.Errorf("Take: %v", err)
		}
		taken <- job
	}()
	// Wait for the worker's read to block in Redis (the bound is for a
	// broken queue).
	select {
	case <-blocked:
	case <-time.After(10 * time.Second):
		t.Fatal("the worker's Take never waited in Redis")
	}
	_, err := rdb.TxPipelined(t.Context(), func(p goredis.Pipeliner) error {
		p.XAdd(t.Context(), &goredis.XAddArgs{Stream: db.Prefix + "ai:{queue}:reviews",
			Values: []any{"j", `{"id":"r","kind":"review","pos":"w:a1w","level":0,"limits":{"depth":3},"reply":"x"}`}})
		p.XAdd(t.Context(), &goredis.XAddArgs{Stream: db.Prefix + "ai:{queue}:jobs",
			Values: []any{"j", `{"id":"m","pos":"w:a1w","level":2,"reply":"x"}`}})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if job := <-taken; job.ID != "m" {
		t.Fatalf("took %q first, want the move m", job.ID)
	}
	// With a minute's visibility timeout only the give-back lets the
	// position be taken again within this Take's 5 s.
	if job, err := worker.Take(t.Context(), 5*time.Second); err != nil || job.ID != "r" {
		t.Errorf("then took %q, %v; want the review position r", job.ID, err)
	}
}

// watchBlockingReads follows the commands the Redis at addr takes (its
// MONITOR) and tells, on the channel, of the first blocking read. Redis
// runs one command at a time and shows a blocking one as it blocks, so a
// command sent after the news is served with the read already waiting.
func watchBlockingReads(t *testing.T, addr string) <-chan struct{} {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	lines := bufio.NewReader(conn)
	if _, err := conn.Write([]byte("MONITOR\r\n")); err != nil {
		t.Fatal(err)
	}
	if ok, err := lines.ReadString('\n'); err != nil || ok != "+OK\r\n" {
		t.Fatalf("MONITOR: %q, %v", ok, err)
	}
	blocked := make(chan struct{})
	go func() {
		for {
			line, err := lines.ReadString('\n')
			if err != nil {
				return // the test is over
			}
			if strings.Contains(strings.ToLower(line), `"xreadgroup"`) && strings.Contains(strings.ToLower(line), `"block"`) {
				close(blocked)
				return
			}
		}
	}()
	return blocked
}
