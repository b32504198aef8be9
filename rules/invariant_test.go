package rules

import (
	"math/rand/v2"
	"testing"
)

// checkInvariants verifies what must hold in every position reached in play.
func checkInvariants(t *testing.T, p Position, pieces [2]int, ctx string) {
	t.Helper()
	for s := Square(0); s < NumSquares; s++ {
		tw := p.Tower(s)
		if tw.Bands() > 2 {
			t.Fatalf("%s: tower %s on %s has three colour bands", ctx, tw, s)
		}
		if !tw.Empty() {
			top := tw.Top()
			if !top.IsKing() && s.Rank() == promotionRank[top.Color()] {
				t.Fatalf("%s: uncrowned man on top at %s", ctx, s)
			}
		}
	}
	if p.Variant() != Russian {
		for _, c := range []Color{White, Black} {
			if n, _ := p.Count(c); n != pieces[c] {
				t.Fatalf("%s: %s has %d pieces, want %d (towers conserve pieces)", ctx, c, n, pieces[c])
			}
		}
	}
	if p.Hash() != p.computeHash() {
		t.Fatalf("%s: incremental hash %x, from scratch %x", ctx, p.Hash(), p.computeHash())
	}
	back, err := ParsePosition(p.String())
	if err != nil {
		t.Fatalf("%s: the position's own text does not parse: %v", ctx, err)
	}
	if back.WithVariant(p.Variant()) != p {
		t.Fatalf("%s: text round trip changed the position", ctx)
	}
	for _, m := range p.Legal() {
		checkMoveGeometry(t, &p, m, ctx)
		if got, err := ParseMove(&p, m.String()); err != nil || got != m {
			t.Fatalf("%s: ParseMove(%s) = %v, %v", ctx, m, got, err)
		}
	}
}

// checkMoveGeometry referees a move leg by leg, independently of the
// generator: each leg runs along one diagonal over exactly one enemy tower,
// men jump adjacent towers only. In Bashni and Russian draughts a jumped
// tower stays and is never crossed or jumped again; in the other school its
// top piece goes at once, and the rest may be jumped again, though not by
// the very next leg.
func checkMoveGeometry(t *testing.T, p *Position, m Move, ctx string) {
	t.Helper()
	mover := p.Tower(m.From())
	if mover.Empty() || mover.Owner() != p.SideToMove() {
		t.Fatalf("%s: %s starts from a square the side to move does not own", ctx, m)
	}
	if !m.IsCapture() {
		return
	}
	atOnce := p.Variant() == BashniMP
	board := p.towers
	board[m.From()] = 0
	king := mover.Top().IsKing()
	jumped := map[Square]bool{}
	cur := m.From()
	prev := Square(NumSquares)
	for i := 0; i < m.Len(); i++ {
		to, over := m.Landing(i), m.Jumped(i)
		df, dr := to.File()-cur.File(), to.Rank()-cur.Rank()
		if df == 0 || (df != dr && df != -dr) {
			t.Fatalf("%s: %s leg %d is not diagonal", ctx, m, i)
		}
		sf, sr := sign(df), sign(dr)
		if !king && (df != 2*sf || dr != 2*sr) {
			t.Fatalf("%s: %s leg %d: a man jumps only an adjacent tower", ctx, m, i)
		}
		enemies := 0
		for f, r := cur.File()+sf, cur.Rank()+sr; f != to.File(); f, r = f+sf, r+sr {
			s, _ := SquareAt(f, r)
			if jumped[s] {
				t.Fatalf("%s: %s crosses the jumped tower on %s", ctx, m, s)
			}
			tw := board[s]
			if tw.Empty() {
				continue
			}
			if tw.Owner() == p.SideToMove() || s != over {
				t.Fatalf("%s: %s leg %d crosses %s", ctx, m, i, s)
			}
			enemies++
		}
		if enemies != 1 {
			t.Fatalf("%s: %s leg %d jumps %d towers", ctx, m, i, enemies)
		}
		if !board[to].Empty() || jumped[to] {
			t.Fatalf("%s: %s lands on an occupied square %s", ctx, m, to)
		}
		if over == prev {
			t.Fatalf("%s: %s jumps %s twice in a row", ctx, m, over)
		}
		if atOnce {
			_, board[over] = board[over].popTop()
		} else {
			jumped[over] = true
		}
		prev = over
		if s := to; promotionMask[p.SideToMove()]&(1<<s) != 0 {
			king = true
		}
		cur = to
	}
}

func sign(x int) int {
	if x < 0 {
		return -1
	}
	return 1
}

// Random games from the start: every position reached keeps the
// invariants, and the game ends by a rule of docs/rules.md.
func TestRandomGamesKeepInvariants(t *testing.T) {
	games := 200
	if testing.Short() {
		games = 40
	}
	for _, v := range Variants {
		rng := rand.New(rand.NewPCG(1, uint64(v)))
		for i := 0; i < games; i++ {
			g := NewGame(Start(v))
			pieces := [2]int{12, 12}
			for ply := 0; !g.Over() && ply < 300; ply++ {
				legal := g.Legal()
				m := legal[rng.IntN(len(legal))]
				if err := g.Play(m); err != nil {
					t.Fatalf("%v game %d ply %d: %v", v, i, ply, err)
				}
				checkInvariants(t, g.Position(), pieces, g.Record())
			}
		}
	}
}

// computeHash recomputes the hash from scratch, to check the incremental
// one.
func (p *Position) computeHash() uint64 {
	var h uint64
	for s := Square(0); s < NumSquares; s++ {
		h ^= towerHash(s, p.towers[s])
	}
	if p.side == Black {
		h ^= zobristBlack
	}
	return h ^ zobristVariant[p.variant]
}
