package storagetest

import (
	"testing"
	"time"
)

// An update mark lives for its ttl by the store's clock: the test moves
// the clock instead of waiting.
func testMarkUpdate(t *testing.T, newStore clockedStore) {
	s, clock := newStore(t)
	const ttl = time.Hour
	steps := []struct {
		name    string
		id      int64
		advance time.Duration
		want    bool
	}{
		{"first sight", 1001, 0, true},
		{"repeat", 1001, 0, false},
		{"another update", 1002, 0, true},
		{"repeat within ttl", 1001, 20 * time.Minute, false},
		{"after ttl", 1001, 50 * time.Minute, true},
		{"repeat after renewal", 1001, 0, false},
		{"other mark expired too", 1002, 0, true},
	}
	for _, st := range steps {
		clock.Advance(st.advance)
		got, err := s.MarkUpdate(ctxFor(t), st.id, ttl)
		checkErr(t, st.name, err, nil)
		if got != st.want {
			t.Errorf("%s: MarkUpdate(%d): got first=%v, want %v", st.name, st.id, got, st.want)
		}
	}
}

// testUpdateSeen: asking does not mark; a mark is seen until it expires.
func testUpdateSeen(t *testing.T, newStore clockedStore) {
	s, clock := newStore(t)
	ctx := ctxFor(t)
	for range 2 { // asking twice still does not mark
		seen, err := s.UpdateSeen(ctx, 2001)
		checkErr(t, "UpdateSeen before the mark", err, nil)
		if seen {
			t.Fatalf("UpdateSeen(2001) before MarkUpdate: got true, want false")
		}
	}
	if first, err := s.MarkUpdate(ctx, 2001, time.Hour); err != nil || !first {
		t.Fatalf("MarkUpdate(2001) after asking: got %v, %v; want true, no error", first, err)
	}
	seen, err := s.UpdateSeen(ctx, 2001)
	checkErr(t, "UpdateSeen after the mark", err, nil)
	if !seen {
		t.Errorf("UpdateSeen(2001) after MarkUpdate: got false, want true")
	}
	if seen, _ := s.UpdateSeen(ctx, 2002); seen {
		t.Errorf("UpdateSeen(2002), never marked: got true, want false")
	}
	clock.Advance(time.Hour + time.Second)
	if seen, _ := s.UpdateSeen(ctx, 2001); seen {
		t.Errorf("UpdateSeen(2001) after its mark expired: got true, want false")
	}
}
