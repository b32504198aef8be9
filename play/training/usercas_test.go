package training

import (
	"context"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/bashni/bashni/internal/testkit"
	"github.com/bashni/bashni/play"
	"github.com/bashni/bashni/storage"
	"github.com/bashni/bashni/storage/bolt"
	"github.com/bashni/bashni/storage/redis"
	"github.com/bashni/bashni/storage/redis/redistest"
)

// replicaStores open each store the replica tests run on: bbolt, and
// Redis shared by replicas as in production.
var replicaStores = map[string]func(t *testing.T, now func() time.Time) storage.Store{
	"bolt": func(t *testing.T, now func() time.Time) storage.Store {
		st, err := bolt.Open(filepath.Join(t.TempDir(), "bashni.db"), now)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		return st
	},
	"redis": func(t *testing.T, now func() time.Time) storage.Store {
		db := redistest.New(t)
		st := redis.New(db.Client(t), now, redis.WithPrefix(db.Prefix))
		t.Cleanup(func() { st.Close() })
		return st
	},
}

// overtaken is a replica's store on which another replica's change to one
// user lands between this replica's read of that user and its write: just
// before the first write of the user, overtake runs (once) on the store
// itself. The race of two replicas, made to happen every time.
type overtaken struct {
	storage.Store
	user     int64
	overtake func()
	once     sync.Once
	came     bool // overtake has run
}

func (o *overtaken) PutUser(ctx context.Context, u *storage.User) error {
	if u.ID == o.user {
		o.once.Do(func() {
			o.overtake()
			o.came = true
		})
	}
	return o.Store.PutUser(ctx, u)
}

var (
	alice = storage.Player{UserID: 1, Name: "Alice"}
	bob   = storage.Player{UserID: 2, Name: "Bob"}
)

// replica is one process's service, puzzles and course.
type replica struct {
	s    *play.Service
	p    *Puzzles
	c    *Course
	game string // Alice's game with Bob, both moved: Bob's to resign
}

// raceStep is what one replica does to Alice's record.
type raceStep func(t *testing.T, on replica)

// Two replicas change Alice's record at the same instant, one in her
// training and one counting her game: b's whole change lands between a's
// read and a's write. Each keeps the other's: no game goes uncounted, no
// puzzle or lesson is undone. Training writes the user through
// play.ChangeUser, the service's own compare-and-set.
func TestTrainingAndACountAtOnceKeepBoth(t *testing.T) {
	set := testPuzzleSet(t)
	rows := []struct {
		name          string
		first, second raceStep // second lands between first's read and write
		check         func(t *testing.T, u *storage.User, st storage.Store)
	}{
		{"a count during a puzzle's end", solvePuzzle, bobResigns, checkSolved},
		{"a puzzle's end during a count", bobResigns, solvePuzzle, checkSolved},
		{"a count during a lesson", takeLesson, bobResigns, checkLesson},
		{"a lesson during a count", bobResigns, takeLesson, checkLesson},
	}
	for name, open := range replicaStores {
		for _, row := range rows {
			t.Run(name+"/"+row.name, func(t *testing.T) {
				clock := testkit.NewClock(time.Now())
				st := open(t, clock.Now)
				var b replica
				on := &overtaken{Store: st, user: alice.UserID, overtake: func() { row.second(t, b) }}
				a := replica{play.New(on, nil, play.DefaultConfig, clock.Now), NewPuzzles(on, set, clock.Now, nil), NewCourse(on), ""}
				b = replica{play.New(st, nil, play.DefaultConfig, clock.Now), NewPuzzles(st, set, clock.Now, nil), NewCourse(st), ""}
				a.game = setUp(t, b)
				b.game = a.game
				row.first(t, a)
				if !on.came {
					t.Fatal("the second change never came between the first's read and write")
				}
				u, err := st.User(t.Context(), alice.UserID)
				if err != nil {
					t.Fatal(err)
				}
				if u.Stats.Games != 1 || u.Stats.Wins != 1 || u.Rating <= play.StartRating {
					t.Errorf("Alice's %+v, rating %v; want her game won and counted", u.Stats, u.Rating)
				}
				row.check(t, u, st)
			})
		}
	}
}

