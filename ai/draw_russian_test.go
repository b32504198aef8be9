package ai

import (
	"testing"

	"github.com/bashni/bashni/rules"
)

// kingsAndAMan is White to move with three kings and a man against a
// trapped black king (on h8 it can only step along the long diagonal,
// into the a1 king's capture): won for White.
const kingsAndAMan = "w:a1W,c1W,e1W,c3w,h8B"

// With 29 plies counted, a man's move starts Russian draughts' count
// again, so White still wins; in Bashni every quiet move completes the 30th
// ply and draws.
func TestRussianCountStartsAgainAtAMansMove(t *testing.T) {
	for _, tc := range []struct {
		v   rules.Variant
		won bool
	}{
		{rules.Bashni, false},
		{rules.BashniMP, false},
		{rules.Russian, true},
	} {
		p := rules.MustParsePosition(kingsAndAMan).WithVariant(tc.v)
		if res := search(t, Request{Position: p}); res.Score < MateScore-MaxPly {
			t.Fatalf("%s: %s scores %d with nothing counted; the test needs it won", tc.v, kingsAndAMan, res.Score)
		}
		res := search(t, Request{Position: p, QuietPlies: rules.FifteenMovePlies - 1})
		if won := res.Score > 0; won != tc.won || !won && res.Score != 0 {
			t.Errorf("%s: with 29 plies counted %s scores %d (%s), want won %v", tc.v, kingsAndAMan, res.Score, res.Move, tc.won)
		}
		if tc.won && p.KingTopped()&(1<<res.Move.From()) != 0 {
			t.Errorf("%s: played the king's move %s, which completes the count; want the man's move", tc.v, res.Move)
		}
	}
}

// Three kings against a lone king that would be taken in two more moves:
// drawn under Russian draughts' rules when the kings' next move is their
// 15th, and under the 15-move rule only a ply later.
func TestRussianLoneKingRuleInSearch(t *testing.T) {
	p := rules.MustParsePosition("w:a1W,c1W,e1W,h8B").WithVariant(rules.Russian)
	for _, tc := range []struct {
		quiet int
		won   bool
	}{
		{0, true},
		{2*rules.LoneKingMoves - 3, true}, // the kings take it on their 15th move
		{2*rules.LoneKingMoves - 2, false},
	} {
		res := search(t, Request{Position: p, QuietPlies: tc.quiet})
		if won := res.Score > 0; won != tc.won || !won && res.Score != 0 {
			t.Errorf("%d plies counted: score %d (%s), want won %v", tc.quiet, res.Score, res.Move, tc.won)
		}
	}
}

// The top level is the engine at full strength: bounded by time alone, one
// level above the ladder's node budgets, which stay as measured.
func TestTopLevelSearchesByTimeOnly(t *testing.T) {
	if len(Levels) != LadderTop+1 {
		t.Fatalf("%d levels, want the ladder's %d and one above", len(Levels), LadderTop)
	}
	for _, lv := range Levels[:LadderTop] {
		if lv.Limits.Nodes == 0 || lv.Noise != 0 {
			t.Errorf("level %d: %+v, want a node budget without noise", lv.Number, lv)
		}
	}
	top := Levels[LadderTop]
	if top.Number != LadderTop+1 || top.Limits.Nodes != 0 || top.Limits.Depth != 0 || top.Limits.MoveTime <= 0 || top.Noise != 0 {
		t.Errorf("top level %+v, want a time limit alone", top)
	}
	// Level 0 means full strength: the top level's limits.
	if lim, _, err := resolve(Request{}); err != nil || lim != top.Limits {
		t.Errorf("resolve(level 0) = %+v, %v; want %+v", lim, err, top.Limits)
	}
}
