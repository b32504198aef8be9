package mining

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bashni/bashni/internal/testkit"
	"github.com/bashni/bashni/puzzle"
	"github.com/bashni/bashni/rules"
	"github.com/bashni/bashni/storage"
	"github.com/bashni/bashni/storage/bolt"
)

// ShortGame is a game from the start that passes through a tactic: after
// its seventh move Black has one winning move, e5-d4, and only that one
// (found by the finder in low-level games with random moves). White
// resigns after it.
var ShortGame = strings.Fields("g3-h4 b6-a5 a3-b4 h6-g5 c3-d4 a5:c3:e5 b2-a3 e5-d4")

// shortGamePuzzle is the puzzle the finder makes of it.
const shortGamePuzzle = "hecubpzi"

func newStore(t *testing.T) (*bolt.Store, *testkit.Clock) {
	t.Helper()
	clock := testkit.NewClock(time.Now())
	st, err := bolt.Open(filepath.Join(t.TempDir(), "bashni.db"), clock.Now)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st, clock
}

// played stores a game of moves between white and black (AI levels,
// 0 for a person) as finished by White's resignation.
func played(t *testing.T, st *bolt.Store, id string, moves []string, white, black storage.Player, rated, casual bool) {
	t.Helper()
	g := rules.NewGame(rules.Start(rules.Bashni))
	for _, m := range moves {
		if _, err := g.PlayText(m); err != nil {
			t.Fatalf("game %s: %s: %v", id, m, err)
		}
	}
	rec := &storage.GameRecord{ID: id, Variant: "bashni", White: white, Black: black, Start: rules.Start(rules.Bashni).String(),
		Position: g.Position().String(), Moves: moves, Status: storage.GameActive, Rated: rated, Casual: casual, ChatID: -100}
	ctx := context.Background()
	if err := st.CreateGame(ctx, rec); err != nil {
		t.Fatal(err)
	}
	rec.Status, rec.Result, rec.Reason = storage.GameFinished, "0-1", "resign"
	if err := st.UpdateGame(ctx, rec); err != nil {
		t.Fatal(err)
	}
}

var (
	ann = storage.Player{UserID: 11, Name: "Ann"}
	bob = storage.Player{UserID: 12, Name: "Bob"}
	ai5 = storage.Player{Name: "AI", AILevel: 5}
)

func newMiner(st *bolt.Store, clock *testkit.Clock, holder string) *Miner {
	shipped, _ := puzzle.Shipped()
	return New(st, shipped, clock.Now, nil, Options{Holder: holder})
}