// setUp makes a game of Alice's with Bob in which both have moved, and
// Alice's puzzle one move from solved, with both touched as the bot
// touches who writes; it returns the game's id.
func setUp(t *testing.T, on replica) string {
	t.Helper()
	ctx := t.Context()
	for _, p := range []storage.Player{alice, bob} {
		if _, err := on.s.Touch(ctx, play.Profile{ID: p.UserID, Name: p.Name}); err != nil {
			t.Fatal(err)
		}
	}
	c, err := on.s.Challenge(ctx, play.ChallengeRequest{ChatID: -100, From: alice, Color: play.ColorWhite})
	if err != nil {
		t.Fatal(err)
	}
	g, err := on.s.Accept(ctx, c.ID, bob, "")
	if err != nil {
		t.Fatal(err)
	}
	for i, m := range []string{"c3-d4", "f6-e5"} {
		who := []int64{alice.UserID, bob.UserID}[i]
		if _, err := on.s.Move(ctx, g.ID(), who, play.AnyPly, m); err != nil {
			t.Fatalf("%s: %v", m, err)
		}
	}
	if pz, err := on.p.Next(ctx, alice.UserID); err != nil || pz.Puzzle.ID != "mpq7pjzy" {
		t.Fatalf("Alice's puzzle: %+v, %v; want mpq7pjzy", pz, err)
	}
	if _, err := on.p.Move(ctx, alice.UserID, "mpq7pjzy", 0, "c3-b4"); err != nil {
		t.Fatal(err)
	}
	return g.ID()
}

// bobResigns ends the game set up, which counts it for Alice.
func bobResigns(t *testing.T, on replica) {
	t.Helper()
	if _, err := on.s.Resign(t.Context(), on.game, bob.UserID); err != nil {
		t.Fatal(err)
	}
}

// solvePuzzle plays Alice's last move of the puzzle set up.
func solvePuzzle(t *testing.T, on replica) {
	t.Helper()
	res, err := on.p.Move(t.Context(), alice.UserID, "mpq7pjzy", 2, "e1-f2")
	if err != nil || !res.Solved || !res.Rated {
		t.Fatalf("the puzzle's last move: %+v, %v; want it solved, rated", res, err)
	}
}

// checkSolved: the puzzle is in Alice's record as solved, her puzzle
// rating moved, and the puzzle was rated once.
func checkSolved(t *testing.T, u *storage.User, st storage.Store) {
	t.Helper()
	if tr := u.Training; !slices.Equal(tr.Solved, []string{"mpq7pjzy"}) || tr.Puzzle != nil || tr.Rating.R <= play.StartRating {
		t.Errorf("Alice's training %+v; want mpq7pjzy solved, no puzzle under way, rating above %d", tr, play.StartRating)
	}
	ps, err := st.PuzzleStats(t.Context(), "mpq7pjzy")
	if err != nil || ps.Attempts != 1 || ps.Solves != 1 || ps.Version != 1 {
		t.Errorf("the puzzle's stats: %+v, %v; want one attempt, solved, written once", ps, err)
	}
}

func takeLesson(t *testing.T, on replica) {
	t.Helper()
	if _, err := on.c.Try(t.Context(), alice.UserID, 0, 0, Lessons[0].Tasks[0].Right[0]); err != nil {
		t.Fatal(err)
	}
}

func checkLesson(t *testing.T, u *storage.User, _ storage.Store) {
	t.Helper()
	if u.Training.Task != 1 || u.Training.Stars[Lessons[0].Key] != 1<<0 {
		t.Errorf("Alice's training %+v, want task 1 and a star: the answer was lost", u.Training)
	}
}
