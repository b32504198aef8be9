package bot

import (
	"testing"

	"github.com/bashni/bashni/rules"
)

// Every legal move is reachable in at most three taps, and every button's
// data fits Telegram's 64 bytes.
func TestEveryMoveWithinThreeTaps(t *testing.T) {
	for _, pos := range []string{rules.StartText, "w:c1w,d2bb,d4b,b4b,b2b", "w:a1W,c3b,f6b", "w:b6w,c7b,f6b", "w:a1W,h8B,c1W"} {
		p := rules.MustParsePosition(pos)
		legal := p.Legal()
		reached := map[rules.Move]int{}
		var walk func(picked []rules.Square, taps int)
		walk = func(picked []rules.Square, taps int) {
			res, ok := resolvePick(legal, picked, maxWholeMoves)
			if !ok {
				t.Fatalf("%s: pick %v refused", pos, picked)
			}
			if res.move != nil {
				if _, seen := reached[*res.move]; !seen || taps < reached[*res.move] {
					reached[*res.move] = taps
				}
				return
			}
			if taps >= 3 {
				return
			}
			for _, row := range res.keyboard {
				for _, e := range row {
					if e.label == backLabel {
						continue
					}
					data := Callback{Kind: KindPick, ID: "abcdefghij", Ply: 9999, Arg: encodeSquares(e.pick)}.Encode()
					if len(data) > maxCallbackData {
						t.Errorf("button %q: %d bytes of data", e.label, len(data))
					}
					walk(e.pick, taps+1)
				}
			}
		}
		walk(nil, 0)
		for _, m := range legal {
			if taps, ok := reached[m]; !ok || taps > 3 {
				t.Errorf("%s: %s takes %d taps (reached %v)", pos, m, taps, ok)
			}
		}
	}
}

// A move that can be chosen in one tap is one tap: every move whole when
// there are few, and a tower with one move is that move's button.
func TestOneTapMoves(t *testing.T) {
	oneTap := func(legal []rules.Move) map[string]bool {
		res, ok := resolvePick(legal, nil, maxWholeMoves)
		if !ok {
			t.Fatal("first stage refused")
		}
		out := map[string]bool{}
		for _, row := range res.keyboard {
			for _, e := range row {
				if r, ok := resolvePick(legal, e.pick, maxWholeMoves); ok && r.move != nil {
					out[r.move.String()] = true
				}
			}
		}
		return out
	}
	sp := rules.MustParsePosition(rules.StartText)
	start := sp.Legal()
	if got := oneTap(start); len(got) != len(start) {
		t.Errorf("opening: %d of %d moves in one tap", len(got), len(start))
	}
	// A king with seven moves, a man with two, and a man with one (c3,
	// blocked by b4 on one side).
	p := rules.MustParsePosition("w:h2W,c3w,b4w,e7b")
	legal := p.Legal()
	if len(legal) <= maxWholeMoves {
		t.Fatalf("the position has %d moves; the test needs more than %d", len(legal), maxWholeMoves)
	}
	got := oneTap(legal)
	for _, m := range legal {
		from := 0
		for _, x := range legal {
			if x.From() == m.From() {
				from++
			}
		}
		if (from == 1) != got[m.String()] {
			t.Errorf("%s (its tower has %d moves): one tap %v", m, from, got[m.String()])
		}
	}
}

// In a group every move is one tap while there are at most 16: a second
// stage there spends one of the group's 20 messages a minute and comes
// seconds after the tap.
func TestGroupListsUpToSixteenMovesWhole(t *testing.T) {
	p := rules.MustParsePosition("w:h2W,c3w,b4w,e7b") // ten moves
	legal := p.Legal()
	if len(legal) <= maxWholeMoves || len(legal) > maxWholeMovesGroup {
		t.Fatalf("the position has %d moves; the test needs %d to %d", len(legal), maxWholeMoves+1, maxWholeMovesGroup)
	}
	for _, tc := range []struct {
		chat  int64
		whole bool
	}{{-100123, true}, {0, true}, {42, false}} {
		res, _ := resolvePick(legal, nil, wholeMovesFor(tc.chat))
		n, rows := 0, len(res.keyboard)
		for _, row := range res.keyboard {
			for _, e := range row {
				if r, ok := resolvePick(legal, e.pick, wholeMovesFor(tc.chat)); ok && r.move != nil && len(e.pick) > 1 {
					n++
				}
			}
			if len(row) > 4 {
				t.Errorf("chat %d: a row of %d buttons", tc.chat, len(row))
			}
		}
		if got := n == len(legal); got != tc.whole {
			t.Errorf("chat %d: %d of %d moves whole in %d rows; want all whole %v", tc.chat, n, len(legal), rows, tc.whole)
		}
	}
}
