package play

import (
	"context"
	"errors"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bashni/bashni/ai"
	"github.com/bashni/bashni/internal/testkit"
	"github.com/bashni/bashni/rules"
	"github.com/bashni/bashni/storage"
	"github.com/bashni/bashni/storage/bolt"
)

var (
	alice = storage.Player{UserID: 1, Name: "Alice"}
	bob   = storage.Player{UserID: 2, Name: "Bob"}
	carol = storage.Player{UserID: 3, Name: "Carol"}
	dave  = storage.Player{UserID: 4, Name: "Dave"}
)

// newTestService returns a service on a real bbolt file, a fast real engine
// and a fake clock that starts at the real present; the store and the
// service share it.
func newTestService(t *testing.T) (*Service, *testkit.Clock, Store) {
	t.Helper()
	return newTestServiceAt(t, time.Now())
}

// newTestServiceAt is newTestService with the clock started at start.
func newTestServiceAt(t *testing.T, start time.Time) (*Service, *testkit.Clock, Store) {
	t.Helper()
	clock := testkit.NewClock(start)
	st, err := bolt.Open(filepath.Join(t.TempDir(), "bashni.db"), clock.Now)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	pool := NewEnginePool(1, 1, ai.Limits{Nodes: 2000})
	return New(st, pool, DefaultConfig, clock.Now), clock, st
}

// startGame opens a challenge from alice (White) to anyone, accepted by bob.
func startGame(t *testing.T, s *Service) *Game {
	t.Helper()
	ctx := context.Background()
	c, err := s.Challenge(ctx, ChallengeRequest{ChatID: -100, From: alice, Color: ColorWhite})
	if err != nil {
		t.Fatal(err)
	}
	g, err := s.Accept(ctx, c.ID, bob, "bob")
	if err != nil {
		t.Fatal(err)
	}
	if g.rec.White != alice || g.rec.Black != bob {
		t.Fatalf("players %v vs %v, want Alice (White) vs Bob", g.rec.White, g.rec.Black)
	}
	return g
}

func TestMoveChecksTurnPlayerAndLegality(t *testing.T) {
	s, _, _ := newTestService(t)
	ctx := context.Background()
	g := startGame(t, s)
	tests := []struct {
		name string
		user int64
		ply  int
		move string
		want error
	}{
		{"not your turn", bob.UserID, 0, "f6-e5", ErrNotYourTurn},
		{"not a player", carol.UserID, 0, "c3-d4", ErrNotAPlayer},
		{"stale board", alice.UserID, 3, "c3-d4", ErrStale},
		{"illegal move", alice.UserID, 0, "c3-c5", rules.ErrIllegalMove},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := s.Move(ctx, g.rec.ID, tt.user, tt.ply, tt.move)
			if !errors.Is(err, tt.want) {
				t.Fatalf("Move: %v, want %v", err, tt.want)
			}
			after, _ := s.Game(ctx, g.rec.ID)
			if after.Ply() != 0 || after.rec.Version != g.rec.Version {
				t.Errorf("a refused move changed the game: ply %d version %d", after.Ply(), after.rec.Version)
			}
		})
	}
	out, err := s.Move(ctx, g.rec.ID, alice.UserID, 0, "c3-d4")
	if err != nil {
		t.Fatal(err)
	}
	if out.Move.String() != "c3-d4" || out.Game.Ply() != 1 || out.Mover != alice {
		t.Errorf("outcome %+v", out)
	}
	if _, err := s.Move(ctx, g.rec.ID, bob.UserID, AnyPly, "f6-e5"); err != nil {
		t.Fatalf("typed move: %v", err)
	}
	saved, _ := s.Game(ctx, g.rec.ID)
	if got := saved.Rules().Record(); got != "1. c3-d4 f6-e5" {
		t.Errorf("stored record %q", got)
	}
}

