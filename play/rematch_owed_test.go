package play

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/bashni/bashni/internal/testkit"
	"github.com/bashni/bashni/storage"
)

// diesBeforeTheRematch is the store of a process killed between a rematch
// tap's two writes: the finished game's (RematchID) is made, the rematch
// game's creation never happens.
type diesBeforeTheRematch struct {
	Store
}

func (diesBeforeTheRematch) CreateGame(context.Context, *storage.GameRecord) error {
	return errors.New("killed")
}

// tapKilledBeforeTheGame is a rematch tap (receipt 202) by by in finished
// game old, on a process killed after the finished game's write and before
// the rematch game's: the rematch is recorded and owed, no game made.
func tapKilledBeforeTheGame(t *testing.T, st Store, clock func() time.Time, old *Game, by int64) {
	t.Helper()
	ctx := WithReceipt(context.Background(), 202)
	dead := New(diesBeforeTheRematch{st}, nil, DefaultConfig, clock)
	if _, err := dead.Rematch(ctx, old.ID(), by); err == nil {
		t.Fatal("the killed process's rematch went through")
	}
	rec, err := st.Game(context.Background(), old.ID())
	if err != nil || rec.RematchID == "" {
		t.Fatalf("the finished game after the killed tap: %+v, %v; want the rematch recorded", rec, err)
	}
	if _, err := st.Game(context.Background(), rec.RematchID); !isNotFound(err) {
		t.Fatalf("the rematch game exists after the killed tap: %v", err)
	}
}

// checkRematchOwesItsCard checks that old's rematch game exists with its
// first card owed under the tap's receipt.
func checkRematchOwesItsCard(t *testing.T, s *Service, old *Game) *Game {
	t.Helper()
	g, err := s.RematchGame(context.Background(), mustGame(t, s, old.ID()))
	if err != nil {
		t.Fatalf("the rematch game: %v", err)
	}
	if !slices.Contains(g.Owed(), storage.GameEvent{Kind: EventStarted, Version: 1, Receipt: 202}) {
		t.Errorf("the rematch game owes %v, want its card under the tap's receipt", g.Owed())
	}
	return g
}

// A crash between the finished game's write and the rematch game's: the
// tap Telegram delivers again is recognised as the one that started the
// rematch (not told it started already), the game is made then, with its
// card owed under the tap's receipt, for the caller to show. Against a
// player (Bob accepts Alice's offer) and against the AI alike.
func TestRematchKilledBeforeTheGameRedeliveryMakesIt(t *testing.T) {
	for _, tc := range []struct {
		name string
		old  func(t *testing.T, s *Service) (*Game, int64)
	}{
		{"accepting an offer", rematchOffered},
		{"against the AI", finishedAIGame},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, clock, st := newTestService(t)
			old, by := tc.old(t, s)
			tapKilledBeforeTheGame(t, st, clock.Now, old, by)

			_, err := s.Rematch(WithReceipt(context.Background(), 202), old.ID(), by)
			var ae *AppliedError
			if !errors.As(err, &ae) || ae.Game.ID() != old.ID() {
				t.Fatalf("the redelivered tap: %v; want it applied to the finished game", err)
			}
			g := checkRematchOwesItsCard(t, s, old)
			if !g.Active() || g.White().UserID != old.Black().UserID {
				t.Errorf("the rematch game: %v, want a live game with the colours swapped", g)
			}
			// Another tap now is told the rematch started, as before.
			if _, err := s.Rematch(WithReceipt(context.Background(), 203), old.ID(), by); !errors.Is(err, ErrRematchStarted) {
				t.Errorf("a later tap: %v, want ErrRematchStarted", err)
			}
		})
	}
}

// The same crash and no redelivery: once the finished game's ShowAt has
// passed, the clock's tick makes the rematch game, with its card owed
// under the tap's receipt, and hands over the event that shows it.
func TestRematchKilledBeforeTheGameTickMakesIt(t *testing.T) {
	for _, tc := range []struct {
		name string
		old  func(t *testing.T, s *Service) (*Game, int64)
	}{
		{"accepting an offer", rematchOffered},
		{"against the AI", finishedAIGame},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, clock, st := newTestService(t)
			old, by := tc.old(t, s)
			tapKilledBeforeTheGame(t, st, clock.Now, old, by)
			ctx := context.Background()

			if evs, err := s.Tick(ctx, 100); err != nil || len(evs) != 0 {
				t.Fatalf("tick within the writer's lease: %v, %v; want nothing", evs, err)
			}
			clock.Advance(10 * time.Second)
			evs, err := s.Tick(ctx, 100)
			if err != nil {
				t.Fatal(err)
			}
			i := slices.IndexFunc(evs, func(e ClockEvent) bool { return e.Game.ID() == old.ID() })
			if i < 0 || !slices.ContainsFunc(evs[i].Owed, func(e storage.GameEvent) bool { return e.Kind == EventRematch && e.Receipt == 202 }) {
				t.Fatalf("tick past ShowAt: %+v; want the rematch handed over to be shown", evs)
			}
			checkRematchOwesItsCard(t, s, old)
		})
	}
}

