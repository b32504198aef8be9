package rules

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// quietLine finds n plies from p in which no capture is ever possible and
// no position comes twice, each ply's move accepted by allow(ply, p, m):
// a line that only a counting rule can end. It searches depth first, so
// the line is the same every run.
func quietLine(t *testing.T, p Position, n int, allow func(ply int, p *Position, m Move) bool) []Move {
	t.Helper()
	seen := map[Position]bool{p: true}
	var line []Move
	var walk func(p Position) bool
	walk = func(p Position) bool {
		if len(line) == n {
			return true
		}
		for _, m := range p.Legal() {
			if m.IsCapture() || !allow(len(line), &p, m) {
				continue
			}
			q := p.Play(m)
			if seen[q] || q.HasCapture() || len(q.Legal()) == 0 {
				continue
			}
			seen[q], line = true, append(line, m)
			if walk(q) {
				return true
			}
			seen[q], line = false, line[:len(line)-1]
		}
		return false
	}
	if !walk(p) {
		t.Fatalf("no quiet line of %d plies from %s (%s)", n, p, p.Variant())
	}
	return line
}

// kingsOnly allows king moves alone.
func kingsOnly(_ int, p *Position, m Move) bool { return p.KingTopped()&(1<<m.From()) != 0 }

// playUntil plays line on a new game from p until the game ends and
// returns the game.
func playUntil(t *testing.T, p Position, line []Move) *Game {
	t.Helper()
	g := NewGame(p)
	for _, m := range line {
		if g.Over() {
			break
		}
		if err := g.Play(m); err != nil {
			t.Fatalf("ply %d %s: %v", g.Ply()+1, m, err)
		}
	}
	return g
}

// kingsAndMen has kings for both sides and a man each that stays put.
const kingsAndMen = "w:a1W,c1W,h2w,h8B,f8B,a7b"

func TestDrawRulesPerVariant(t *testing.T) {
	for _, tc := range []struct {
		v    Variant
		want DrawRules
	}{
		{Bashni, DrawRules{}},
		{BashniMP, DrawRules{}},
		{Russian, DrawRules{KingMovesOnly: true, LoneKing: true}},
	} {
		if got := tc.v.DrawRules(); got != tc.want {
			t.Errorf("%s: DrawRules() = %+v, want %+v", tc.v, got, tc.want)
		}
	}
}

// Fifteen moves by each side with only kings moving draw under both rules.
func TestRussianFifteenKingMoves(t *testing.T) {
	for _, v := range Variants {
		start := MustParsePosition(kingsAndMen).WithVariant(v)
		g := playUntil(t, start, quietLine(t, start, FifteenMovePlies+2, kingsOnly))
		if r, why := g.Result(); r != Draw || why != FifteenMoveRule || g.Ply() != FifteenMovePlies {
			t.Errorf("%s: got %v (%v) after %d plies, want a draw by the 15-move rule after %d", v, r, why, g.Ply(), FifteenMovePlies)
		}
	}
}

// A man's move that neither captures nor crowns starts Russian draughts'
// count again and not Bashni's: the same line is drawn at ply 30 in Bashni
// and goes on in Russian draughts until 30 king plies after the man moved.
func TestManMoveStartsRussianCountOnly(t *testing.T) {
	const manAt = 20 // White's 11th move
	manThenKings := func(ply int, p *Position, m Move) bool {
		return kingsOnly(ply, p, m) == (ply != manAt)
	}
	for _, tc := range []struct {
		v       Variant
		endsAt  int
		quietAt int // QuietPlies after ply 30
	}{
		{Bashni, FifteenMovePlies, FifteenMovePlies},
		{BashniMP, FifteenMovePlies, FifteenMovePlies},
		{Russian, manAt + 1 + FifteenMovePlies, FifteenMovePlies - manAt - 1},
	} {
		start := MustParsePosition(kingsAndMen).WithVariant(tc.v)
		line := quietLine(t, start, manAt+1+FifteenMovePlies+2, manThenKings)
		g := playUntil(t, start, line[:FifteenMovePlies])
		if q := g.QuietPlies(); q != tc.quietAt {
			t.Errorf("%s: after %d plies QuietPlies() = %d, want %d", tc.v, FifteenMovePlies, q, tc.quietAt)
		}
		g = playUntil(t, start, line)
		if r, why := g.Result(); r != Draw || why != FifteenMoveRule || g.Ply() != tc.endsAt {
			t.Errorf("%s: got %v (%v) after %d plies, want a draw by the 15-move rule after %d", tc.v, r, why, g.Ply(), tc.endsAt)
		}
	}
}

