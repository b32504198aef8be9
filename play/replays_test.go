package play

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/bashni/bashni/rules"
	"github.com/bashni/bashni/storage"
)

// randomMoves plays n random legal plies (fewer if the game ends) from
// the start of v and returns them as stored.
func randomMoves(t *testing.T, rng *rand.Rand, v rules.Variant, n int) []string {
	t.Helper()
	g := rules.NewGame(rules.Start(v))
	var moves []string
	for range n {
		legal := g.Legal()
		if g.Over() || len(legal) == 0 {
			break
		}
		m := legal[rng.IntN(len(legal))]
		if err := g.Play(m); err != nil {
			t.Fatal(err)
		}
		moves = append(moves, m.String())
	}
	return moves
}

// The kept states give the very rules state a replay from the start
// gives, whatever order a game's records are read in: growing one ply at
// a time, jumping ahead, shrinking (a takeback), or a record of another
// variant under the same id.
func TestReplaysEqualAFullReplay(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	r := newReplays()
	for _, v := range []rules.Variant{rules.Bashni, rules.Russian} {
		moves := randomMoves(t, rng, v, 80)
		plies := []int{0, 1, 2, 3, 10, 11, 9, 9, 40, len(moves), 5, len(moves)}
		for _, n := range plies {
			n = min(n, len(moves)) // a random game may end early
			rec := &storage.GameRecord{ID: "g1", Variant: v.String(), Start: rules.Start(v).String(), Moves: moves[:n]}
			got, err := r.load(rec)
			if err != nil {
				t.Fatalf("%v, %d plies: %v", v, n, err)
			}
			want, err := (*replays)(nil).load(rec)
			if err != nil {
				t.Fatal(err)
			}
			if got.rules.Record() != want.rules.Record() || got.rules.Position() != want.rules.Position() {
				t.Fatalf("%v, %d plies: got %q at %v, want %q at %v", v, n, got.rules.Record(), got.rules.Position(), want.rules.Record(), want.rules.Position())
			}
			gr, gw := got.rules.Result()
			wr, ww := want.rules.Result()
			if gr != wr || gw != ww || len(got.rules.History()) != len(want.rules.History()) {
				t.Fatalf("%v, %d plies: result %v (%v), want %v (%v)", v, n, gr, gw, wr, ww)
			}
		}
	}
}

// A game handed out is the caller's: playing on it, or ending it, leaves
// what the next read rebuilds unchanged.
func TestReplaysKeepNoCallersGame(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	moves := randomMoves(t, rng, rules.Bashni, 20)
	r := newReplays()
	rec := &storage.GameRecord{ID: "g1", Variant: rules.Bashni.String(), Start: rules.StartText, Moves: moves}
	first, err := r.load(rec)
	if err != nil {
		t.Fatal(err)
	}
	if err := first.rules.Resign(rules.White); err != nil {
		t.Fatal(err)
	}
	again, err := r.load(rec)
	if err != nil {
		t.Fatal(err)
	}
	if again.rules.Over() || again.rules.Ply() != len(moves) {
		t.Fatalf("read again after the first copy resigned: over %v at ply %d, want ongoing at %d", again.rules.Over(), again.rules.Ply(), len(moves))
	}
}

// A move that does not play after a kept prefix is refused with its ply,
// as a replay from the start refuses it.
func TestReplaysRefuseABadMoveAfterAKeptPrefix(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	moves := randomMoves(t, rng, rules.Bashni, 6)
	r := newReplays()
	rec := &storage.GameRecord{ID: "g1", Variant: rules.Bashni.String(), Start: rules.StartText, Moves: moves}
	if _, err := r.load(rec); err != nil {
		t.Fatal(err)
	}
	rec.Moves = append(moves[:6:6], "a1-h8")
	_, err := r.load(rec)
	if err == nil || !strings.Contains(err.Error(), "move 7 (a1-h8)") {
		t.Fatalf("a bad 7th move: got %v, want an error naming move 7 (a1-h8)", err)
	}
}

// BenchmarkLoadLongGame reads a game of 80 plies, a ply longer each time:
// what the handler, the card and the AI each do after a move.
func BenchmarkLoadLongGame(b *testing.B) {
	rng := rand.New(rand.NewPCG(9, 9))
	g := rules.NewGame(rules.Start(rules.Bashni))
	var moves []string
	for len(moves) < 80 && !g.Over() {
		legal := g.Legal()
		m := legal[rng.IntN(len(legal))]
		_ = g.Play(m)
		moves = append(moves, m.String())
	}
	for _, c := range []struct {
		name string
		r    *replays
	}{{"from the start", nil}, {"kept", newReplays()}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			n := len(moves) - 1
			for b.Loop() {
				n = n%len(moves) + 1
				rec := &storage.GameRecord{ID: "g1", Variant: rules.Bashni.String(), Start: rules.StartText, Moves: moves[:n]}
				if _, err := c.r.load(rec); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