// rematchOffered is a game Bob resigned, whose rematch Alice offered: Bob's
// tap accepts it.
func rematchOffered(t *testing.T, s *Service) (*Game, int64) {
	t.Helper()
	g := finishedGame(t, s)
	if out, err := s.Rematch(WithReceipt(context.Background(), 201), g.ID(), alice.UserID); err != nil || !out.Offered {
		t.Fatalf("Alice's offer: %+v, %v", out, err)
	}
	return g, bob.UserID
}

// finishedAIGame is a game Alice (White) resigned against the AI: her tap
// starts the rematch at once.
func finishedAIGame(t *testing.T, s *Service) (*Game, int64) {
	t.Helper()
	ctx := context.Background()
	g, err := s.NewAIGame(ctx, AIGameRequest{Human: alice, Level: 1, Color: ColorWhite, ChatID: alice.UserID})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Resign(ctx, g.ID(), alice.UserID); err != nil {
		t.Fatal(err)
	}
	return g, alice.UserID
}

// A rematch offer is stored with its event (who offered, under the tap's
// receipt), so a crash before its message leaves it owed: the tap
// Telegram delivers again is recognised as applied (not refused as a
// second offer), and past ShowAt the clock's tick hands it over.
func TestRematchOfferIsOwed(t *testing.T) {
	s, clock, _ := newTestService(t)
	old, _ := rematchOffered(t, s)
	checkOwed(t, s, clock, old.ID(), storage.GameEvent{Kind: EventRematchOffered, By: alice.UserID, Receipt: 201}, func() error {
		_, err := s.Rematch(WithReceipt(context.Background(), 201), old.ID(), alice.UserID)
		return err
	})
}

// checkOwed checks that game id owes want (its kind, By and receipt), that
// the update delivered again (again) is recognised as applied, and that
// past ShowAt the clock's tick hands want over to be shown.
func checkOwed(t *testing.T, s *Service, clock *testkit.Clock, id string, want storage.GameEvent, again func() error) {
	t.Helper()
	owes := func(evs []storage.GameEvent) bool {
		return slices.ContainsFunc(evs, func(e storage.GameEvent) bool {
			return e.Kind == want.Kind && e.By == want.By && e.Receipt == want.Receipt
		})
	}
	if g := mustGame(t, s, id); !owes(g.Owed()) {
		t.Fatalf("the game owes %v, want %+v", g.Owed(), want)
	}
	var ae *AppliedError
	if err := again(); !errors.As(err, &ae) {
		t.Fatalf("the redelivered update: %v; want it applied", err)
	}
	clock.Advance(10 * time.Second)
	evs, err := s.Tick(context.Background(), 100)
	if err != nil {
		t.Fatal(err)
	}
	if i := slices.IndexFunc(evs, func(e ClockEvent) bool { return e.Game.ID() == id }); i < 0 || !owes(evs[i].Owed) {
		t.Fatalf("tick past ShowAt: %+v; want %+v handed over to be shown", evs, want)
	}
}

// A rematch offer's end (Bob declines Alice's offer, or Alice withdraws
// it) is stored with its event, By the one who tapped, under the tap's
// receipt: the record, which clears the offer, cannot tell the two apart.
// A crash before the chat is told leaves it owed: the tap Telegram
// delivers again is recognised as applied (not refused for want of an
// offer), and past ShowAt the clock's tick hands it over. On each store.
func TestRematchDeclineIsOwed(t *testing.T) {
	for name, open := range replicaStores {
		for _, tc := range []struct {
			name string
			by   int64
			kind string
		}{
			{"declined", bob.UserID, EventRematchDeclined},
			{"withdrawn", alice.UserID, EventRematchWithdrawn},
		} {
			t.Run(name+"/"+tc.name, func(t *testing.T) {
				clock := testkit.NewClock(time.Now())
				s := New(open(t, clock.Now), nil, DefaultConfig, clock.Now)
				ctx := context.Background()
				old, _ := rematchOffered(t, s)
				if _, offeredBy, err := s.DeclineRematch(WithReceipt(ctx, 202), old.ID(), tc.by); err != nil || offeredBy != alice.UserID {
					t.Fatalf("the tap: offered by %d, %v; want Alice's offer ended", offeredBy, err)
				}
				checkOwed(t, s, clock, old.ID(), storage.GameEvent{Kind: tc.kind, By: tc.by, Receipt: 202}, func() error {
					_, _, err := s.DeclineRematch(WithReceipt(ctx, 202), old.ID(), tc.by)
					return err
				})
			})
		}
	}
}