// Three kings against a lone king: in Russian draughts drawn when the kings
// have not taken it by their 15th move, which with the kings to move first
// is ply 29, a ply before the 15-move rule, which is all Bashni has; with
// the lone king moving first both come at ply 30, and the lone king's rule
// is the one named.
func TestRussianLoneKingRule(t *testing.T) {
	for _, tc := range []struct {
		text   string
		v      Variant
		endsAt int
		why    Reason
	}{
		{"w:c1W,e1W,g1W,b8B", Russian, 2*LoneKingMoves - 1, LoneKingRule},
		{"w:c1W,e1W,g1W,b8B", Bashni, FifteenMovePlies, FifteenMoveRule},
		{"w:c1W,e1W,g1W,b8B", BashniMP, FifteenMovePlies, FifteenMoveRule},
		{"b:c1W,e1W,g1W,b8B", Russian, FifteenMovePlies, LoneKingRule},
		{"w:a1W,c1W,e1W,g1W,b8B", Russian, 2*LoneKingMoves - 1, LoneKingRule},
		{"b:b8B,d8B,f8B,a1W", Russian, 2*LoneKingMoves - 1, LoneKingRule},
		// Two kings are not three; a man beside the kings is not kings alone.
		{"w:c1W,e1W,b8B", Russian, FifteenMovePlies, FifteenMoveRule},
		{"w:c1W,e1W,g1W,a3w,b8B", Russian, FifteenMovePlies, FifteenMoveRule},
	} {
		start := MustParsePosition(tc.text).WithVariant(tc.v)
		g := playUntil(t, start, quietLine(t, start, FifteenMovePlies+2, kingsOnly))
		if r, why := g.Result(); r != Draw || why != tc.why || g.Ply() != tc.endsAt {
			t.Errorf("%s %s: got %v (%v) after %d plies, want a draw (%v) after %d", tc.v, tc.text, r, why, g.Ply(), tc.why, tc.endsAt)
		}
	}
}

// Threefold repetition ends Russian draughts as it ends Bashni, long
// before any count.
func TestRussianThreefoldRepetition(t *testing.T) {
	g := NewGame(MustParsePosition("w:c1W,e1W,g1W,b8B").WithVariant(Russian))
	for i := 0; i < 2 && !g.Over(); i++ {
		for _, m := range []string{"c1-d2", "b8-a7", "d2-c1", "a7-b8"} {
			if _, err := g.PlayText(m); err != nil {
				t.Fatal(err)
			}
		}
	}
	if r, why := g.Result(); r != Draw || why != ThreefoldRepetition || g.Ply() != 8 {
		t.Errorf("got %v (%v) after %d plies, want a draw by repetition after 8", r, why, g.Ply())
	}
}

// A game ended by the lone king's rule is written as a draw in PDN, with
// the rule as its termination, and reads back drawn by the same rule.
func TestPDNLoneKingDraw(t *testing.T) {
	start := MustParsePosition("w:c1W,e1W,g1W,b8B").WithVariant(Russian)
	g := playUntil(t, start, quietLine(t, start, FifteenMovePlies, kingsOnly))
	_, why := g.Result()
	text := (&PDN{Game: g, Tags: map[string]string{"Termination": why.String()}}).String()
	if !strings.Contains(text, `[Result "1/2-1/2"]`) {
		t.Fatalf("PDN of a lone-king draw has no drawn result:\n%s", text)
	}
	back, err := ParsePDN(text)
	if err != nil {
		t.Fatalf("ParsePDN: %v\n%s", err, text)
	}
	if r, why := back.Game.Result(); r != Draw || why != LoneKingRule {
		t.Errorf("read back: %v (%v), want a draw by the lone king's rule", r, why)
	}
}

// referee judges a game's end by the rules as docs/rules.md words them,
// independently of Game: its own count, its own repetitions, its own
// reading of three kings against one.
type referee struct {
	v      Variant
	count  int            // plies that count towards the 15-move rule
	movers []Color        // who played each of those plies
	seen   map[uint64]int // positions since the count started
}