// Fifty taps on the same board at once: exactly one move lands.
// A move takes the mover's turn notice off the record in its own write and
// hands it to the bot to delete; the opponent's stays until they move.
func TestMoveTakesTheMoversNotice(t *testing.T) {
	s, _, _ := newTestService(t)
	ctx := context.Background()
	g := startGame(t, s)
	if _, err := s.SetNotice(ctx, g.rec.ID, alice.UserID, -41); err != nil {
		t.Fatal(err)
	}
	// Bob is not to move: a notice for him is stale.
	if _, err := s.SetNotice(ctx, g.rec.ID, bob.UserID, 42); !errors.Is(err, ErrStale) {
		t.Fatalf("a notice for the player not to move: %v, want ErrStale", err)
	}
	out, err := s.Move(ctx, g.rec.ID, alice.UserID, 0, "c3-d4")
	if err != nil {
		t.Fatal(err)
	}
	if out.MoverNotice != -41 {
		t.Errorf("MoverNotice %d, want -41 (Alice's mention)", out.MoverNotice)
	}
	if _, err := s.SetNotice(ctx, g.rec.ID, bob.UserID, 42); err != nil {
		t.Fatal(err)
	}
	saved, _ := s.Game(ctx, g.rec.ID)
	if _, ok := saved.rec.Notices[alice.UserID]; ok || saved.rec.Notices[bob.UserID] != 42 {
		t.Errorf("notices after Alice's move %v, want only Bob's 42", saved.rec.Notices)
	}
	out, err = s.Move(ctx, g.rec.ID, bob.UserID, 1, "f6-e5")
	if err != nil {
		t.Fatal(err)
	}
	if out.MoverNotice != 42 {
		t.Errorf("MoverNotice %d, want 42 (Bob's DM)", out.MoverNotice)
	}
	out, err = s.Move(ctx, g.rec.ID, alice.UserID, 2, "d4:f6")
	if err != nil {
		t.Fatal(err)
	}
	if out.MoverNotice != 0 {
		t.Errorf("MoverNotice %d with no notice recorded, want 0", out.MoverNotice)
	}
}

func TestConcurrentTapsOneWins(t *testing.T) {
	s, _, _ := newTestService(t)
	ctx := context.Background()
	g := startGame(t, s)
	var wins, stale atomic.Int32
	var wg sync.WaitGroup
	for i := 0; i < 50; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := s.Move(ctx, g.rec.ID, alice.UserID, 0, "c3-d4")
			switch {
			case err == nil:
				wins.Add(1)
			case errors.Is(err, ErrStale), errors.Is(err, ErrNotYourTurn):
				stale.Add(1)
			default:
				t.Errorf("unexpected error: %v", err)
			}
		}()
	}
	wg.Wait()
	if wins.Load() != 1 || stale.Load() != 49 {
		t.Errorf("wins %d, refused %d; want 1 and 49", wins.Load(), stale.Load())
	}
	after, _ := s.Game(ctx, g.rec.ID)
	if after.Ply() != 1 {
		t.Errorf("ply %d after 50 taps, want 1", after.Ply())
	}
}

func TestResignUpdatesRatingsAndStats(t *testing.T) {
	s, _, _ := newTestService(t)
	ctx := context.Background()
	g := startGame(t, s)
	openBoth(t, s, g)
	out, err := s.Resign(ctx, g.rec.ID, bob.UserID)
	if err != nil {
		t.Fatal(err)
	}
	if !out.Ended || out.Game.rec.Result != "1-0" || out.Game.rec.Reason != "resignation" {
		t.Errorf("after resigning: ended %v result %q reason %q", out.Ended, out.Game.rec.Result, out.Game.rec.Reason)
	}
	if _, err := s.Move(ctx, g.rec.ID, alice.UserID, AnyPly, "c3-d4"); !errors.Is(err, ErrGameOver) {
		t.Errorf("move after the end: %v", err)
	}
	ua, _ := s.User(ctx, alice.UserID)
	ub, _ := s.User(ctx, bob.UserID)
	if ua.Rating <= StartRating || ub.Rating >= StartRating || ua.Stats.Wins != 1 || ub.Stats.Losses != 1 || ua.Stats.Streak != 1 {
		t.Errorf("alice %+v, bob %+v", ua, ub)
	}
	top, err := s.Top(ctx, -100, 10)
	if err != nil || len(top) != 2 || top[0].UserID != alice.UserID {
		t.Errorf("chat leaderboard %+v, %v", top, err)
	}
	global, _ := s.Top(ctx, 0, 10)
	if len(global) != 2 {
		t.Errorf("global leaderboard %+v", global)
	}
}

