package play

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/bashni/bashni/internal/testkit"
	"github.com/bashni/bashni/rating"
	"github.com/bashni/bashni/storage"
)

// overtaken is a replica's store on which another replica's change to one
// user lands between this replica's read of that user and its write: just
// before the first write of the user, overtake runs (once) on the store
// itself. The race of two replicas, made to happen every time.
type overtaken struct {
	storage.Store
	user int64
	// line, if set, is a leaderboard's scope: the overtake comes before
	// the first write of the user's line there instead of the record's.
	line     *int64
	overtake func()
	once     sync.Once
	came     bool // overtake has run
}

func (o *overtaken) come() {
	o.once.Do(func() {
		o.overtake()
		o.came = true
	})
}

func (o *overtaken) PutUser(ctx context.Context, u *storage.User) error {
	if o.line == nil && u.ID == o.user {
		o.come()
	}
	return o.Store.PutUser(ctx, u)
}

func (o *overtaken) SetStanding(ctx context.Context, scope int64, st *storage.Standing) error {
	if o.line != nil && *o.line == scope && st.UserID == o.user {
		o.come()
	}
	return o.Store.SetStanding(ctx, scope, st)
}

// userRace is two replicas on one store, a and b, and two games of
// Alice's, ended on a process killed before it counted them: each owes
// its count.
type userRace struct {
	st           storage.Store
	a, b         replica
	games        [2]string // Alice's with Bob, with Carol
	ratingChange float64   // a win's, from 1500 in a first game
}

// replica is one process's service.
type replica struct {
	s *Service
	r *userRace
}

// raceStep is what one replica does to Alice's record.
type raceStep func(t *testing.T, on replica)

// countAlices counts Alice's game i.
func countAlices(i int) raceStep {
	return func(t *testing.T, on replica) { on.s.count(t.Context(), on.r.games[i]) }
}

// owedGame is a game in group -100 that black resigned on a process
// killed after that write: its count is owed.
func owedGame(t *testing.T, s *Service, st Store, now func() time.Time, white, black storage.Player, receipt int64) string {
	t.Helper()
	ctx := t.Context()
	c, err := s.Challenge(ctx, ChallengeRequest{ChatID: -100, From: white, Color: ColorWhite})
	if err != nil {
		t.Fatal(err)
	}
	g, err := s.Accept(ctx, c.ID, black, "")
	if err != nil {
		t.Fatal(err)
	}
	openBoth(t, s, g)
	dead := New(&killedAfter{Store: st, n: 1}, nil, DefaultConfig, now)
	if _, err := dead.Resign(WithReceipt(ctx, receipt), g.ID(), black.UserID); err != nil {
		t.Fatalf("the killed process's resignation: %v", err)
	}
	return g.ID()
}

// Two replicas change one person's record at the same instant: b's whole
// change lands between a's read and a's write. Each keeps the other's: no
// game goes uncounted, no setting or progress is undone. Before users were
// written by compare-and-set, a's write put back the record it had read.
func TestUserChangesAtOnceKeepBoth(t *testing.T) {
	touch := func(t *testing.T, on replica) {
		if _, err := on.s.Touch(t.Context(), Profile{ID: alice.UserID, Name: "Alice", Username: "alice_b", Private: true}); err != nil {
			t.Fatal(err)
		}
	}
	rows := []struct {
		name          string
		first, second raceStep // second lands between first's read and write
		check         func(t *testing.T, u *storage.User, r *userRace)
		games         int // Alice's counted
	}{
		{"two games counted", countAlices(0), countAlices(1), nil, 2},
		{"a setting during a count", countAlices(0), setFlip, checkFlip, 1},
		{"a count during a setting", setFlip, countAlices(0), checkFlip, 1},
		{"a count during Touch", touch, countAlices(0), checkTouched, 1},
		{"Touch during a count", countAlices(0), touch, checkTouched, 1},
	}
	for name, open := range replicaStores {
		for _, row := range rows {
			t.Run(name+"/"+row.name, func(t *testing.T) {
				clock := testkit.NewClock(time.Now())
				st := open(t, clock.Now).(storage.Store)
				r := &userRace{st: st}
				on := &overtaken{Store: st, user: alice.UserID, overtake: func() { row.second(t, r.b) }}
				r.a = replica{New(on, nil, DefaultConfig, clock.Now), r}
				r.b = replica{New(st, nil, DefaultConfig, clock.Now), r}
				r.setUp(t, clock.Now)
				row.first(t, r.a)
				if !on.came {
					t.Fatal("the second change never came between the first's read and write")
				}

				u, err := st.User(t.Context(), alice.UserID)
				if err != nil {
					t.Fatal(err)
				}
				want := r.games[:row.games]
				rating := StartRating + float64(row.games)*r.ratingChange
				if u.Stats.Games != row.games || u.Stats.Wins != row.games || !near(u.Rating, rating) || !containsAll(u.Counted, want) {
					t.Errorf("Alice's %+v, rating %v, counted %q; want %d won, rating %v, counted %q",
						u.Stats, u.Rating, u.Counted, row.games, rating, want)
				}
				for _, scope := range []int64{0, -100} {
					line, err := st.Standing(t.Context(), scope, alice.UserID)
					if err != nil || line.Games != row.games || !near(line.Rating, rating) {
						t.Errorf("Alice's line in %d: %+v, %v; want %d games at %v", scope, line, err, row.games, rating)
					}
				}
				if row.check != nil {
					row.check(t, u, r)
				}
			})
		}
	}
}

// setUp makes the two games owing their counts, with everyone touched as
// the bot touches who writes.
func (r *userRace) setUp(t *testing.T, now func() time.Time) {
	t.Helper()
	ctx := t.Context()
	for _, p := range []storage.Player{alice, bob, carol} {
		if _, err := r.b.s.Touch(ctx, Profile{ID: p.UserID, Name: p.Name}); err != nil {
			t.Fatal(err)
		}
	}
	r.games[0] = owedGame(t, r.b.s, r.st, now, alice, bob, 401)
	r.games[1] = owedGame(t, r.b.s, r.st, now, alice, carol, 402)
	won, _ := rating.Game(rating.New(StartRating), rating.New(StartRating), 1)
	r.ratingChange = won.R - StartRating
}

func setFlip(t *testing.T, on replica) {
	t.Helper()
	if _, err := on.s.UpdateUser(t.Context(), alice.UserID, func(u *storage.User) { u.Flip = !u.Flip }); err != nil {
		t.Fatal(err)
	}
}

func checkFlip(t *testing.T, u *storage.User, _ *userRace) {
	t.Helper()
	if !u.Flip {
		t.Error("Alice's view is not flipped: the setting was lost")
	}
}

func checkTouched(t *testing.T, u *storage.User, r *userRace) {
	t.Helper()
	if u.Username != "alice_b" || !u.CanDM {
		t.Errorf("Alice's username %q, can DM %v; want the touch's alice_b, true", u.Username, u.CanDM)
	}
	if by, err := r.st.UserByUsername(t.Context(), "alice_b"); err != nil || by.ID != alice.UserID {
		t.Errorf("user by the touched name: %+v, %v; want Alice", by, err)
	}
}

func containsAll(got, want []string) bool {
	for _, w := range want {
		if !slices.Contains(got, w) {
			return false
		}
	}
	return true
}
