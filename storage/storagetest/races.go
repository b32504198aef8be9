package storagetest

import (
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"

	"github.com/bashni/bashni/storage"
)

func testRaces(t *testing.T, newStore func(t *testing.T) storage.Store) {
	t.Run("SameVersion", func(t *testing.T) {
		t.Parallel()
		raceSameVersion(t, newStore(t))
	})
	t.Run("RetryLosesNothing", func(t *testing.T) {
		t.Parallel()
		raceRetryLosesNothing(t, newStore(t))
	})
}

// raceSameVersion: of many writes holding one version, exactly one lands.
func raceSameVersion(t *testing.T, s storage.Store) {
	g := game("hot", 1, 2, 3)
	mustCreate(t, s, g)

	// 50 taps holding version 1, each with a different move: exactly one
	// may land.
	const taps = 50
	var (
		wg        sync.WaitGroup
		mu        sync.Mutex
		winners   []*storage.GameRecord
		conflicts int
		other     []error
	)
	start := make(chan struct{})
	for i := range taps {
		tap := g.Clone()
		tap.Moves = []string{fmt.Sprintf("tap-%d", i)}
		wg.Go(func() {
			<-start
			err := s.UpdateGame(ctxFor(t), tap)
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				winners = append(winners, tap)
			case errors.Is(err, storage.ErrConflict):
				conflicts++
			default:
				other = append(other, err)
			}
		})
	}
	close(start)
	wg.Wait()
	if len(winners) != 1 || conflicts != taps-1 || len(other) > 0 {
		t.Fatalf("%d taps: got %d winners, %d conflicts, other errors %v; want 1, %d, none",
			taps, len(winners), conflicts, other, taps-1)
	}
	checkDeep(t, "stored game", mustGame(t, s, "hot"), winners[0])
	if winners[0].Version != 2 {
		t.Errorf("winner's version: got %d, want 2", winners[0].Version)
	}
}

// raceRetryLosesNothing: writers that read again on a conflict and retry
// land every move, each writer's in its own order.
func raceRetryLosesNothing(t *testing.T, s storage.Store) {
	const (
		games   = 20
		writers = 4 // per game
		moves   = 5 // per writer
	)
	for i := range games {
		g := game(fmt.Sprintf("g%02d", i), 1, 2, 3)
		g.RemindAt = at(i)
		mustCreate(t, s, g)
	}

	// Each writer appends its moves one at a time: read, append, CAS,
	// and on conflict read again. Writers of different games interleave.
	errs := make(chan error, games*writers)
	var wg sync.WaitGroup
	for i := range games {
		id := fmt.Sprintf("g%02d", i)
		for w := range writers {
			wg.Go(func() {
				for m := range moves {
					if err := appendMove(t, s, id, fmt.Sprintf("w%d-m%d", w, m)); err != nil {
						errs <- err
						return
					}
				}
			})
		}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}

	for i := range games {
		g := mustGame(t, s, fmt.Sprintf("g%02d", i))
		if got, want := len(g.Moves), writers*moves; got != want {
			t.Errorf("%s: got %d moves, want %d (%q)", g.ID, got, want, g.Moves)
		}
		if got, want := g.Version, int64(1+writers*moves); got != want {
			t.Errorf("%s: got version %d, want %d", g.ID, got, want)
		}
		checkWritersOrder(t, g, writers, moves)
	}
	ids, err := s.ActiveGamesByChat(ctxFor(t), 1)
	if err != nil || len(ids) != games {
		t.Errorf("ActiveGamesByChat after the storm: got %d ids (err %v), want %d", len(ids), err, games)
	}
}

// checkWritersOrder checks that each writer's moves appear in g once each,
// in its own order.
func checkWritersOrder(t *testing.T, g *storage.GameRecord, writers, moves int) {
	t.Helper()
	for w := range writers {
		var mine []string
		for _, m := range g.Moves {
			if m[:2] == fmt.Sprintf("w%d", w) {
				mine = append(mine, m)
			}
		}
		var want []string
		for m := range moves {
			want = append(want, fmt.Sprintf("w%d-m%d", w, m))
		}
		if !slices.Equal(mine, want) {
			t.Errorf("%s: writer %d: got moves %q, want %q", g.ID, w, mine, want)
		}
	}
}

// appendMove is what play does with a move: read, change, compare-and-set,
// and on a conflict read again and retry.
func appendMove(t *testing.T, s storage.Store, id, move string) error {
	for attempt := 0; attempt < 1000; attempt++ {
		g, err := s.Game(ctxFor(t), id)
		if err != nil {
			return fmt.Errorf("Game(%s): %w", id, err)
		}
		g.Moves = append(g.Moves, move)
		g.Position = move
		err = s.UpdateGame(ctxFor(t), g)
		if err == nil {
			return nil
		}
		if !errors.Is(err, storage.ErrConflict) {
			return fmt.Errorf("UpdateGame(%s): %w", id, err)
		}
	}
	return fmt.Errorf("%s: move %s: still conflicting after 1000 attempts", id, move)
}
