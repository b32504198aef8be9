package play

import (
	"slices"
	"testing"
	"time"

	"github.com/bashni/bashni/internal/testkit"
	"github.com/bashni/bashni/storage"
)

// Two replicas count two games of Alice's in one group at the same
// instant: b's whole count of the second lands between a's read of one of
// Alice's leaderboard lines and a's write of it. The group's line keeps
// both games, and the global line ends as Alice's record. Before lines
// were written by compare-and-set, a's write of the group's line put back
// the line it had read (the second game and its Counted mark lost, so it
// was never counted there), and a's global line, from the record as a
// wrote it, put back Alice's rating before the second game.
func TestLinesOfGamesCountedAtOnceKeepBoth(t *testing.T) {
	for name, open := range replicaStores {
		for _, row := range []struct {
			name  string
			scope int64 // the line whose read and write b comes between
		}{{"global line", 0}, {"group's line", -100}} {
			t.Run(name+"/"+row.name, func(t *testing.T) {
				clock := testkit.NewClock(time.Now())
				st := open(t, clock.Now).(storage.Store)
				r := &userRace{st: st}
				on := &overtaken{Store: st, user: alice.UserID, line: &row.scope, overtake: func() { countAlices(1)(t, r.b) }}
				r.a = replica{New(on, nil, DefaultConfig, clock.Now), r}
				r.b = replica{New(st, nil, DefaultConfig, clock.Now), r}
				r.setUp(t, clock.Now)
				countAlices(0)(t, r.a)
				if !on.came {
					t.Fatal("the second count never came between the first's read and write of the line")
				}
				checkLinesOfBoth(t, r)
			})
		}
	}
}

// checkLinesOfBoth checks that both of Alice's games are in her record
// and her group's line, and that her global line is her record's.
func checkLinesOfBoth(t *testing.T, r *userRace) {
	t.Helper()
	ctx := t.Context()
	u, err := r.st.User(ctx, alice.UserID)
	if err != nil {
		t.Fatal(err)
	}
	if u.Stats.Games != 2 || u.Stats.Wins != 2 || !containsAll(u.Counted, r.games[:]) {
		t.Errorf("Alice's %+v, counted %q; want 2 won, counted %q", u.Stats, u.Counted, r.games)
	}
	global, err := r.st.Standing(ctx, 0, alice.UserID)
	if err != nil || global.Rating != u.Rating || global.Games != u.Stats.Games || global.Name != u.Name {
		t.Errorf("Alice's global line: %+v, %v; want her record's %s, %d games at %v",
			global, err, u.Name, u.Stats.Games, u.Rating)
	}
	if global.UserVersion != u.Version {
		t.Errorf("Alice's global line is from her record's version %d, want %d", global.UserVersion, u.Version)
	}
	// Both games were reckoned from Alice's group line before either was
	// in it: each moves it as a first win.
	rating := StartRating + 2*r.ratingChange
	line, err := r.st.Standing(ctx, -100, alice.UserID)
	counted := slices.Sorted(slices.Values(line.Counted))
	want := slices.Sorted(slices.Values(r.games[:]))
	if err != nil || line.Games != 2 || !near(line.Rating, rating) || !slices.Equal(counted, want) {
		t.Errorf("Alice's line in the group: %+v, %v; want 2 games at %v, counted %q", line, err, rating, want)
	}
}
