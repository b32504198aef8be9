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
