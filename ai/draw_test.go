package ai

import (
	"context"
	"testing"

	"github.com/bashni/bashni/rules"
)

// lostKing is White to move with one king against three black kings and
// two men: lost in a few moves (h2-g1 c7-h2 g1-f2 a7:g1 leaves White no
// move), unless a draw rule saves it.
const lostKing = "w:h2W,b8B,c7B,a7B,e7b,g7b"

func search(t *testing.T, req Request) Result {
	t.Helper()
	if req.Limits == (Limits{}) {
		req.Limits = Limits{Depth: 6}
	}
	res, err := New(Options{HashMB: 2}).Search(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func TestFifteenMoveRuleSavesTheLosingSide(t *testing.T) {
	p := rules.MustParsePosition(lostKing)
	if res := search(t, Request{Position: p}); res.Score > -100 {
		t.Fatalf("%s scores %d; the test needs it lost", lostKing, res.Score)
	}
	// 29 quiet plies so far: any quiet move completes 30 and draws.
	if res := search(t, Request{Position: p, QuietPlies: 29}); res.Score != 0 {
		t.Errorf("with 29 quiet plies the score is %d, want 0 (a draw)", res.Score)
	}
}

func TestRepetitionIsClaimedWhenLosing(t *testing.T) {
	p := rules.MustParsePosition(lostKing)
	back, err := rules.ParsePosition("b:g1W,b8B,c7B,a7B,e7b,g7b")
	if err != nil {
		t.Fatal(err)
	}
	// The position after h2-g1 has occurred twice: playing it again draws.
	other := rules.MustParsePosition("w:g1W,b8B,c7B,a7B,e7b,f6b")
	history := []uint64{back.Hash(), other.Hash(), back.Hash(), other.Hash()}
	res := search(t, Request{Position: p, History: history})
	if res.Move.String() != "h2-g1" || res.Score != 0 {
		t.Errorf("played %s scoring %d, want h2-g1 claiming the draw (0)", res.Move, res.Score)
	}
	// The history may end with the current position, as rules.Game gives it.
	res = search(t, Request{Position: p, History: append(history, p.Hash())})
	if res.Move.String() != "h2-g1" || res.Score != 0 {
		t.Errorf("with the current position in the history: %s scoring %d, want h2-g1 (0)", res.Move, res.Score)
	}
}

func TestRepetitionIsAvoidedWhenWinning(t *testing.T) {
	// Black to move wins; whatever it would play, once the position after
	// that move has occurred twice it must choose another, still winning.
	p := rules.MustParsePosition("b:g1W,b8B,c7B,a7B,e7b,g7b")
	first := search(t, Request{Position: p})
	if first.Score < 100 {
		t.Fatalf("%s scores %d for Black; the test needs it winning", p, first.Score)
	}
	after := p.Play(first.Move)
	res := search(t, Request{Position: p, History: []uint64{after.Hash(), 1, after.Hash(), 2}})
	if res.Move == first.Move || res.Score < 100 {
		t.Errorf("with %s repeating, played %s scoring %d; want another winning move", first.Move, res.Move, res.Score)
	}
}
