package storagetest

import (
	"errors"
	"sync"
	"testing"

	"github.com/bashni/bashni/storage"
)

// testReviewQueue: admission within the bounds, in order, a game once,
// places, and concurrent admissions that never pass the bounds.
func testReviewQueue(t *testing.T, newStore func(t *testing.T) storage.Store) {
	s := newStore(t)
	q, ok := s.(storage.ReviewQueue)
	if !ok {
		t.Fatalf("%T is no storage.ReviewQueue", s)
	}
	ctx := ctxFor(t)
	ticket := func(id string, user int64, minute int) storage.ReviewTicket {
		return storage.ReviewTicket{GameID: id, UserID: user, Queued: at(minute)}
	}
	for i, tc := range []struct {
		t    storage.ReviewTicket
		want int
		err  error
	}{
		{ticket("g1", 1, 0), 1, nil},
		{ticket("g2", 2, 1), 2, nil},
		{ticket("g3", 1, 2), 3, nil},
		{ticket("g4", 1, 3), 0, storage.ErrUserQueueFull}, // user 1 holds 2
		{ticket("g2", 3, 4), 2, nil},                      // queued already: its place, whoever asks
		{ticket("g5", 3, 5), 4, nil},
		{ticket("g6", 4, 6), 0, storage.ErrQueueFull}, // 4 is the bound
	} {
		place, err := q.EnqueueReview(ctx, tc.t, 4, 2)
		if place != tc.want || !errors.Is(err, tc.err) {
			t.Errorf("%d: enqueue %s of user %d: place %d, %v; want %d, %v", i, tc.t.GameID, tc.t.UserID, place, err, tc.want, tc.err)
		}
	}
	got, err := q.ReviewQueue(ctx, 10)
	checkErr(t, "queue", err, nil)
	checkDeep(t, "queue", got, []storage.ReviewTicket{ticket("g1", 1, 0), ticket("g2", 2, 1), ticket("g3", 1, 2), ticket("g5", 3, 5)})
	head, err := q.ReviewQueue(ctx, 1)
	checkErr(t, "head", err, nil)
	checkDeep(t, "head", head, []storage.ReviewTicket{ticket("g1", 1, 0)})
	checkErr(t, "finish g1", q.FinishReview(ctx, "g1"), nil)
	checkErr(t, "finish a game not queued", q.FinishReview(ctx, "nope"), nil)
	for id, want := range map[string]int{"g1": 0, "g2": 1, "g3": 2, "g5": 3, "nope": 0} {
		place, err := q.ReviewPlace(ctx, id)
		if place != want || err != nil {
			t.Errorf("place of %s: %d, %v; want %d", id, place, err, want)
		}
	}
	// User 1 has one queued now: one more is admitted, at the end.
	if place, err := q.EnqueueReview(ctx, ticket("g4", 1, 7), 4, 2); place != 4 || err != nil {
		t.Errorf("g4 after g1 finished: %d, %v; want 4", place, err)
	}
	for _, id := range []string{"g2", "g3", "g4", "g5"} {
		checkErr(t, "finish "+id, q.FinishReview(ctx, id), nil)
	}
	// 20 users at once against a bound of 5: exactly 5 admitted.
	var wg sync.WaitGroup
	var mu sync.Mutex
	admitted := 0
	for i := range 20 {
		wg.Go(func() {
			_, err := q.EnqueueReview(ctx, ticket("c"+string(rune('a'+i)), int64(100+i), 10), 5, 1)
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				admitted++
			case !errors.Is(err, storage.ErrQueueFull):
				t.Errorf("concurrent enqueue: %v", err)
			}
		})
	}
	wg.Wait()
	if admitted != 5 {
		t.Errorf("%d of 20 admitted at once; want 5", admitted)
	}
}
