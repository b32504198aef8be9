package ai

import (
	"context"
	"math/bits"
	"testing"

	"github.com/bashni/bashni/rules"
)

func TestTowerShapeMatchesBlocks(t *testing.T) {
	for _, p := range randomPositions(t, 300, 17) {
		for s := rules.Square(0); s < rules.NumSquares; s++ {
			tw := p.Tower(s)
			if tw.Empty() {
				continue
			}
			ownMen, ownKings, prisMen, prisKings := blocks(tw)
			h, k, gotOwnKings, gotPrisKings := towerShape(tw)
			if h != tw.Height() || k != ownMen+ownKings || gotOwnKings != ownKings || gotPrisKings != prisKings || h-k != prisMen+prisKings {
				t.Errorf("tower %s: towerShape gives h=%d k=%d kings %d/%d, Blocks %d %d %d %d",
					tw, h, k, gotOwnKings, gotPrisKings, ownMen, ownKings, prisMen, prisKings)
			}
		}
	}
}

// blocks counts the tower's two layers: the owner's block on top and the
// prisoners (opponent's pieces) below it, each split into men and kings:
// the plain reading of a tower that towerShape's bit tricks must match.
func blocks(t rules.Tower) (ownMen, ownKings, prisonerMen, prisonerKings int) {
	if t.Empty() {
		return
	}
	owner := t.Owner()
	for i, h := 0, t.Height(); i < h; i++ {
		p := t.Piece(i)
		switch {
		case p.Color() == owner && p.IsKing():
			ownKings++
		case p.Color() == owner:
			ownMen++
		case p.IsKing():
			prisonerKings++
		default:
			prisonerMen++
		}
	}
	return
}

func TestEvaluationUnderstandsTowers(t *testing.T) {
	e := New(Options{HashMB: 1})
	// Each pair: the first position is better for White (to move) than the
	// second, for the reason given.
	better := []struct{ why, a, b string }{
		{"freed prisoners are worth more than held ones", "w:c3www,e5wb,h8b", "w:c3bwww,e5w,h8b"},
		{"a reserve piece is a life the tower keeps", "w:c3ww,h8b", "w:c3w,h8b"},
		// The same pieces in as many towers, so only the guard differs.
		{"a thick guard keeps prisoners down", "w:c3wwbb,a1w,h8b", "w:c3wbb,a1ww,h8b"},
		{"a king on top beats a man on top", "w:c3Wb,h8b", "w:c3wb,h8b"},
		{"prisoner kings are safer deep", "w:c3wwwB,h8b", "w:c3wB,a3w,e3w,h8b"},
	}
	for _, tc := range better {
		a, b := e.Evaluate(rules.MustParsePosition(tc.a)), e.Evaluate(rules.MustParsePosition(tc.b))
		if a <= b {
			t.Errorf("%s: %s scores %d, not above %s at %d", tc.why, tc.a, a, tc.b, b)
		}
	}
}

// TestACrowningManBeatsOneAtHome: the fitted weights value a man at home
// above one far advanced in a quiet position (such men are often lost),
// but a man free to crown is worth a king, which quiescence sees.
func TestACrowningManBeatsOneAtHome(t *testing.T) {
	e := New(Options{HashMB: 1})
	score := func(pos string) int {
		res, err := e.Search(context.Background(), Request{Position: rules.MustParsePosition(pos), Limits: Limits{Depth: 1}})
		if err != nil {
			t.Fatal(err)
		}
		return res.Score
	}
	if crown, home := score("w:c7w,a1w,h8b"), score("w:c1w,a1w,h8b"); crown <= home {
		t.Errorf("a man about to crown scores %d, one at home %d", crown, home)
	}
}

// TestSupportAndEdgeCountWhatTheySay checks the two pattern terms on
// positions counted by hand, for both colours (Black's "behind" is up the
// board).
func TestSupportAndEdgeCountWhatTheySay(t *testing.T) {
	for _, tc := range []struct {
		pos           string
		c             rules.Color
		support, edge int
	}{
		{"w:c3w,d4w,e3w,h8b", rules.White, 2, 0},     // d4 backed by c3 and e3
		{"w:c3w,d4W,e3w,h8b", rules.White, 0, 0},     // a king needs no backing here
		{"w:a3w,b4w,h2w,g3w,h8b", rules.White, 2, 2}, // b4 by a3, g3 by h2; a3 and h2 on the edge
		{"b:d6b,c7b,e7b,a1w", rules.Black, 2, 0},     // d6 backed by c7 and e7
		{"b:h6b,g7b,a5b,a1w", rules.Black, 1, 2},
	} {
		p := rules.MustParsePosition(tc.pos)
		own := p.Owned(tc.c)
		men := own &^ p.KingTopped()
		if got := supported(tc.c, own, men); got != tc.support {
			t.Errorf("%s: %d supported pairs, want %d", tc.pos, got, tc.support)
		}
		if got := bits.OnesCount32(men & (fileA | fileH)); got != tc.edge {
			t.Errorf("%s: %d men on the edge, want %d", tc.pos, got, tc.edge)
		}
	}
}

// TestTradeGrowsAsTheBoardEmpties: with every other term but the men's
// worth at zero, one tower up earns Trade divided by the towers on the
// board, for the side to move and against it.
func TestTradeGrowsAsTheBoardEmpties(t *testing.T) {
	e := NewEvaluator(Weights{Man: 100, Trade: 480})
	for _, tc := range []struct {
		pos  string
		want int
	}{
		{"w:c3w,e3w,h8b", 100 + 480/3},
		{"b:c3w,e3w,h8b", -100 - 480/3},
		{"w:a1w,c1w,e1w,g1w,c3w,b8b,d8b,f8b,h8b", 100 + 480/9},
		{"w:c3w,h8b", 0},
	} {
		p := rules.MustParsePosition(tc.pos)
		if got := e.Evaluate(&p); got != tc.want {
			t.Errorf("%s scores %d, want %d", tc.pos, got, tc.want)
		}
	}
}
