package tournament

import (
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/bashni/bashni/internal/testkit"
	"github.com/bashni/bashni/play"
	"github.com/bashni/bashni/storage"
)

// replica is one process's tournaments and the game service they play on.
type replica struct {
	*Service
	core  *play.Service
	store play.Store
}

// twoReplicas returns two services with tournaments on one store opened by
// open, and the clock they share (from the real present).
func twoReplicas(t *testing.T, open func(t *testing.T, now func() time.Time) play.Store) (a, b *replica, st play.Store, clock *testkit.Clock) {
	t.Helper()
	clock = testkit.NewClock(time.Now())
	st = open(t, clock.Now)
	ts := st.(Store)
	mk := func() *replica {
		core := play.New(st, nil, play.DefaultConfig, clock.Now)
		return &replica{Service: New(core, ts, nil), core: core, store: st}
	}
	return mk(), mk(), st, clock
}

// onEachStore runs test on each of replicaStores.
func onEachStore(t *testing.T, test func(t *testing.T, a, b *replica, st play.Store, clock *testkit.Clock)) {
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
		r    Request
		want error
	}{
		{Request{ChatID: tourChat, TimeControl: "5-3", Duration: 30 * time.Minute}, play.ErrBadTimeControl},
		{Request{ChatID: tourChat, TimeControl: "5+3", Duration: time.Minute}, ErrBadDuration},
		{Request{ChatID: tourChat, TimeControl: "5+3", Duration: 4 * time.Hour}, ErrBadDuration},
		{Request{ChatID: 42, TimeControl: "5+3", Duration: 30 * time.Minute}, ErrNotInGroup},
	} {
		if _, err := a.Start(ctx, tc.r); !errors.Is(err, tc.want) {
			t.Errorf("Start(%+v): %v, want %v", tc.r, err, tc.want)
		}
	}
	if _, err := a.Current(ctx, tourChat); !errors.Is(err, ErrNone) {
		t.Fatalf("a refused start left a tournament: %v", err)
	}
	tr, err := a.Start(ctx, Request{ChatID: tourChat, By: alice, TimeControl: "5+3", Duration: 30 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.Start(ctx, Request{ChatID: tourChat, By: bob, TimeControl: "3+2", Duration: 30 * time.Minute}); !errors.Is(err, ErrRuns) {
		t.Errorf("a second tournament: %v, want ErrRuns", err)
	}
	if _, err := a.Join(ctx, tourChat, tr.ID, alice, "en"); err != nil {
		t.Fatal(err)
	}
	before, _ := a.Current(ctx, tourChat)
	for what, err := range map[string]error{
		"join twice":                 second(a.Join(ctx, tourChat, tr.ID, alice, "en")),
		"leave when not in":          second(a.Leave(ctx, tourChat, tr.ID, bob.UserID)),
		"pause when not in":          third(a.Pause(ctx, tourChat, tr.ID, bob.UserID)),
		"join an earlier tournament": second(a.Join(ctx, tourChat, "old", bob, "en")),
		"join in another chat":       second(a.Join(ctx, -7, tr.ID, bob, "en")),
	} {
		want := map[string]error{"join twice": ErrAlreadyJoined, "leave when not in": ErrNotJoined, "pause when not in": ErrNotJoined,
			"join an earlier tournament": ErrOver, "join in another chat": ErrNone}[what]
		if !errors.Is(err, want) {
			t.Errorf("%s: %v, want %v", what, err, want)
		}
	}
	after, _ := a.Current(ctx, tourChat)
	if after.Version != before.Version {
		t.Errorf("refusals wrote the tournament: version %d -> %d", before.Version, after.Version)
	}

	// Bob blocked the bot after joining: he is paused, not paired (his
	// cards could not reach him); Join brings him back once he is back.
	if _, err := a.core.Touch(ctx, play.Profile{ID: bob.UserID, Name: bob.Name, Private: true}); err != nil {
		t.Fatal(err)
	}
	if err := a.core.Blocked(ctx, bob.UserID); err != nil {
		t.Fatal(err)
	}
	ev, err := a.Join(ctx, tourChat, tr.ID, bob, "en")
	if err != nil || len(ev.Games) != 0 {
		t.Fatalf("Bob, who blocked the bot, joins: %+v, %v; want no game", ev, err)
	}
	if p, _ := ev.T.Player(bob.UserID); !p.Paused {
		t.Errorf("Bob, who blocked the bot, is not paused: %+v", p)
	}
	if _, err := a.core.Touch(ctx, play.Profile{ID: bob.UserID, Name: bob.Name, Private: true}); err != nil {
		t.Fatal(err)
	}
	ev, err = a.Join(ctx, tourChat, tr.ID, bob, "en")
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

func testReplicasPairEachPlayerOnce(t *testing.T, a, b *replica, st play.Store, _ *testkit.Clock) {
	ctx := t.Context()
	tr, err := a.Start(ctx, Request{ChatID: tourChat, By: alice, TimeControl: "5+3", Duration: 30 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	posted := map[string]int{}
	note := func(ev *Event) {
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
		svc := []*replica{a, b}[i%2]
		wg.Go(func() {
			ev, err := svc.Join(ctx, tourChat, tr.ID, storage.Player{UserID: int64(100 + i), Name: fmt.Sprint("p", i)}, "en")
			if err != nil {
				t.Errorf("join %d: %v", i, err)
			}
			note(ev)
		})
		wg.Go(func() {
			evs, err := svc.Tick(ctx)
			if err != nil {
				t.Errorf("tick: %v", err)
			}
			for _, ev := range evs {
				note(ev)
			}
		})
	}
	wg.Wait()
	got, err := a.Current(ctx, tourChat)
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
		if rec.Link == nil || rec.Link.ID != tr.ID || rec.ChatID != g.White || rec.Link.MirrorChat != g.Black || !rec.Rated || rec.TimeControl != "5+3" {
			t.Errorf("game %s: %+v, link %+v", g.ID, rec, rec.Link)
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

func testGameEndAndTimeUpOnce(t *testing.T, a, b *replica, _ play.Store, clock *testkit.Clock) {
	ctx := t.Context()
	tr, err := a.Start(ctx, Request{ChatID: tourChat, By: alice, TimeControl: "20+0", Duration: 15 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	var first *play.Game
	for _, p := range []storage.Player{alice, bob, carol} {
		ev, err := b.Join(ctx, tourChat, tr.ID, p, "en")
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
	openGame(t, a, first)
	out, err := a.core.Resign(ctx, first.ID(), bob.UserID)
	if err != nil {
		t.Fatal(err)
	}
	// Both replicas move the tournament on at once: one pairs.
	var wg sync.WaitGroup
	var evs [2][]*Event
	wg.Go(func() {
		ev, err := a.GameOver(ctx, out.Game)
		if err != nil {
			t.Errorf("game over: %v", err)
		}
		evs[0] = []*Event{ev}
	})
	wg.Go(func() {
		ev, err := b.Tick(ctx)
		if err != nil {
			t.Errorf("tick: %v", err)
		}
		evs[1] = ev
	})
	wg.Wait()
	var second []*play.Game
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
	if _, err := a.core.SetCard(ctx, g2.ID(), g2.White().UserID, 10, ""); err != nil {
		t.Fatal(err)
	}
	if _, err := b.core.SetMirrorCard(ctx, g2.ID(), 20); err != nil {
		t.Fatal(err)
	}
	clock.Advance(15 * time.Minute)
	evList, err := a.Tick(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(evList) != 1 || evList[0].T.Status != storage.TournamentEnding || evList[0].Final || len(evList[0].Games) != 0 {
		t.Fatalf("at time up: %+v, want the tournament ending with a card edit, nobody paired", evList)
	}
	if _, _, err := a.Pause(ctx, tourChat, tr.ID, bob.UserID); !errors.Is(err, ErrOver) {
		t.Errorf("a pause after time up: %v, want ErrOver", err)
	}
	openGame(t, b, second[0])
	out, err = b.core.Resign(ctx, second[0].ID(), carol.UserID)
	if err != nil {
		t.Fatal(err)
	}
	finals := 0
	for _, svc := range []*replica{a, b} {
		ev, err := svc.GameOver(ctx, out.Game)
		if err != nil {
			t.Fatal(err)
		}
		if ev != nil && ev.Final {
			finals++
		}
	}
	if evs, _ := a.Tick(ctx); len(evs) != 0 {
		t.Errorf("a finished tournament ticked: %+v", evs)
	}
	if finals != 1 {
		t.Errorf("the end was reported %d times, want once", finals)
	}
	// Not recorded shown: the clock shows it again a few seconds on, under
	// the same receipt (whose mark keeps a second copy from going out),
	// until it is recorded.
	before, _ := a.Current(ctx, tourChat)
	clock.Advance(tourFinalRetry)
	again, err := b.Tick(ctx)
	if err != nil || len(again) != 1 || !again[0].Final || again[0].Receipt != before.Receipt || before.Receipt >= 0 {
		t.Fatalf("the owed final a few seconds on: %+v, %v; want it again under receipt %d (negative)", again, err, before.Receipt)
	}
	if err := a.FinalShown(ctx, tourChat, tr.ID); err != nil {
		t.Fatal(err)
	}
	clock.Advance(time.Minute)
	if evs, _ := b.Tick(ctx); len(evs) != 0 {
		t.Errorf("a final recorded shown was shown again: %+v", evs)
	}
	got, _ := a.Current(ctx, tourChat)
	top := got.Standings()
	if got.Status != storage.TournamentFinished || top[0].Player.UserID != alice.UserID || top[0].Points != 4 || !top[0].OnFire {
		t.Errorf("final: %s, top %+v; want finished, Alice 4 on fire", got.Status, top[0])
	}
	// Ratings count as usual, on the group's board.
	if st, err := a.store.Standing(ctx, tourChat, alice.UserID); err != nil || st.Games != 2 || st.Rating <= play.StartRating {
		t.Errorf("Alice's standing in the group: %+v, %v; want 2 games, above %d", st, err, play.StartRating)
	}
	if _, err := a.Start(ctx, Request{ChatID: tourChat, By: bob, TimeControl: "3+2", Duration: 30 * time.Minute}); err != nil {
		t.Errorf("the next tournament after the final: %v", err)
	}
}

// openGame makes each side's first move in g: a game where a side never
// moved is aborted, not counted.
func openGame(t *testing.T, svc *replica, g *play.Game) *play.Game {
	t.Helper()
	for _, who := range []int64{g.White().UserID, g.Black().UserID} {
		g, err := svc.core.Game(t.Context(), g.ID())
		if err != nil {
			t.Fatal(err)
		}
		if _, err := svc.core.Move(t.Context(), g.ID(), who, g.Ply(), g.Rules().Legal()[0].String()); err != nil {
			t.Fatalf("opening %s: %v", g.ID(), err)
		}
	}
	g, err := svc.core.Game(t.Context(), g.ID())
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// An arena player who lets a game's clock run out without moving is
// paused (not paired again until they come back, by Join or Pause), and
// the game counts for nobody: their opponent gets no points for it.
func TestTournamentNoShowPaused(t *testing.T) {
	onEachStore(t, func(t *testing.T, a, b *replica, _ play.Store, clock *testkit.Clock) {
		ctx := t.Context()
		tr, err := a.Start(ctx, Request{ChatID: tourChat, By: alice, TimeControl: "1+0", Duration: time.Hour})
		if err != nil {
			t.Fatal(err)
		}
		var first *play.Game
		for _, p := range []storage.Player{alice, bob, carol} {
			ev, err := b.Join(ctx, tourChat, tr.ID, p, "en")
			if err != nil {
				t.Fatal(err)
			}
			if len(ev.Games) == 1 {
				first = ev.Games[0]
			}
		}
		// Alice (White) never moves: her flag falls at the clock's tick.
		clock.Advance(2 * time.Minute)
		if _, err := a.core.Tick(ctx, 10); err != nil {
			t.Fatal(err)
		}
		g, err := a.core.Game(ctx, first.ID())
		if err != nil || g.Active() {
			t.Fatalf("Alice's game after her flag fell: %+v, %v", g, err)
		}
		evs, err := b.Tick(ctx)
		if err != nil {
			t.Fatal(err)
		}
		var noShow []int64
		var paired []*play.Game
		for _, ev := range evs {
			for _, p := range ev.NoShow {
				noShow = append(noShow, p.UserID)
			}
			paired = append(paired, ev.Games...)
		}
		if len(noShow) != 1 || noShow[0] != alice.UserID {
			t.Errorf("no-shows told %v, want Alice", noShow)
		}
		if len(paired) != 1 || paired[0].White().UserID == alice.UserID || paired[0].Black().UserID == alice.UserID {
			t.Fatalf("paired %v after the no-show, want Bob–Carol", paired)
		}
		got, _ := a.Current(ctx, tourChat)
		ap, _ := got.Player(alice.UserID)
		bp, _ := got.Player(bob.UserID)
		if !ap.Paused || !ap.NoShow || PlayerSheet(bp).Total != 0 || bp.Results != "" {
			t.Errorf("Alice %+v, Bob %+v; want Alice paused as a no-show, Bob without points", ap, bp)
		}
		// She comes back with Join: no longer paused.
		if _, err := a.Join(ctx, tourChat, tr.ID, alice, "en"); err != nil {
			t.Fatal(err)
		}
		got, _ = a.Current(ctx, tourChat)
		if ap, _ := got.Player(alice.UserID); ap.Paused || ap.NoShow {
			t.Errorf("Alice after Join: %+v, want playing again", ap)
		}
	})
}

// A tournament's stored record stays the same size however many games
// are played: finished games leave it (counted, and kept on the players'
// sheets up to tourSheetKeep each). Two players who are never paired
// twice in a row, and a third, play game after game; the record after
// many games is no bigger than after a few, whatever the store.
func TestTournamentRecordBounded(t *testing.T) {
	onEachStore(t, func(t *testing.T, a, _ *replica, st play.Store, _ *testkit.Clock) {
		ctx := t.Context()
		tr, err := a.Start(ctx, Request{ChatID: tourChat, By: alice, TimeControl: "5+0", Duration: time.Hour})
		if err != nil {
			t.Fatal(err)
		}
		var live []*play.Game
		for _, p := range []storage.Player{alice, bob, carol, dave} {
			ev, err := a.Join(ctx, tourChat, tr.ID, p, "en")
			if err != nil {
				t.Fatal(err)
			}
			live = append(live, ev.Games...)
		}
		size := func() int {
			rec, err := st.(Store).Tournament(ctx, tourChat)
			if err != nil {
				t.Fatal(err)
			}
			b, err := json.Marshal(rec)
			if err != nil {
				t.Fatal(err)
			}
			return len(b)
		}
		games, early := 0, 0
		// Four players each play about half the games: after early games
		// every sheet is full, and the record has its size for good.
		const early0, many = 80, 160
		for games < many {
			if len(live) == 0 {
				t.Fatalf("nobody paired after %d games", games)
			}
			g := openGame(t, a, live[0])
			live = live[1:]
			out, err := a.core.Resign(ctx, g.ID(), g.Black().UserID)
			if err != nil {
				t.Fatal(err)
			}
			ev, err := a.GameOver(ctx, out.Game)
			if err != nil {
				t.Fatal(err)
			}
			live = append(live, ev.Games...)
			games++
			if games == early0 {
				early = size()
			}
		}
		got, _ := a.Current(ctx, tourChat)
		late := size()
		t.Logf("the record after %d games: %d bytes; after %d: %d", early0, early, games, late)
		if late > early+64 || got.Played != games {
			t.Errorf("the record grew from %d bytes after %d games to %d after %d (played %d); want it bounded",
				early, early0, late, games, got.Played)
		}
	})
}
