package storagetest

import (
	"testing"

	"github.com/bashni/bashni/storage"
)

// BenchReadUpdate measures what a move costs the store: read the game, then
// compare-and-set it with one more move, on a game of 40 moves with a
// deadline, two human players and a chat, so every index is touched.
func BenchReadUpdate(b *testing.B, s storage.Store) {
	ctx := b.Context()
	g := game("bench", -100, 1, 2)
	g.RemindAt = at(60)
	for range 40 {
		g.Moves = append(g.Moves, "c3:e5:c7")
	}
	g.Notices = map[int64]int{1: 100, 2: 200}
	if err := s.CreateGame(ctx, g); err != nil {
		b.Fatalf("CreateGame: %v", err)
	}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		g, err := s.Game(ctx, "bench")
		if err != nil {
			b.Fatalf("Game: %v", err)
		}
		g.Moves[len(g.Moves)-1] = "e3-f4"
		g.RemindAt = at(60 + i)
		if err := s.UpdateGame(ctx, g); err != nil {
			b.Fatalf("UpdateGame: %v", err)
		}
	}
}
