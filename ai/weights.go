package ai

import "github.com/bashni/bashni/rules"

// Weights are the evaluation's terms, in hundredths of a man. They live in
// one struct so that tuning touches one place; WeightsFor says which set
// the engine plays a variant with.
//
// Squares in the tables are seen from White's side (a1 is White's left back
// corner); Black uses the same tables turned half a circle, so c1 for White
// is f8 for Black.
type Weights struct {
	// Man and King value the top piece of a tower its owner moves.
	Man, King int
	// ReserveMan and ReserveKing value each further piece of the owner's
	// block under the top: a life the tower keeps when its top is taken.
	ReserveMan, ReserveKing int
	// PrisonerMan and PrisonerKing value, for their owner, pieces held under
	// an enemy block of 1, 2 or 3+ pieces: taking that many tops frees them
	// all at once, so a thin guard over many prisoners is a liability.
	PrisonerMan, PrisonerKing [3]int
	// Advance rewards a man-topped tower by its rank counted from its own
	// back rank (index 0 is the back rank).
	Advance [8]int
	// TallAdvance rewards, per rank advanced from rank 3 on, each further
	// own piece of a man-topped tower: a tall tower that crowns is a tall
	// king.
	TallAdvance int
	// BackRank rewards a man-topped tower left on its own back rank, by file
	// a, c, e, g (seen from White): it keeps enemy men from crowning.
	BackRank [4]int
	// Center rewards a man-topped tower on c5, d4, e5 or f4.
	Center int
	// KingDiagonal rewards a king-topped tower on the long diagonal a1–h8.
	KingDiagonal int
	// ManMobility and KingMobility reward each quiet move a side has.
	ManMobility, KingMobility int
	// Tempo is the side to move's bonus.
	Tempo int
	// Edge rewards a man-topped tower on the a or h file: it cannot be
	// jumped from the side, but it guards and threatens one diagonal only.
	Edge int
	// Support rewards each own tower standing diagonally behind an own
	// man-topped tower: a man backed that way cannot be jumped from the
	// front along that diagonal.
	Support int
	// ManSquare adds, square by square (a1 = 0, numbered as rules.Square
	// numbers them), to a man-topped tower's worth on top of the terms
	// above, which share one value across a rank or a file: it lets the
	// tuner see the shape of a formation, such as a man on c3 being worth
	// more than one on a3.
	ManSquare [rules.NumSquares]int
	// Trade rewards the side with more towers, divided by how many towers
	// stand on the board: one tower up counts for more as the board
	// empties, so the side ahead is drawn to exchanges.
	Trade int
}

// DefaultWeights is the evaluation the levels play with, fitted by bashni
// tune (Texel tuning, internal/tune) to 108,000 quiet positions from 6,000
// self-play games at 20,000 nodes a move, starting from the earlier fit
// (two rounds at 5,000 nodes). The per-square man table and the Trade term
// were new to this fit. The held-out loss fell from 0.1281 to 0.1261; the
// fit beat the earlier weights 159-16-125 (55.7%, +40 ± 39 Elo) over 300
// games at 30,000 nodes a move and 157-28-115 (57.0%, +49 ± 38) at 60,000.
// Some values read oddly (a king on the long diagonal costs, a man at
// home is worth more than one on the fifth rank); they are what the games
// say, and a match, not taste, overrules them.
var DefaultWeights = Weights{
	Man:          100,
	King:         352,
	ReserveMan:   121,
	ReserveKing:  323,
	PrisonerMan:  [3]int{35, 6, -2},
	PrisonerKing: [3]int{117, 95, -87},
	Advance:      [8]int{31, -4, -18, -5, -18, 40, 41, 0},
	TallAdvance:  -2,
	BackRank:     [4]int{-43, -38, -7, -23},
	Center:       8,
	KingDiagonal: -61,
	ManMobility:  9,
	KingMobility: 9,
	Tempo:        82,
	Edge:         2,
	Support:      8,
	ManSquare: [rules.NumSquares]int{
		-7, -8, 0, 2, // rank 1
		-65, -54, -32, -37, // rank 2
		-44, -41, -37, -45, // rank 3
		-69, -47, -9, -11, // rank 4
		-41, -74, -58, -15, // rank 5
		-47, -11, -21, -26, // rank 6
		-114, 58, -13, -27, // rank 7
		0, 0, 0, 0, // rank 8
	},
	Trade: 481,
}

