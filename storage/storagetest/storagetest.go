package storagetest

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/bashni/bashni/internal/testkit"
	"github.com/bashni/bashni/storage"
)

// Run runs the whole suite. newStore must return a fresh, empty store that
// decides about time (expiry of challenges and update marks) by now and by
// nothing else; it is called once per subtest with that subtest's t, so it
// can register cleanups. The suite moves its clocks by hand: expiry is
// tested without waiting, and passes with the machine's clock set to any
// date.
func Run(t *testing.T, newStore func(t *testing.T, now func() time.Time) storage.Store) {
	clocked := func(t *testing.T) (storage.Store, *testkit.Clock) {
		clock := testkit.NewClock(time.Now().UTC().Round(0))
		return newStore(t, clock.Now), clock
	}
	plain := func(t *testing.T) storage.Store {
		s, _ := clocked(t)
		return s
	}
	groups := []struct {
		name string
		run  func(t *testing.T)
	}{
		{"Games", func(t *testing.T) { testGames(t, plain) }},
		{"Indexes", func(t *testing.T) { testIndexes(t, plain) }},
		{"Deadlines", func(t *testing.T) { testDeadlines(t, plain) }},
		{"Challenges", func(t *testing.T) { testChallenges(t, clocked) }},
		{"Users", func(t *testing.T) { testUsers(t, plain) }},
		{"UserVersions", func(t *testing.T) { testUserVersions(t, plain) }},
		{"Training", func(t *testing.T) { testTraining(t, plain) }},
		{"Daily", func(t *testing.T) { testDaily(t, plain) }},
		{"Chats", func(t *testing.T) { testChats(t, plain) }},
		{"Tournaments", func(t *testing.T) { testTournaments(t, plain) }},
		{"Versus", func(t *testing.T) { testVersus(t, plain) }},
		{"Standings", func(t *testing.T) { testStandings(t, plain) }},
		{"StandingVersions", func(t *testing.T) { testStandingVersions(t, plain) }},
		{"MarkUpdate", func(t *testing.T) { testMarkUpdate(t, clocked) }},
		{"UpdateSeen", func(t *testing.T) { testUpdateSeen(t, clocked) }},
		{"Outbox", func(t *testing.T) { testOutbox(t, clocked) }},
		{"Races", func(t *testing.T) { testRaces(t, plain) }},
		{"Lifecycle", func(t *testing.T) { testLifecycle(t, plain) }},
		{"ReviewQueue", func(t *testing.T) { testReviewQueue(t, plain) }},
		{"Polls", func(t *testing.T) { testPolls(t, plain) }},
		{"Capped", func(t *testing.T) { testCapped(t, plain) }},
		{"Mining", func(t *testing.T) { testMining(t, clocked) }},
	}
	for _, g := range groups {
		t.Run(g.name, func(t *testing.T) {
			t.Parallel()
			g.run(t)
		})
	}
}

// clockedStore makes a store with a clock the test moves by hand.
type clockedStore func(t *testing.T) (storage.Store, *testkit.Clock)

// base is the fixed date of the fixtures' records (created, reminders,
// deadlines): data the store keeps and DueGames compares with the time it
// is given, never with a clock of its own. What the store decides by its
// clock (expiry) is tested on a hand clock started at the real present.
// Times are UTC without a monotonic reading so that a JSON round-trip
// compares equal with reflect.DeepEqual.
var base = time.Date(2026, time.March, 1, 12, 0, 0, 0, time.UTC)

func at(minutes int) time.Time { return base.Add(time.Duration(minutes) * time.Minute) }

// game returns an active game between two humans in a chat.
func game(id string, chat, white, black int64) *storage.GameRecord {
	return &storage.GameRecord{
		ID:        id,
		Variant:   "bashni",
		White:     storage.Player{UserID: white, Name: fmt.Sprintf("w%d", white)},
		Black:     storage.Player{UserID: black, Name: fmt.Sprintf("b%d", black)},
		Start:     "start",
		Position:  "start",
		Status:    storage.GameActive,
		CreatedAt: base,
		UpdatedAt: base,
		ChatID:    chat,
	}
}

func ctxFor(t *testing.T) context.Context { return t.Context() }

func mustCreate(t *testing.T, s storage.Store, games ...*storage.GameRecord) {
	t.Helper()
	for _, g := range games {
		if err := s.CreateGame(ctxFor(t), g); err != nil {
			t.Fatalf("CreateGame(%s): %v", g.ID, err)
		}
	}
}

func mustUpdate(t *testing.T, s storage.Store, g *storage.GameRecord) {
	t.Helper()
	if err := s.UpdateGame(ctxFor(t), g); err != nil {
		t.Fatalf("UpdateGame(%s, version %d): %v", g.ID, g.Version, err)
	}
}

func mustGame(t *testing.T, s storage.Store, id string) *storage.GameRecord {
	t.Helper()
	g, err := s.Game(ctxFor(t), id)
	if err != nil {
		t.Fatalf("Game(%s): %v", id, err)
	}
	return g
}

// checkErr fails unless err matches want (nil means no error).
func checkErr(t *testing.T, what string, err, want error) {
	t.Helper()
	switch {
	case want == nil && err != nil:
		t.Fatalf("%s: got error %v, want none", what, err)
	case want != nil && !errors.Is(err, want):
		t.Fatalf("%s: got error %v, want %v", what, err, want)
	}
}

func checkDeep[T any](t *testing.T, what string, got, want T) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s:\n got %+v\nwant %+v", what, got, want)
	}
}

// checkIDs compares id lists, treating nil and empty alike.
func checkIDs(t *testing.T, what string, got []string, err error, want ...string) {
	t.Helper()
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	if len(got) == 0 && len(want) == 0 {
		return
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s: got %q, want %q", what, got, want)
	}
}