func TestDrawOffer(t *testing.T) {
	s, _, _ := newTestService(t)
	ctx := context.Background()
	g := startGame(t, s)
	openBoth(t, s, g)
	if _, err := s.AnswerDraw(ctx, g.rec.ID, bob.UserID, true); !errors.Is(err, ErrNoDrawOffer) {
		t.Errorf("answer without offer: %v", err)
	}
	if _, err := s.OfferDraw(ctx, g.rec.ID, alice.UserID); err != nil {
		t.Fatal(err)
	}
	if _, err := s.AnswerDraw(ctx, g.rec.ID, alice.UserID, true); !errors.Is(err, ErrDrawOfferOwn) {
		t.Errorf("answering one's own offer: %v", err)
	}
	if _, err := s.AnswerDraw(ctx, g.rec.ID, bob.UserID, false); err != nil {
		t.Fatal(err)
	}
	if _, err := s.OfferDraw(ctx, g.rec.ID, bob.UserID); err != nil {
		t.Fatal(err)
	}
	out, err := s.AnswerDraw(ctx, g.rec.ID, alice.UserID, true)
	if err != nil {
		t.Fatal(err)
	}
	if !out.Ended || out.Game.rec.Result != "1/2-1/2" || out.Game.rec.Reason != "agreement" {
		t.Errorf("accepted draw: %+v", out.Game.rec)
	}
}

