package storagetest

import (
	"testing"
	"time"

	"github.com/bashni/bashni/storage"
)

func testMarkUpdate(t *testing.T, newStore func(t *testing.T) storage.Store) {
	s := newStore(t)
	const ttl = 300 * time.Millisecond
	steps := []struct {
		name  string
		id    int64
		sleep time.Duration
		want  bool
	}{
		{"first sight", 1001, 0, true},
		{"repeat", 1001, 0, false},
		{"another update", 1002, 0, true},
		{"repeat within ttl", 1001, 100 * time.Millisecond, false},
		{"after ttl", 1001, 350 * time.Millisecond, true},
		{"repeat after renewal", 1001, 0, false},
	}
	for _, st := range steps {
		time.Sleep(st.sleep)
		got, err := s.MarkUpdate(ctxFor(t), st.id, ttl)
		checkErr(t, st.name, err, nil)
		if got != st.want {
			t.Errorf("%s: MarkUpdate(%d): got first=%v, want %v", st.name, st.id, got, st.want)
		}
	}
}
