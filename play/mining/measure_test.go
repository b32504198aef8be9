package mining

import (
	"context"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/bashni/bashni/ai"
	"github.com/bashni/bashni/puzzle"
	"github.com/bashni/bashni/rules"
	"github.com/bashni/bashni/storage"
	"github.com/bashni/bashni/storage/bolt"
)

// TestMakeGamesToMine writes BASHNI_MINE_GAMES self-play games at
// BASHNI_MINE_LEVEL (8 unless set) into the bbolt file BASHNI_MINE_DB as
// finished games of a person against the AI, logged an hour ago, for
// `bashni puzzles -mine` to be measured on (docs/puzzles.md). Skipped
// unless BASHNI_MINE_DB is set.
func TestMakeGamesToMine(t *testing.T) {
	path := os.Getenv("BASHNI_MINE_DB")
	if path == "" {
		t.Skip("BASHNI_MINE_DB not set")
	}
	n, _ := strconv.Atoi(os.Getenv("BASHNI_MINE_GAMES"))
	level, _ := strconv.Atoi(os.Getenv("BASHNI_MINE_LEVEL"))
	if level < 1 || level > ai.LadderTop {
		level = 8
	}
	past := time.Now().Add(-time.Hour)
	st, err := bolt.Open(path, func() time.Time { return past })
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ctx := context.Background()
	eng := ai.New(ai.Options{HashMB: 4})
	cfg := puzzle.SelfPlay{Nodes: ai.Levels[level-1].Limits.Nodes, RandomPlies: 4, Seed: 41}
	plies := 0
	for i := range n {
		g, err := puzzle.PlayGame(ctx, eng, cfg, i)
		if err != nil {
			t.Fatal(err)
		}
		rg := rules.NewGame(g.Start)
		moves := make([]string, len(g.Moves))
		for j, m := range g.Moves {
			moves[j] = m.String()
			if err := rg.Play(m); err != nil {
				t.Fatal(err)
			}
		}
		plies += len(moves)
		rec := &storage.GameRecord{ID: "m" + strconv.Itoa(i), Variant: "bashni",
			White: storage.Player{UserID: int64(1000 + i), Name: "P" + strconv.Itoa(i)}, Black: storage.Player{Name: "AI", AILevel: level},
			Start: g.Start.String(), Position: rg.Position().String(), Moves: moves, Status: storage.GameActive}
		if err := st.CreateGame(ctx, rec); err != nil {
			t.Fatal(err)
		}
		rec.Status, rec.Result, rec.Reason = storage.GameFinished, rules.Draw.String(), "agreed"
		if res, reason := rg.Result(); rg.Over() {
			rec.Result, rec.Reason = res.String(), reason.String()
		}
		if err := st.UpdateGame(ctx, rec); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("%d games at level %d, %d plies", n, level, plies)
}