func TestChallengeAddressing(t *testing.T) {
	s, _, _ := newTestService(t)
	ctx := context.Background()
	c, err := s.Challenge(ctx, ChallengeRequest{ChatID: -100, From: alice, ToName: "@Bob"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Accept(ctx, c.ID, carol, "carol"); !errors.Is(err, ErrNotForYou) {
		t.Errorf("carol accepting bob's challenge: %v", err)
	}
	if _, err := s.Accept(ctx, c.ID, alice, "alice"); !errors.Is(err, ErrOwnChallenge) {
		t.Errorf("accepting one's own: %v", err)
	}
	if _, err := s.Cancel(ctx, c.ID, bob.UserID); !errors.Is(err, ErrNotForYou) {
		t.Errorf("bob cancelling alice's: %v", err)
	}
	if _, err := s.Decline(ctx, c.ID, bob, "BOB"); err != nil {
		t.Fatalf("bob declining: %v", err)
	}
	if _, err := s.Accept(ctx, c.ID, bob, "bob"); !errors.Is(err, ErrNoChallenge) {
		t.Errorf("accepting a declined challenge: %v", err)
	}
}

// Many people accept one open challenge at once: one game starts.
func TestConcurrentAcceptOneGame(t *testing.T) {
	s, _, st := newTestService(t)
	ctx := context.Background()
	c, _ := s.Challenge(ctx, ChallengeRequest{ChatID: -100, From: alice})
	var wg sync.WaitGroup
	var ok atomic.Int32
	for i := 0; i < 20; i++ {
		wg.Add(1)
		go func(id int64) {
			defer wg.Done()
			if _, err := s.Accept(ctx, c.ID, storage.Player{UserID: id, Name: "p"}, ""); err == nil {
				ok.Add(1)
			} else if !errors.Is(err, ErrNoChallenge) {
				t.Errorf("accept: %v", err)
			}
		}(int64(10 + i))
	}
	wg.Wait()
	ids, _ := st.ActiveGamesByChat(ctx, -100)
	if ok.Load() != 1 || len(ids) != 1 {
		t.Errorf("%d accepts succeeded, %d games; want 1 and 1", ok.Load(), len(ids))
	}
}

func TestAIGameToTheEnd(t *testing.T) {
	s, _, _ := newTestService(t)
	ctx := context.Background()
	g, err := s.NewAIGame(ctx, AIGameRequest{ChatID: 1, Human: alice, Level: 1, Color: ColorBlack})
	if err != nil {
		t.Fatal(err)
	}
	if !g.IsAITurn() {
		t.Fatal("the AI has White and should be to move")
	}
	for ply := 0; ply < 400; ply++ {
		g, err = s.Game(ctx, g.rec.ID)
		if err != nil {
			t.Fatal(err)
		}
		if !g.rec.Active() {
			break
		}
		if g.IsAITurn() {
			if _, err := s.PlayAI(ctx, g.rec.ID); err != nil {
				t.Fatalf("AI move at ply %d: %v", g.Ply(), err)
			}
			continue
		}
		legal := g.Rules().Legal()
		if _, err := s.Move(ctx, g.rec.ID, alice.UserID, g.Ply(), legal[0].String()); err != nil {
			t.Fatalf("human move: %v", err)
		}
	}
	if g.rec.Active() {
		t.Fatalf("game still going after 400 plies: %s", g.Rules().Record())
	}
	if g.rec.Result == "" || g.rec.Reason == "" {
		t.Errorf("finished without result: %+v", g.rec)
	}
	u, _ := s.User(ctx, alice.UserID)
	if u.Stats.Games != 1 || u.Rating != StartRating {
		t.Errorf("after an AI game: stats %+v rating %v (AI games count, but are unrated)", u.Stats, u.Rating)
	}
}

// Reminders and wins on time fire once, even with two services (two bot
// instances) on one store.
func TestClockRemindsThenTimesOutOnce(t *testing.T) {
	s1, clock, st := newTestService(t)
	s2 := New(st, nil, DefaultConfig, clock.Now)
	ctx := context.Background()
	g := startGame(t, s1)
	tick := func() (reminders, timeouts int) {
		var wg sync.WaitGroup
		var mu sync.Mutex
		for _, s := range []*Service{s1, s2, s1, s2} {
			wg.Add(1)
			go func(s *Service) {
				defer wg.Done()
				evs, err := s.Tick(ctx, 10)
				if err != nil {
					t.Errorf("tick: %v", err)
				}
				mu.Lock()
				defer mu.Unlock()
				for _, ev := range evs {
					if ev.Reminder {
						reminders++
					}
					if ev.TimedOut {
						timeouts++
					}
				}
			}(s)
		}
		wg.Wait()
		return
	}
	if r, to := tick(); r != 0 || to != 0 {
		t.Fatalf("before any deadline: %d reminders, %d timeouts", r, to)
	}
	clock.Advance(DefaultConfig.RemindAfter + time.Minute)
	if r, to := tick(); r != 1 || to != 0 {
		t.Fatalf("after 12 h: %d reminders, %d timeouts; want 1, 0", r, to)
	}
	if r, _ := tick(); r != 0 {
		t.Fatalf("a second tick at the same time reminded again")
	}
	clock.Advance(DefaultConfig.TimeoutAfter)
	if r, to := tick(); to != 1 {
		t.Fatalf("after the timeout: %d reminders, %d timeouts; want 1 timeout", r, to)
	}
	final, _ := s1.Game(ctx, g.rec.ID)
	if final.rec.Result != "*" || final.rec.Reason != "aborted" {
		t.Errorf("White never moved: the game should be aborted on time: %q %q", final.rec.Result, final.rec.Reason)
	}
}

// A game that ended off the board (resigned, lost on time, drawn by
// agreement) reads back from the store with its real result and reason,
// not as a game still going or a draw.
func TestFinishedGameReadsBackAsItEnded(t *testing.T) {
	s, clock, _ := newTestService(t)
	ctx := t.Context()

	aborted := startGame(t, s)
	if _, err := s.Resign(ctx, aborted.rec.ID, alice.UserID); err != nil {
		t.Fatal(err)
	}
	resigned := startGame(t, s)
	openBoth(t, s, resigned)
	if _, err := s.Resign(ctx, resigned.rec.ID, alice.UserID); err != nil {
		t.Fatal(err)
	}
	drawn := startGame(t, s)
	openBoth(t, s, drawn)
	if _, err := s.OfferDraw(ctx, drawn.rec.ID, alice.UserID); err != nil {
		t.Fatal(err)
	}
	if _, err := s.AnswerDraw(ctx, drawn.rec.ID, bob.UserID, true); err != nil {
		t.Fatal(err)
	}
	timed := startGame(t, s)
	openBoth(t, s, timed)
	clock.Advance(DefaultConfig.TimeoutAfter + time.Minute)
	if _, err := s.Tick(ctx, 10); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		id         string
		result     rules.Result
		reason     rules.Reason
		storedWhat string
	}{
		{resigned.rec.ID, rules.BlackWins, rules.Resignation, "resigned by White"},
		{drawn.rec.ID, rules.Draw, rules.Agreement, "drawn by agreement"},
		{timed.rec.ID, rules.BlackWins, rules.Timeout, "lost on time by White"},
		{aborted.rec.ID, rules.NoResult, rules.Aborted, "resigned before a move: aborted"},
	} {
		g, err := s.Game(ctx, tc.id)
		if err != nil {
			t.Fatal(err)
		}
		if r, why := g.Rules().Result(); r != tc.result || why != tc.reason {
			t.Errorf("%s: read back as %v (%v), want %v (%v)", tc.storedWhat, r, why, tc.result, tc.reason)
		}
	}
}
