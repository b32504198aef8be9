package aiqueue_test

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"sync"
	"testing"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/bashni/bashni/aiqueue"
	"github.com/bashni/bashni/internal/testkit"
	"github.com/bashni/bashni/storage"
	"github.com/bashni/bashni/storage/redis"
	"github.com/bashni/bashni/storage/redis/redistest"
)

// newQueue is a queue on its own client with the production settings
// (NewClient's timeouts and context deadlines), under db's prefix.
func newQueue(t testing.TB, db *redistest.DB, opts aiqueue.QueueOptions) *aiqueue.Queue {
	t.Helper()
	return newQueueAt(t, db, time.Now, opts)
}

// newQueueAt is newQueue with the test's clock.
func newQueueAt(t testing.TB, db *redistest.DB, now func() time.Time, opts aiqueue.QueueOptions) *aiqueue.Queue {
	t.Helper()
	c, err := redis.NewClient(redis.Config{URL: db.URL})
	if err != nil {
		t.Fatalf("NewClient: %v", err)
	}
	t.Cleanup(func() { c.Close() })
	return aiqueue.New(c, db.Prefix, now, opts)
}

func testJob(id string) aiqueue.Job {
	return aiqueue.Job{
		ID:         id,
		GameID:     "g-" + id,
		Position:   "w:a1w,c3wb,h8B",
		Variant:    "russian",
		History:    []uint64{1, 1 << 63, 42},
		QuietPlies: 3,
		Level:      4,
		Deadline:   time.Now().Add(time.Minute).Round(time.Millisecond),
	}
}

// take is Take that must succeed.
func take(t *testing.T, q *aiqueue.Queue, block time.Duration) aiqueue.Job {
	t.Helper()
	job, err := q.Take(t.Context(), block)
	if err != nil {
		t.Fatalf("Take: %v", err)
	}
	return job
}