// The finished games since the mark are mined: a rated game between
// people and a game against the AI give their tactic; a casual game, an
// unrated one between people and a game still going are not searched. A
// second run finds nothing new; a run while another holds the mark does
// nothing.
func TestMinerFindsTheTacticOfAGamePlayedHere(t *testing.T) {
	st, clock := newStore(t)
	ctx := context.Background()
	played(t, st, "rated", ShortGame, ann, bob, true, false)
	played(t, st, "casual", ShortGame, ann, ai5, false, true)
	played(t, st, "friendly", ShortGame, ann, bob, false, false)
	m := newMiner(st, clock, "run-1")

	rep, err := m.Run(ctx, 0)
	if err != nil || rep.Games != 0 {
		t.Fatalf("a run before the games settled: %+v, %v; want nothing gone through", rep, err)
	}
	clock.Advance(3 * time.Minute)
	played(t, st, "vsai", ShortGame, ai5, bob, false, false) // finished after the others, not settled yet
	rep, err = m.Run(ctx, 0)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Games != 3 || rep.Mined != 1 || rep.Kept != 1 {
		t.Fatalf("report %+v: want 3 games gone through, 1 mined, 1 puzzle kept", rep)
	}
	got, err := st.MinedPuzzles(ctx, 0, 10)
	if err != nil || len(got) != 1 {
		t.Fatalf("mined puzzles %+v, %v: want one", got, err)
	}
	p := got[0]
	if p.ID != shortGamePuzzle || p.Game != "rated" || p.White != "Ann" || p.Black != "Bob" || p.Told ||
		len(p.Players) != 2 || p.Players[0] != 11 || p.Players[1] != 12 {
		t.Errorf("mined puzzle %+v: want %s from game rated, Ann (11) and Bob (12), not told", p, shortGamePuzzle)
	}
	pz, err := puzzle.ParseLine(p.Line)
	if err != nil {
		t.Fatal(err)
	}
	if pz.Solution[0].String() != "e5-d4" || pz.Rating < puzzle.LevelRating(2) {
		t.Errorf("puzzle %s: want e5-d4 first, rated above level 1", pz)
	}
	if err := puzzle.NewJudge(10000).Check(ctx, pz, 20000); err != nil {
		t.Errorf("the mined puzzle fails the shipped set's check: %v", err)
	}

	// The AI's game settles: mined too, its puzzle kept once already.
	clock.Advance(3 * time.Minute)
	rep, err = m.Run(ctx, 0)
	if err != nil || rep.Games != 1 || rep.Mined != 1 || rep.Kept != 0 {
		t.Fatalf("the next run: %+v, %v; want the AI's game mined, nothing new kept", rep, err)
	}
	rep, err = m.Run(ctx, 0)
	if err != nil || rep.Games != 0 || rep.Mark.Games != 4 || rep.Mark.Holder != "" {
		t.Fatalf("a run with nothing new: %+v, %v; want nothing gone through, 4 in all, the mark given up", rep, err)
	}

	// Another run holds the mark: this one leaves at once, and goes on
	// once the other's lease lapsed.
	mark, _ := st.MineMark(ctx)
	mark.Holder, mark.Until = "run-2", clock.Now().Add(5*time.Minute)
	if err := st.PutMineMark(ctx, mark); err != nil {
		t.Fatal(err)
	}
	played(t, st, "later", ShortGame, bob, ann, true, false)
	clock.Advance(3 * time.Minute)
	if _, err := m.Run(ctx, 0); !errors.Is(err, ErrHeld) {
		t.Fatalf("a run while another holds the mark: %v, want ErrHeld", err)
	}
	clock.Advance(3 * time.Minute)
	if rep, err := m.Run(ctx, 0); err != nil || rep.Games != 1 {
		t.Fatalf("a run after the other's lease lapsed: %+v, %v; want the late game gone through", rep, err)
	}
}

// Two runs at once over the same store mine each game once: one holds the
// mark, the other leaves.
func TestTwoMinersAtOnce(t *testing.T) {
	st, clock := newStore(t)
	played(t, st, "g1", ShortGame, ann, bob, true, false)
	clock.Advance(3 * time.Minute)
	var wg sync.WaitGroup
	reps := make([]Report, 2)
	errs := make([]error, 2)
	for i, name := range []string{"a", "b"} {
		m := newMiner(st, clock, name)
		wg.Go(func() { reps[i], errs[i] = m.Run(context.Background(), 0) })
	}
	wg.Wait()
	games := 0
	for i := range 2 {
		if errs[i] != nil && !errors.Is(errs[i], ErrHeld) {
			t.Fatalf("run %d: %v", i, errs[i])
		}
		games += reps[i].Games
	}
	if games != 1 {
		t.Errorf("two runs at once went through %d games, want 1 (%+v)", games, reps)
	}
	got, _ := st.MinedPuzzles(context.Background(), 0, 10)
	if len(got) != 1 {
		t.Errorf("%d puzzles kept, want 1", len(got))
	}
}

func TestMinable(t *testing.T) {
	base := storage.GameRecord{Variant: "bashni", White: ann, Black: bob, Rated: true, Status: storage.GameFinished, Result: "1-0", Reason: "resign"}
	for _, c := range []struct {
		name   string
		change func(r *storage.GameRecord)
		want   bool
	}{
		{"rated between people", func(r *storage.GameRecord) {}, true},
		{"default ruleset", func(r *storage.GameRecord) { r.Variant = "" }, true},
		{"against the AI", func(r *storage.GameRecord) { r.Black, r.Rated = ai5, false }, true},
		{"unrated between people", func(r *storage.GameRecord) { r.Rated = false }, false},
		{"a takeback", func(r *storage.GameRecord) { r.Black, r.Casual = ai5, true }, false},
		{"another ruleset", func(r *storage.GameRecord) { r.Variant = "russian" }, false},
		{"aborted", func(r *storage.GameRecord) { r.Reason = rules.Aborted.String() }, false},
		{"a group's vote", func(r *storage.GameRecord) { r.Black, r.Team = ai5, &storage.TeamGame{} }, false},
		{"the AI against itself", func(r *storage.GameRecord) { r.White, r.Black = ai5, ai5 }, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := base
			c.change(&r)
			if got := Minable(&r); got != c.want {
				t.Errorf("Minable = %v, want %v", got, c.want)
			}
		})
	}
}