// WeightsFor returns the weights the engine evaluates variant v's
// positions with: RussianWeights for Russian draughts, DefaultWeights for
// both schools of Bashni.
func WeightsFor(v rules.Variant) Weights {
	if v == rules.Russian {
		return RussianWeights
	}
	return DefaultWeights
}

// variantEvaluators holds one evaluator per variant, shared read-only by
// an Engine and its helpers.
type variantEvaluators [rules.BashniMP + 1]*evaluator

// newVariantEvaluators unpacks each variant's weights, or w for every
// variant when it is not nil.
func newVariantEvaluators(w *Weights) *variantEvaluators {
	var evs variantEvaluators
	for _, v := range rules.Variants {
		if w != nil {
			evs[v] = newEvaluator(*w)
		} else {
			evs[v] = newEvaluator(WeightsFor(v))
		}
	}
	return &evs
}

// of returns variant v's evaluator (Bashni's for a value out of range).
func (evs *variantEvaluators) of(v rules.Variant) *evaluator {
	if int(v) >= len(evs) {
		return evs[rules.Bashni]
	}
	return evs[v]
}

// Evaluator scores positions statically with one set of weights, without
// search: what the tuner (internal/tune) fits to game results. It is cheap
// to make, unlike an Engine, which allocates its transposition table.
type Evaluator struct{ ev *evaluator }

// NewEvaluator unpacks w into the evaluation's per-square tables.
func NewEvaluator(w Weights) Evaluator { return Evaluator{newEvaluator(w)} }

// Evaluate returns the static score of p for its side to move.
func (e Evaluator) Evaluate(p *rules.Position) int {
	s, _ := e.ev.evaluate(p)
	return s
}

// RussianWeights is the evaluation of Russian draughts positions (captured
// pieces leave the board, so the tower terms never count), fitted by
// bashni tune from DefaultWeights to 54,000 quiet positions of 5,000
// Russian self-play games at 5,000 nodes a move, each from the start
// position and six random plies (docs/engine.md, Russian draughts). The
// held-out loss fell from 0.1109 to 0.0695. Under Russian rules the fit
// beat DefaultWeights 138-106-56 (63.7%, +97 ± 32 Elo) over 300 games at
// 20,000 nodes a move and 109-126-65 (57.3%, +51 ± 30) at 60,000.
//
// Men are worth more here than in Bashni, where a man taken still counts
// under the capturer's tower: ManSquare adds about 120 on most squares,
// so a man counts about 240 to 290 and a king (506) about two men. Trade
// came out negative: it takes back part of a lead in men as the board
// empties, because thin endgames (kings against a king on the long
// diagonal) are often drawn in Russian draughts; the search still finds
// the won ones. The tower terms keep DefaultWeights' values, which no
// Russian position reads.
var RussianWeights = Weights{
	Man:          100,
	King:         506,
	ReserveMan:   121,
	ReserveKing:  323,
	PrisonerMan:  [3]int{35, 6, -2},
	PrisonerKing: [3]int{117, 95, -87},
	Advance:      [8]int{51, 20, 18, 19, 14, 68, 141, 0},
	TallAdvance:  -2,
	BackRank:     [4]int{73, 135, 142, 140},
	Center:       18,
	KingDiagonal: 83,
	ManMobility:  45,
	KingMobility: -11,
	Tempo:        -3,
	Edge:         36,
	Support:      39,
	ManSquare: [rules.NumSquares]int{
		31, -4, -20, -2, // rank 1
		125, 142, 149, 142, // rank 2
		138, 123, 138, 94, // rank 3
		108, 106, 107, 117, // rank 4
		128, 104, 60, 129, // rank 5
		72, 65, 137, 111, // rank 6
		62, 115, 118, 144, // rank 7
		0, 0, 0, 0, // rank 8
	},
	Trade: -1120,
}