func TestQueueRoundTrip(t *testing.T) {
	t.Parallel()
	db := redistest.New(t)
	clock := testkit.NewClock(time.Now())
	bot := newQueue(t, db, aiqueue.QueueOptions{})
	worker := newQueueAt(t, db, clock.Now, aiqueue.QueueOptions{})

	sent := testJob("j1")
	if err := bot.Submit(t.Context(), sent); err != nil {
		t.Fatalf("Submit: %v", err)
	}
	got := take(t, worker, time.Second)
	if lease, want := got.LeaseEnds(), clock.Now().Add(5*time.Second); !lease.Equal(want) {
		t.Errorf("lease ends at %v, want the 5s visibility timeout from the worker's clock, %v", lease, want)
	}
	if !got.Deadline.Equal(sent.Deadline) {
		t.Errorf("deadline: got %v, want %v", got.Deadline, sent.Deadline)
	}
	got.Deadline, sent.Deadline = time.Time{}, time.Time{}
	if fields := func(j aiqueue.Job) []any {
		return []any{j.ID, j.GameID, j.Position, j.Variant, j.History, j.QuietPlies, j.Level}
	}; !reflect.DeepEqual(fields(got), fields(sent)) {
		t.Errorf("taken job: got %+v, want %+v", fields(got), fields(sent))
	}

	want := aiqueue.Result{Move: "c3:e5:c7", Depth: 7, Nodes: 123456}
	if err := worker.Complete(t.Context(), got, want); err != nil {
		t.Fatalf("Complete: %v", err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Second)
	defer cancel()
	res, err := bot.Await(ctx, "j1")
	if err != nil || res != want {
		t.Fatalf("Await: got %+v, %v; want %+v", res, err, want)
	}

	// Completed means gone: nothing to take, nothing pending.
	if _, err := worker.Take(t.Context(), 0); !errors.Is(err, aiqueue.ErrNoJob) {
		t.Errorf("Take after Complete: got %v, want ErrNoJob", err)
	}
	rdb := db.Client(t)
	jobs := db.Prefix + "ai:{queue}:jobs"
	if n, err := rdb.XLen(t.Context(), jobs).Result(); err != nil || n != 0 {
		t.Errorf("job stream after Complete: %d entries (%v), want 0", n, err)
	}
	if p, err := rdb.XPending(t.Context(), jobs, "workers").Result(); err != nil || p.Count != 0 {
		t.Errorf("pending after Complete: %+v (%v), want none", p, err)
	}
	// A worker that stops with nothing in hand leaves the group.
	if err := worker.Leave(t.Context()); err != nil {
		t.Fatalf("Leave: %v", err)
	}
	consumers, err := rdb.XInfoConsumers(t.Context(), jobs, "workers").Result()
	if err != nil || len(consumers) != 0 {
		t.Errorf("consumers after Leave: %+v (%v), want none", consumers, err)
	}
}

// A review job carries its kind and limits to the worker, with no level,
// and its answer carries the score back.
func TestQueueReviewJobRoundTrip(t *testing.T) {
	t.Parallel()
	db := redistest.New(t)
	bot, worker := newQueue(t, db, aiqueue.QueueOptions{}), newQueue(t, db, aiqueue.QueueOptions{})
	sent := testJob("rv")
	sent.Kind, sent.Level = aiqueue.KindReview, 0
	sent.Limits = &aiqueue.Limits{Depth: 6, Nodes: 20000, MoveTime: 250 * time.Millisecond}
	if err := bot.Submit(t.Context(), sent); err != nil {
		t.Fatalf("Submit: %v", err)
	}
	got := take(t, worker, time.Second)
	if got.Kind != aiqueue.KindReview || got.Level != 0 || got.Limits == nil || *got.Limits != *sent.Limits {
		t.Errorf("taken review job: kind %q, level %d, limits %+v; want %q, 0, %+v", got.Kind, got.Level, got.Limits, sent.Kind, *sent.Limits)
	}
	want := aiqueue.Result{Move: "c3-d4", Score: -137, Depth: 6, Nodes: 19000}
	if err := worker.Complete(t.Context(), got, want); err != nil {
		t.Fatalf("Complete: %v", err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Second)
	defer cancel()
	if res, err := bot.Await(ctx, "rv"); err != nil || res != want {
		t.Errorf("Await: got %+v, %v; want %+v", res, err, want)
	}
}

// Jobs as a bot from before kinds wrote them, and as a newer one may: the
// fields a worker does not know are ignored, a kind it does not know is
// delivered as such for the worker to refuse, and nothing panics.
func TestQueueReadsOtherVersionsJobs(t *testing.T) {
	t.Parallel()
	db := redistest.New(t)
	q := newQueue(t, db, aiqueue.QueueOptions{})
	rdb := db.Client(t)
	for _, tc := range []struct {
		name, entry string
		want        aiqueue.Job
	}{
		{"a move from before kinds", `{"id":"old","pos":"w:a1w","level":2,"reply":"x"}`,
			aiqueue.Job{ID: "old", Position: "w:a1w", Level: 2}},
		{"a kind from a later version", `{"id":"new","kind":"tablebase","pos":"w:a1w","level":0,"later":{"a":1},"reply":"x"}`,
			aiqueue.Job{ID: "new", Kind: "tablebase", Position: "w:a1w"}},
	} {
		if err := rdb.XAdd(t.Context(), &goredis.XAddArgs{Stream: db.Prefix + "ai:{queue}:jobs", Values: []any{"j", tc.entry}}).Err(); err != nil {
			t.Fatalf("XAdd: %v", err)
		}
		got := take(t, q, time.Second)
		if got.ID != tc.want.ID || got.Kind != tc.want.Kind || got.Position != tc.want.Position || got.Level != tc.want.Level || got.Limits != nil {
			t.Errorf("%s: took %+v, want %+v", tc.name, got, tc.want)
		}
		if err := q.Complete(t.Context(), got, aiqueue.Result{Err: "refused"}); err != nil {
			t.Errorf("%s: Complete: %v", tc.name, err)
		}
	}
}

func TestQueueBadInput(t *testing.T) {
	t.Parallel()
	q := newQueue(t, redistest.New(t), aiqueue.QueueOptions{})
	for _, tc := range []struct {
		name string
		job  aiqueue.Job
	}{
		{"no id", aiqueue.Job{Position: "w:"}},
		{"no position", aiqueue.Job{ID: "x"}},
		{"an unknown kind", aiqueue.Job{ID: "x", Position: "w:", Kind: "tablebase"}},
		{"a review without limits", aiqueue.Job{ID: "x", Position: "w:", Kind: aiqueue.KindReview}},
		{"a review with zero limits", aiqueue.Job{ID: "x", Position: "w:", Kind: aiqueue.KindReview, Limits: &aiqueue.Limits{}}},
	} {
		if err := q.Submit(t.Context(), tc.job); err == nil {
			t.Errorf("Submit with %s: no error", tc.name)
		}
	}
	if err := q.Submit(t.Context(), testJob("twice")); err != nil {
		t.Fatalf("Submit: %v", err)
	}
	if err := q.Submit(t.Context(), testJob("twice")); err == nil {
		t.Errorf("second Submit of one id: no error")
	}
	if err := q.Complete(t.Context(), testJob("twice"), aiqueue.Result{}); err == nil {
		t.Errorf("Complete of a job not from Take: no error")
	}
}

// Redis down: every call fails fast with ErrUnavailable, the Await of a
// job in flight included; back up (empty, as after a restart without
// persistence), the same queue works again.
func TestQueueServerDownAndBack(t *testing.T) {
	t.Parallel()
	srv := redistest.Start(t)
	db := srv.DB(t)
	q := newQueue(t, db, aiqueue.QueueOptions{})
	if err := q.Submit(t.Context(), testJob("held")); err != nil {
		t.Fatalf("Submit: %v", err)
	}
	held := take(t, q, time.Second)
	if err := q.Submit(t.Context(), testJob("waiting")); err != nil {
		t.Fatalf("Submit: %v", err)
	}
	awaited := make(chan error, 1)
	go func() {
		_, err := q.Await(context.Background(), "waiting")
		awaited <- err
	}()
	time.Sleep(50 * time.Millisecond) // not a wait: lets Await start reading first, the case under test; it must fail the same if it starts after the stop

	srv.Stop(t)
	select {
	case err := <-awaited:
		if !errors.Is(err, storage.ErrUnavailable) {
			t.Errorf("Await with the server down: got %v, want storage.ErrUnavailable", err)
		}
	case <-time.After(30 * time.Second): // a hang guard
		t.Fatal("Await still waiting 30 s after the server went")
	}
	for _, c := range []struct {
		name string
		call func(ctx context.Context) error
	}{
		{"Submit", func(ctx context.Context) error { return q.Submit(ctx, testJob("new")) }},
		{"Take", func(ctx context.Context) error { _, err := q.Take(ctx, time.Second); return err }},
		{"Complete", func(ctx context.Context) error { return q.Complete(ctx, held, aiqueue.Result{Move: "a1-b2"}) }},
		{"Release", func(ctx context.Context) error { return q.Release(ctx, held) }},
		{"Leave", func(ctx context.Context) error { return q.Leave(ctx) }},
	} {
		err := c.call(t.Context())
		if !errors.Is(err, storage.ErrUnavailable) {
			t.Errorf("%s with the server down: got %v, want storage.ErrUnavailable", c.name, err)
		}
	}

	srv.Restart(t)
	if err := q.Submit(t.Context(), testJob("after")); err != nil {
		t.Fatalf("Submit after restart: %v", err)
	}
	job := take(t, q, time.Second)
	if err := q.Complete(t.Context(), job, aiqueue.Result{Move: "c3-d4"}); err != nil {
		t.Fatalf("Complete after restart: %v", err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Second)
	defer cancel()
	if res, err := q.Await(ctx, "after"); err != nil || res.Move != "c3-d4" {
		t.Errorf("Await after restart: got %+v, %v", res, err)
	}
}

// On a Cluster every command and transaction stays in one slot: the server
// refuses anything else (see TestConformanceCluster).
func TestQueueCluster(t *testing.T) {
	t.Parallel()
	srv := redistest.Start(t, redistest.Cluster())
	c, err := redis.NewClient(redis.Config{Addrs: []string{srv.Addr(), srv.Addr()}})
	if err != nil {
		t.Fatalf("NewClient: %v", err)
	}
	t.Cleanup(func() { c.Close() })
	if _, ok := c.(*goredis.ClusterClient); !ok {
		t.Fatalf("NewClient with two addresses: got a %T, want a Cluster client", c)
	}
	opts := aiqueue.QueueOptions{VisibilityTimeout: 200 * time.Millisecond}
	bot := aiqueue.New(c, "", time.Now, opts)
	dead, alive := aiqueue.New(c, "", time.Now, opts), aiqueue.New(c, "", time.Now, opts)
	for _, id := range []string{"a", "b"} {
		if err := bot.Submit(t.Context(), testJob(id)); err != nil {
			t.Fatalf("Submit: %v", err)
		}
	}
	// One job is released, one is left by a dead worker: both come back.
	if err := dead.Release(t.Context(), take(t, dead, time.Second)); err != nil {
		t.Fatalf("Release: %v", err)
	}
	take(t, dead, time.Second)
	for range 2 {
		job := take(t, alive, 2*time.Second)
		if err := alive.Complete(t.Context(), job, aiqueue.Result{Move: "c3-d4"}); err != nil {
			t.Fatalf("Complete: %v", err)
		}
	}
	if err := alive.Leave(t.Context()); err != nil {
		t.Fatalf("Leave: %v", err)
	}
	for _, id := range []string{"a", "b"} {
		ctx, cancel := context.WithTimeout(t.Context(), 2*time.Second)
		res, err := bot.Await(ctx, id)
		cancel()
		if err != nil || res.Move != "c3-d4" {
			t.Errorf("Await(%s): got %+v, %v", id, res, err)
		}
	}
}

// BenchmarkQueueRoundTrip is one AI move's trip through Redis without the
// thinking: Submit, a worker's Take and Complete, Await.
func BenchmarkQueueRoundTrip(b *testing.B) {
	db := redistest.New(b)
	bot := newQueue(b, db, aiqueue.QueueOptions{})
	worker := newQueue(b, db, aiqueue.QueueOptions{})
	ctx, cancel := context.WithCancel(b.Context())
	var wg sync.WaitGroup
	wg.Go(func() {
		for ctx.Err() == nil {
			job, err := worker.Take(ctx, time.Second)
			if err != nil {
				continue
			}
			_ = worker.Complete(ctx, job, aiqueue.Result{Move: "c3-d4", Depth: 5, Nodes: 2000})
		}
	})
	defer func() { cancel(); wg.Wait() }()
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		i++
		id := fmt.Sprint("bench-", i)
		if err := bot.Submit(ctx, testJob(id)); err != nil {
			b.Fatalf("Submit: %v", err)
		}
		if _, err := bot.Await(ctx, id); err != nil {
			b.Fatalf("Await: %v", err)
		}
	}
}
