package aiqueue_test

import (
	"context"
	"crypto/rand"
	"errors"
	"testing"
	"time"

	"github.com/bashni/bashni/aiqueue"
	"github.com/bashni/bashni/storage"
	"github.com/bashni/bashni/storage/redis/redistest"
)

// An answer that comes before Await is called is kept for it, and a
// worker's error reaches the bot as such.
func TestQueueAnswerBeforeAwait(t *testing.T) {
	t.Parallel()
	db := redistest.New(t)
	q := newQueue(t, db, aiqueue.QueueOptions{})
	if err := q.Submit(t.Context(), testJob("early")); err != nil {
		t.Fatalf("Submit: %v", err)
	}
	job := take(t, q, time.Second)
	want := aiqueue.Result{Err: "rules: no legal moves"}
	if err := q.Complete(t.Context(), job, want); err != nil {
		t.Fatalf("Complete: %v", err)
	}
	time.Sleep(50 * time.Millisecond) // not a wait: gives the reply reader time to read the answer first, the path under test; Await is right either way
	ctx, cancel := context.WithTimeout(t.Context(), time.Second)
	defer cancel()
	if got, err := q.Await(ctx, "early"); err != nil || got != want {
		t.Errorf("Await: got %+v, %v; want %+v", got, err, want)
	}
}

func TestQueueWaitsHonourTheirContext(t *testing.T) {
	t.Parallel()
	db := redistest.New(t)
	for _, tc := range []struct {
		name string
		wait func(ctx context.Context, q *aiqueue.Queue) error
	}{
		{"Await", func(ctx context.Context, q *aiqueue.Queue) error {
			id := rand.Text()
			if err := q.Submit(ctx, testJob(id)); err != nil {
				return err
			}
			_, err := q.Await(ctx, id)
			return err
		}},
		{"Await of an unknown job", func(ctx context.Context, q *aiqueue.Queue) error {
			_, err := q.Await(ctx, "nobody-sent-this")
			return err
		}},
		{"Take", func(ctx context.Context, q *aiqueue.Queue) error { _, err := q.Take(ctx, time.Minute); return err }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			q := newQueue(t, db.Fresh(t), aiqueue.QueueOptions{})
			const after = 150 * time.Millisecond
			for _, end := range []struct {
				how  string
				ctx  func() (context.Context, context.CancelFunc)
				want error
			}{
				{"deadline", func() (context.Context, context.CancelFunc) { return context.WithTimeout(t.Context(), after) },
					context.DeadlineExceeded},
				{"cancel", func() (context.Context, context.CancelFunc) {
					ctx, cancel := context.WithCancel(t.Context())
					time.AfterFunc(after, cancel)
					return ctx, cancel
				}, context.Canceled},
			} {
				// Nothing will ever answer: the wait can only end by its
				// context, and the error says which way.
				ctx, cancel := end.ctx()
				err := tc.wait(ctx, q)
				cancel()
				if !errors.Is(err, end.want) || errors.Is(err, storage.ErrUnavailable) {
					t.Errorf("ended by %s: got %v, want %v", end.how, err, end.want)
				}
			}
		})
	}
}
