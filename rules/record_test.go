package rules

import (
	"math/rand/v2"
	"testing"
)

// Every game's record replays to the same game (random games, both sides to
// start).
func TestRecordRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	for i := 0; i < 50; i++ {
		start := Start(Bashni)
		if i%2 == 1 {
			start = MustParsePosition("b:c3w,e3w,g3w,b6b,d6b,f6b")
		}
		g := NewGame(start)
		for !g.Over() && g.Ply() < 120 {
			legal := g.Legal()
			if err := g.Play(legal[rng.IntN(len(legal))]); err != nil {
				t.Fatal(err)
			}
		}
		back, result, ok, err := ParseRecord(start, g.Record())
		if err != nil {
			t.Fatalf("ParseRecord(%q): %v", g.Record(), err)
		}
		if back.Record() != g.Record() || back.Position() != g.Position() {
			t.Fatalf("round trip:\n got  %s\n want %s", back.Record(), g.Record())
		}
		r, _ := g.Result()
		if g.Over() && (!ok || result != r) {
			t.Errorf("result %v (given %v), want %v", result, ok, r)
		}
	}
}

func TestParseRecordForgiving(t *testing.T) {
	g, r, ok, err := ParseRecord(Start(Bashni), "1.c3-d4 {a quiet start} f6-e5! 2. d4:f6 g7:e5?! 1-0")
	if err != nil {
		t.Fatal(err)
	}
	if g.Ply() != 4 || !ok || r != WhiteWins {
		t.Errorf("ply %d, result %v %v", g.Ply(), r, ok)
	}
	if _, _, _, err := ParseRecord(Start(Bashni), "1. c3-d4 c3-d4"); err == nil {
		t.Error("an illegal move in a record was accepted")
	}
}
