package aiqueue_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

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
