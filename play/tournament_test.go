package play

import (
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/bashni/bashni/internal/testkit"
	"github.com/bashni/bashni/storage"
)

// twoReplicas returns two services with tournaments on one store opened by
// open, and the clock they share (from the real present).
func twoReplicas(t *testing.T, open func(t *testing.T, now func() time.Time) Store) (a, b *Service, st Store, clock *testkit.Clock) {
	t.Helper()
	clock = testkit.NewClock(time.Now())
	st = open(t, clock.Now)
	ts := st.(storage.Tournaments)
	a = New(st, nil, DefaultConfig, clock.Now, WithTournaments(ts))
	b = New(st, nil, DefaultConfig, clock.Now, WithTournaments(ts))
	return a, b, st, clock
}

// onEachStore runs test on each of replicaStores.
func onEachStore(t *testing.T, test func(t *testing.T, a, b *Service, st Store, clock *testkit.Clock)) {
	for name, open := range replicaStores {
		t.Run(name, func(t *testing.T) {
			a, b, st, clock := twoReplicas(t, open)
			test(t, a, b, st, clock)
		})
	}
}

const tourChat = -100500

// Bad input changes nothing and says why.
func TestTournamentRefusals(t *testing.T) {
	a, _, _, _ := twoReplicas(t, replicaStores["bolt"])
	ctx := t.Context()
	for _, tc := range []struct {
		r    TournamentRequest
		want error
	}{
		{TournamentRequest{ChatID: tourChat, TimeControl: "5-3", Duration: 30 * time.Minute}, ErrBadTimeControl},
		{TournamentRequest{ChatID: tourChat, TimeControl: "5+3", Duration: time.Minute}, ErrBadDuration},
		{TournamentRequest{ChatID: tourChat, TimeControl: "5+3", Duration: 4 * time.Hour}, ErrBadDuration},
		{TournamentRequest{ChatID: 42, TimeControl: "5+3", Duration: 30 * time.Minute}, ErrTournamentInChat},
	} {
		if _, err := a.StartTournament(ctx, tc.r); !errors.Is(err, tc.want) {
			t.Errorf("StartTournament(%+v): %v, want %v", tc.r, err, tc.want)
		}
	}
	if _, err := a.ChatTournament(ctx, tourChat); !errors.Is(err, ErrNoTournament) {
		t.Fatalf("a refused start left a tournament: %v", err)
	}
	tr, err := a.StartTournament(ctx, TournamentRequest{ChatID: tourChat, By: alice, TimeControl: "5+3", Duration: 30 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.StartTournament(ctx, TournamentRequest{ChatID: tourChat, By: bob, TimeControl: "3+2", Duration: 30 * time.Minute}); !errors.Is(err, ErrTournamentRuns) {
		t.Errorf("a second tournament: %v, want ErrTournamentRuns", err)
	}
	if _, err := a.JoinTournament(ctx, tourChat, tr.ID, alice, "en"); err != nil {
		t.Fatal(err)
	}
	before, _ := a.ChatTournament(ctx, tourChat)
	for what, err := range map[string]error{
		"join twice":                 second(a.JoinTournament(ctx, tourChat, tr.ID, alice, "en")),
		"leave when not in":          second(a.LeaveTournament(ctx, tourChat, tr.ID, bob.UserID)),
		"pause when not in":          third(a.PauseTournament(ctx, tourChat, tr.ID, bob.UserID)),
		"join an earlier tournament": second(a.JoinTournament(ctx, tourChat, "old", bob, "en")),
		"join in another chat":       second(a.JoinTournament(ctx, -7, tr.ID, bob, "en")),
	} {
		want := map[string]error{"join twice": ErrAlreadyJoined, "leave when not in": ErrNotInTournament, "pause when not in": ErrNotInTournament,
			"join an earlier tournament": ErrTournamentOver, "join in another chat": ErrNoTournament}[what]
		if !errors.Is(err, want) {
			t.Errorf("%s: %v, want %v", what, err, want)
		}
	}
	after, _ := a.ChatTournament(ctx, tourChat)
	if after.Version != before.Version {
		t.Errorf("refusals wrote the tournament: version %d -> %d", before.Version, after.Version)
	}

	// Bob blocked the bot after joining: he is paused, not paired (his
	// cards could not reach him); Join brings him back once he is back.
	if _, err := a.Touch(ctx, Profile{ID: bob.UserID, Name: bob.Name, Private: true}); err != nil {
		t.Fatal(err)
	}
	if err := a.Blocked(ctx, bob.UserID); err != nil {
		t.Fatal(err)
	}
	ev, err := a.JoinTournament(ctx, tourChat, tr.ID, bob, "en")
	if err != nil || len(ev.Games) != 0 {
		t.Fatalf("Bob, who blocked the bot, joins: %+v, %v; want no game", ev, err)
	}
	if p, _ := ev.T.Player(bob.UserID); !p.Paused {
		t.Errorf("Bob, who blocked the bot, is not paused: %+v", p)
	}
	if _, err := a.Touch(ctx, Profile{ID: bob.UserID, Name: bob.Name, Private: true}); err != nil {
		t.Fatal(err)
	}
	ev, err = a.JoinTournament(ctx, tourChat, tr.ID, bob, "en")
	if err != nil || len(ev.Games) != 1 {
		t.Errorf("Bob back in the bot's chat joins again: %+v, %v; want a game with Alice", ev, err)
	}
}

func second[T any](_ T, err error) error        { return err }
func third[T, U any](_ T, _ U, err error) error { return err }

// Six players join at once through two replicas while both replicas' clocks
// tick: every one is paired exactly once, three games, each created once.
func TestTournamentReplicasPairEachPlayerOnce(t *testing.T) {
	onEachStore(t, testReplicasPairEachPlayerOnce)
}

func testReplicasPairEachPlayerOnce(t *testing.T, a, b *Service, st Store, _ *testkit.Clock) {
	ctx := t.Context()
	tr, err := a.StartTournament(ctx, TournamentRequest{ChatID: tourChat, By: alice, TimeControl: "5+3", Duration: 30 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	posted := map[string]int{}
	note := func(ev *TourEvent) {
		if ev == nil {
			return
		}
		mu.Lock()
		defer mu.Unlock()
		for _, g := range ev.Games {
			posted[g.ID()]++
		}
	}
	var wg sync.WaitGroup
	for i := range 6 {
		svc := []*Service{a, b}[i%2]
		wg.Go(func() {
			ev, err := svc.JoinTournament(ctx, tourChat, tr.ID, storage.Player{UserID: int64(100 + i), Name: fmt.Sprint("p", i)}, "en")
			if err != nil {
				t.Errorf("join %d: %v", i, err)
			}
			note(ev)
		})
		wg.Go(func() {
			evs, err := svc.TournamentTick(ctx)
			if err != nil {
				t.Errorf("tick: %v", err)
			}
			for _, ev := range evs {
				note(ev)
			}
		})
	}
	wg.Wait()
	got, err := a.ChatTournament(ctx, tourChat)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Players) != 6 || len(got.Games) != 3 {
		t.Fatalf("%d players, %d games; want 6 and 3: %+v", len(got.Players), len(got.Games), got.Tournament)
	}
	for _, p := range got.Players {
		games, err := st.ActiveGamesByUser(ctx, p.UserID)
		if err != nil {
			t.Fatal(err)
		}
		if len(games) != 1 || games[0] != p.Game {
			t.Errorf("player %d plays %v, the tournament says %q", p.UserID, games, p.Game)
		}
	}
	for _, g := range got.Games {
		if posted[g.ID] != 1 {
			t.Errorf("game %s was handed out for posting %d times, want once", g.ID, posted[g.ID])
		}
		rec, err := st.Game(ctx, g.ID)
		if err != nil {
			t.Fatalf("game %s: %v", g.ID, err)
		}
		if rec.Tour == nil || rec.Tour.ID != tr.ID || rec.ChatID != g.White || rec.Tour.MirrorChat != g.Black || !rec.Rated || rec.TimeControl != "5+3" {
			t.Errorf("game %s: %+v, link %+v", g.ID, rec, rec.Tour)
		}
	}
}

// A game's end moves the tournament on once, whichever replica sees it
// first (the game's end or the clock): its players are paired again, not
// with each other; when time is up nobody is paired, the game in progress
// is played out, and the tournament finishes exactly once.
func TestTournamentGameEndAndTimeUpOnce(t *testing.T) {
	onEachStore(t, testGameEndAndTimeUpOnce)
}

func testGameEndAndTimeUpOnce(t *testing.T, a, b *Service, _ Store, clock *testkit.Clock) {
	ctx := t.Context()
	tr, err := a.StartTournament(ctx, TournamentRequest{ChatID: tourChat, By: alice, TimeControl: "20+0", Duration: 15 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	var first *Game
	for _, p := range []storage.Player{alice, bob, carol} {
		ev, err := b.JoinTournament(ctx, tourChat, tr.ID, p, "en")
		if err != nil {
			t.Fatal(err)
		}
		if len(ev.Games) == 1 {
			first = ev.Games[0]
		}
	}
	if first == nil || first.White().UserID != alice.UserID || first.Black().UserID != bob.UserID {
		t.Fatalf("first game %+v, want Alice–Bob", first)
	}
	openBoth(t, a, first)
	out, err := a.Resign(ctx, first.ID(), bob.UserID)
	if err != nil {
		t.Fatal(err)
	}
	// Both replicas move the tournament on at once: one pairs.
	var wg sync.WaitGroup
	var evs [2][]*TourEvent
	wg.Go(func() {
		ev, err := a.TournamentGameOver(ctx, out.Game)
		if err != nil {
			t.Errorf("game over: %v", err)
		}
		evs[0] = []*TourEvent{ev}
	})
	wg.Go(func() {
		ev, err := b.TournamentTick(ctx)
		if err != nil {
			t.Errorf("tick: %v", err)
		}
		evs[1] = ev
	})
	wg.Wait()
	var second []*Game
	for _, list := range evs {
		for _, ev := range list {
			if ev != nil {
				second = append(second, ev.Games...)
			}
		}
	}
	if len(second) != 1 || second[0].White().UserID != carol.UserID || second[0].Black().UserID != alice.UserID {
		t.Fatalf("second games %v, want one: Carol–Alice (Bob just played Alice; White to Carol, who has not had it)", second)
	}

	// The bot posts the cards and records them; a game whose cards are
	// not recorded is posted again by the clock.
	g2 := second[0]
	if _, err := a.SetCard(ctx, g2.ID(), g2.White().UserID, 10, ""); err != nil {
		t.Fatal(err)
	}
	if _, err := b.SetMirrorCard(ctx, g2.ID(), 20); err != nil {
		t.Fatal(err)
	}
	clock.Advance(15 * time.Minute)
	evList, err := a.TournamentTick(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(evList) != 1 || evList[0].T.Status != storage.TournamentEnding || evList[0].Final || len(evList[0].Games) != 0 {
		t.Fatalf("at time up: %+v, want the tournament ending with a card edit, nobody paired", evList)
	}
	if _, _, err := a.PauseTournament(ctx, tourChat, tr.ID, bob.UserID); !errors.Is(err, ErrTournamentOver) {
		t.Errorf("a pause after time up: %v, want ErrTournamentOver", err)
	}
	openBoth(t, b, second[0])
	out, err = b.Resign(ctx, second[0].ID(), carol.UserID)
	if err != nil {
		t.Fatal(err)
	}
	finals := 0
	for _, svc := range []*Service{a, b} {
		ev, err := svc.TournamentGameOver(ctx, out.Game)
		if err != nil {
			t.Fatal(err)
		}
		if ev != nil && ev.Final {
			finals++
		}
	}
	if evs, _ := a.TournamentTick(ctx); len(evs) != 0 {
		t.Errorf("a finished tournament ticked: %+v", evs)
	}
	if finals != 1 {
		t.Errorf("the end was reported %d times, want once", finals)
	}
	// Not recorded shown: the clock shows it again a few seconds on, under
	// the same receipt (whose mark keeps a second copy from going out),
	// until it is recorded.
	before, _ := a.ChatTournament(ctx, tourChat)
	clock.Advance(tourFinalRetry)
	again, err := b.TournamentTick(ctx)
	if err != nil || len(again) != 1 || !again[0].Final || again[0].Receipt != before.Receipt || before.Receipt >= 0 {
		t.Fatalf("the owed final a few seconds on: %+v, %v; want it again under receipt %d (negative)", again, err, before.Receipt)
	}
	if err := a.TournamentFinalShown(ctx, tourChat, tr.ID); err != nil {
		t.Fatal(err)
	}
	clock.Advance(time.Minute)
	if evs, _ := b.TournamentTick(ctx); len(evs) != 0 {
		t.Errorf("a final recorded shown was shown again: %+v", evs)
	}
	got, _ := a.ChatTournament(ctx, tourChat)
	top := got.Standings()
	if got.Status != storage.TournamentFinished || top[0].Player.UserID != alice.UserID || top[0].Points != 4 || !top[0].OnFire {
		t.Errorf("final: %s, top %+v; want finished, Alice 4 on fire", got.Status, top[0])
	}
	// Ratings count as usual, on the group's board.
	if st, err := a.store.Standing(ctx, tourChat, alice.UserID); err != nil || st.Games != 2 || st.Rating <= StartRating {
		t.Errorf("Alice's standing in the group: %+v, %v; want 2 games, above %d", st, err, StartRating)
	}
	if _, err := a.StartTournament(ctx, TournamentRequest{ChatID: tourChat, By: bob, TimeControl: "3+2", Duration: 30 * time.Minute}); err != nil {
		t.Errorf("the next tournament after the final: %v", err)
	}
}
