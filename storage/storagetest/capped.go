package storagetest

import (
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/bashni/bashni/storage"
)

// testCapped: CreateGameCapped counts a user's active games and creates
// one in a single step (issue 38: the lobby's cap of 10 made 20 games
// from 60 parallel requests when it read first and wrote after).
func testCapped(t *testing.T, newStore func(t *testing.T) storage.Store) {
	const user, max, tries = 1, 10, 60
	t.Run("ParallelRequests", func(t *testing.T) {
		s := newStore(t)
		ctx := t.Context()
		mustCreate(t, s, game("other", 100, user, 2)) // one already under way
		var wg sync.WaitGroup
		var mu sync.Mutex
		made, refused := 0, 0
		for i := range tries {
			wg.Go(func() {
				g := game(fmt.Sprintf("g%02d", i), user, user, 0)
				g.Black = storage.Player{Name: "AI", AILevel: 1}
				g.CreatedAt = time.Now().UTC().Round(0) // created now, as a service creates
				err := s.CreateGameCapped(ctx, g, user, max)
				mu.Lock()
				defer mu.Unlock()
				switch {
				case err == nil:
					made++
				case errors.Is(err, storage.ErrCapReached):
					refused++
				default:
					t.Errorf("create %d: %v", i, err)
				}
			})
		}
		wg.Wait()
		ids, err := s.ActiveGamesByUser(ctx, user)
		if err != nil {
			t.Fatal(err)
		}
		if made != max-1 || refused != tries-made || len(ids) != max {
			t.Errorf("%d parallel creates under a cap of %d: %d made, %d refused, %d active; want %d made, %d active", tries, max, made, refused, len(ids), max-1, max)
		}
		// One game ends: one seat is free again, and only one.
		done, err := s.Game(ctx, ids[0])
		if err != nil {
			t.Fatal(err)
		}
		done.Status, done.Result = storage.GameFinished, "1-0"
		if err := s.UpdateGame(ctx, done); err != nil {
			t.Fatal(err)
		}
		g := game("after", user, user, 0)
		g.Black = storage.Player{Name: "AI", AILevel: 1}
		if err := s.CreateGameCapped(ctx, g, user, max); err != nil {
			t.Errorf("a create after a game ended: %v; want it made", err)
		}
		g = game("over", user, user, 0)
		g.Black = storage.Player{Name: "AI", AILevel: 1}
		if err := s.CreateGameCapped(ctx, g, user, max); !errors.Is(err, storage.ErrCapReached) {
			t.Errorf("a create past the cap: %v; want ErrCapReached", err)
		}
		if _, err := s.Game(ctx, "over"); !errors.Is(err, storage.ErrNotFound) {
			t.Errorf("the refused game: %v; want it not stored", err)
		}
	})
}