// play notes m, played in p, and returns the reason the position after
// it ends the game, or NoReason.
func (r *referee) play(p Position, m Move) Reason {
	mover := p.SideToMove()
	_, kingsBefore := p.Count(mover)
	q := p.Play(m)
	_, kingsAfter := q.Count(mover)
	reset := m.IsCapture()
	if r.v == Russian {
		reset = reset || !p.Tower(m.From()).Top().IsKing()
	} else {
		reset = reset || kingsAfter > kingsBefore
	}
	if reset {
		r.count, r.movers, r.seen = 0, r.movers[:0], map[uint64]int{}
	} else {
		r.count++
		r.movers = append(r.movers, mover)
	}
	r.seen[q.Hash()]++
	switch {
	case len(q.Legal()) == 0:
		return NoLegalMoves
	case r.v == Russian && r.loneKingDrawn(&q):
		return LoneKingRule
	case r.count >= 30:
		return FifteenMoveRule
	case r.seen[q.Hash()] >= 3:
		return ThreefoldRepetition
	}
	return NoReason
}

// loneKingDrawn: one side has a single piece, a king; the other kings only,
// at least three, and has made 15 moves since the count started.
func (r *referee) loneKingDrawn(q *Position) bool {
	for _, strong := range []Color{White, Black} {
		n, k := q.Count(strong)
		wn, wk := q.Count(strong.Opponent())
		if n != k || k < 3 || wn != 1 || wk != 1 {
			continue
		}
		moves := 0
		for _, c := range r.movers {
			if c == strong {
				moves++
			}
		}
		return moves >= 15
	}
	return false
}

// kingBiased picks a random legal move; nine times in ten a king's move
// that leaves nothing to capture, when there is one, so random games reach
// the endings the counting rules are for rather than ending by captures.
func kingBiased(rng *rand.Rand, p *Position) Move {
	legal := p.Legal()
	var safe []Move
	for _, m := range legal {
		if q := p.Play(m); p.KingTopped()&(1<<m.From()) != 0 && !q.HasCapture() {
			safe = append(safe, m)
		}
	}
	if len(safe) > 0 && rng.IntN(10) > 0 {
		return safe[rng.IntN(len(safe))]
	}
	return legal[rng.IntN(len(legal))]
}

// randomEnding is a random sparse position under v: one to four kings and
// up to two men a side, where the counting rules come into play.
func randomEnding(rng *rand.Rand, v Variant) Position {
	squares := rng.Perm(NumSquares)
	var parts []string
	for _, c := range []Color{White, Black} {
		kings, men := 1+rng.IntN(4), rng.IntN(3)
		letter := map[Color]string{White: "w", Black: "b"}[c]
		for ; kings > 0; kings-- {
			parts = append(parts, Square(squares[0]).String()+strings.ToUpper(letter))
			squares = squares[1:]
		}
		for ; men > 0; squares = squares[1:] {
			if s := Square(squares[0]); s.Rank() != promotionRank[c] {
				parts = append(parts, s.String()+letter)
				men--
			}
		}
	}
	side := []string{"w", "b"}[rng.IntN(2)]
	return MustParsePosition(side + ":" + strings.Join(parts, ",")).WithVariant(v)
}

// Random games end exactly when, and for the reason, the referee says,
// under each variant's own rules.
func TestRandomGamesEndByTheirVariantsRule(t *testing.T) {
	// 400 games take about a second, and fewer (60 under -short did) may
	// not reach the lone king's rule, which the check below asks for.
	const games = 400
	for _, v := range Variants {
		t.Run(v.String(), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(7, uint64(v)))
			ends := map[Reason]int{}
			for n := 0; n < games; n++ {
				start := Start(v)
				if n%2 == 1 {
					start = randomEnding(rng, v)
				}
				g := NewGame(start)
				r := &referee{v: v, seen: map[uint64]int{start.Hash(): 1}}
				for !g.Over() {
					p := g.Position()
					m := kingBiased(rng, &p)
					want := r.play(p, m)
					if err := g.Play(m); err != nil {
						t.Fatalf("game %d ply %d: %v", n, g.Ply(), err)
					}
					if _, got := g.Result(); got != want {
						t.Fatalf("game %d after %d plies (%s): game says %q, referee %q\n%s", n, g.Ply(), g.Position(), got, want, g.Record())
					}
				}
				_, why := g.Result()
				ends[why]++
			}
			t.Logf("%s: %d random games end by %v", v, games, ends)
			if v == Russian && (ends[FifteenMoveRule] == 0 || ends[LoneKingRule] == 0) {
				t.Errorf("no random Russian game ended by the 15-move rule or by three kings against one: the test does not reach them")
			}
		})
	}
}
