package storagetest

import (
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/bashni/bashni/storage"
)

func owedData(o []storage.Owed) []string {
	out := make([]string, len(o))
	for i, e := range o {
		out[i] = string(e.Data)
	}
	return out
}

func bytesOf(s ...string) [][]byte {
	out := make([][]byte, len(s))
	for i, v := range s {
		out[i] = []byte(v)
	}
	return out
}

// testOutbox: requests are stored with the update's mark in one write,
// stay with their owner while its lease lasts, go to the next claimer in
// append order once it ends (or is released), and acked ones are gone.
func testOutbox(t *testing.T, newStore clockedStore) {
	s, clock := newStore(t)
	ctx := ctxFor(t)
	const lease = 10 * time.Second

	first, ids, err := s.MarkUpdateOwing(ctx, 3001, time.Hour, "a", lease, bytesOf("help 1", "help 2"))
	checkErr(t, "MarkUpdateOwing", err, nil)
	if !first || len(ids) != 2 || ids[0] >= ids[1] {
		t.Fatalf("MarkUpdateOwing(3001): got first=%v ids=%q, want true and two ids in order", first, ids)
	}
	if seen, _ := s.UpdateSeen(ctx, 3001); !seen {
		t.Errorf("UpdateSeen(3001) after MarkUpdateOwing: got false, want true")
	}
	again, ids2, err := s.MarkUpdateOwing(ctx, 3001, time.Hour, "a", lease, bytesOf("help again"))
	checkErr(t, "MarkUpdateOwing again", err, nil)
	if again || len(ids2) != 0 {
		t.Errorf("MarkUpdateOwing(3001) again: got first=%v ids=%q, want false and nothing stored", again, ids2)
	}
	more, err := s.AppendOutbox(ctx, "a", lease, bytesOf("card"))
	checkErr(t, "AppendOutbox", err, nil)
	if len(more) != 1 || more[0] <= ids[1] {
		t.Fatalf("AppendOutbox: got ids %q, want one after %q", more, ids)
	}

	// a's lease lives: b takes nothing.
	got, err := s.ClaimOutbox(ctx, "b", lease)
	checkErr(t, "ClaimOutbox while a lives", err, nil)
	checkDeep(t, "claimed while a's lease lives", owedData(got), []string{})

	checkErr(t, "AckOutbox", s.AckOutbox(ctx, "a", ids[:1]), nil)
	clock.Advance(lease + time.Second)
	got, err = s.ClaimOutbox(ctx, "b", lease)
	checkErr(t, "ClaimOutbox after a's lease", err, nil)
	checkDeep(t, "claimed after a's lease ended", owedData(got), []string{"help 2", "card"})
	if len(got) == 2 {
		checkDeep(t, "claimed ids", []string{got[0].ID, got[1].ID}, []string{ids[1], more[0]})
	}
	// Claimed once only, by anyone.
	got, _ = s.ClaimOutbox(ctx, "c", lease)
	checkDeep(t, "claimed a second time", owedData(got), []string{})

	// b dies without acking; c claims after b's lease.
	clock.Advance(lease + time.Second)
	got, _ = s.ClaimOutbox(ctx, "c", lease)
	checkDeep(t, "claimed from b", owedData(got), []string{"help 2", "card"})
	var gotIDs []string
	for _, o := range got {
		gotIDs = append(gotIDs, o.ID)
	}
	checkErr(t, "AckOutbox by c", s.AckOutbox(ctx, "c", gotIDs), nil)
	checkErr(t, "AckOutbox of a gone id", s.AckOutbox(ctx, "c", gotIDs), nil)

	// A release hands over at once.
	if _, err := s.AppendOutbox(ctx, "c", lease, bytesOf("late")); err != nil {
		t.Fatal(err)
	}
	checkErr(t, "ReleaseOutbox", s.ReleaseOutbox(ctx, "c"), nil)
	got, _ = s.ClaimOutbox(ctx, "d", lease)
	checkDeep(t, "claimed after release", owedData(got), []string{"late"})
	if len(got) == 1 {
		checkErr(t, "AckOutbox by d", s.AckOutbox(ctx, "d", []string{got[0].ID}), nil)
	}

	// Many claimers at once: each request goes to exactly one.
	for i := range 20 {
		if _, err := s.AppendOutbox(ctx, "e", lease, bytesOf(string(rune('A'+i)))); err != nil {
			t.Fatal(err)
		}
	}
	clock.Advance(lease * 3)
	var mu sync.Mutex
	var all []string
	var wg sync.WaitGroup
	for _, o := range []string{"f", "g", "h", "i"} {
		wg.Go(func() {
			got, err := s.ClaimOutbox(ctx, o, lease)
			if err != nil {
				t.Error(err)
			}
			mu.Lock()
			all = append(all, owedData(got)...)
			mu.Unlock()
		})
	}
	wg.Wait()
	slices.Sort(all)
	want := make([]string, 20)
	for i := range want {
		want[i] = string(rune('A' + i))
	}
	checkDeep(t, "claimed by four at once", all, want)
}
