package training

import (
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/bashni/bashni/internal/testkit"
	"github.com/bashni/bashni/rules"
	"github.com/bashni/bashni/storage"
	"github.com/bashni/bashni/storage/bolt"
)

func newTestDaily(t *testing.T) (*Daily, *testkit.Clock, storage.Daily) {
	t.Helper()
	set := testPuzzleSet(t)
	clock := testkit.NewClock(time.Now())
	st, err := bolt.Open(filepath.Join(t.TempDir(), "bashni.db"), clock.Now)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return NewDaily(st, set, clock.Now), clock, st
}

// Only a one-move puzzle is a daily one; a group gets one claim a day,
// and two services on one store never both win it.
func TestDailyClaimedOnceADay(t *testing.T) {
	d, clock, st := newTestDaily(t)
	if len(d.set) != 1 || d.set[0].ID != "c2uv8191" {
		t.Fatalf("daily set = %d puzzles, want only the one-move one", len(d.set))
	}
	ctx := t.Context()
	if err := d.Set(ctx, 42, "en", true); err == nil {
		t.Errorf("Set on a private chat: no error")
	}
	if err := d.Set(ctx, -7, "en", true); err != nil {
		t.Fatal(err)
	}
	other := NewDaily(st, nil, clock.Now) // a second replica's view (set given by the first)
	other.set, other.byID = d.set, d.byID
	won := 0
	for range 3 {
		for _, s := range []*Daily{d, other} {
			cards, err := s.Due(ctx)
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range cards {
				if c.Won {
					won++
				}
			}
		}
	}
	if won != 1 {
		t.Errorf("one day, two services, three ticks each: %d cards won, want 1", won)
	}
	clock.Advance(24 * time.Hour)
	cards, err := other.Due(ctx)
	if err != nil || len(cards) != 1 || !cards[0].Won || cards[0].Record.Date != d.Today() {
		t.Errorf("the next day: %+v, %v; want today's card won", cards, err)
	}
}

// One try each; bad input is refused and changes nothing.
func TestDailyTry(t *testing.T) {
	d, clock, st := newTestDaily(t)
	ctx := t.Context()
	if err := d.Set(ctx, -7, "en", true); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Due(ctx); err != nil {
		t.Fatal(err)
	}
	today := d.Today()
	ann, bob := storage.DailySolver{UserID: 1, Name: "Ann"}, storage.DailySolver{UserID: 2, Name: "Bob"}

	var me *rules.MoveError
	if _, err := d.Try(ctx, -7, today, ann, "d4-e5"); !errors.As(err, &me) {
		t.Errorf("an illegal move: %v, want the rules' error", err)
	}
	if _, err := d.Try(ctx, -7, DailyDate(clock.Now().Add(-24*time.Hour)), ann, "g1-f2"); !errors.Is(err, ErrDailyClosed) {
		t.Errorf("yesterday's card: %v, want ErrDailyClosed", err)
	}
	if _, err := d.Try(ctx, -8, today, ann, "g1-f2"); !errors.Is(err, ErrDailyClosed) {
		t.Errorf("a chat without a card: %v, want ErrDailyClosed", err)
	}
	rec, _ := st.DailyPuzzle(ctx, -7, today)
	if rec.Version != 1 {
		t.Errorf("refused tries wrote the record: version %d", rec.Version)
	}

	res, err := d.Try(ctx, -7, today, bob, "e1-f2")
	if err != nil || res.Correct {
		t.Fatalf("a wrong move: %+v, %v", res, err)
	}
	if _, err := d.Try(ctx, -7, today, bob, "g1-f2"); !errors.Is(err, ErrDailyTried) {
		t.Errorf("a second try: %v, want ErrDailyTried", err)
	}
	res, err = d.Try(ctx, -7, today, ann, "g1-f2")
	if err != nil || !res.Correct || res.Rank != 1 || !res.Named {
		t.Fatalf("the right move: %+v, %v", res, err)
	}
	rec, _ = st.DailyPuzzle(ctx, -7, today)
	if len(rec.Solvers) != 1 || rec.Solvers[0] != ann || len(rec.Tried) != 2 {
		t.Errorf("after a miss and a solve: %+v", rec)
	}
}
