package ai

import "github.com/bashni/bashni/rules"

// Weights are the evaluation's terms, in hundredths of a man. They live in
// one struct so that tuning touches one place; DefaultWeights is what the
// levels play with.
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
}

// DefaultWeights is the evaluation the levels play with.
var DefaultWeights = Weights{
	Man:          100,
	King:         300,
	ReserveMan:   110,
	ReserveKing:  180,
	PrisonerMan:  [3]int{30, 12, 5},
	PrisonerKing: [3]int{90, 35, 15},
	Advance:      [8]int{0, 0, 3, 7, 12, 20, 35, 0},
	TallAdvance:  3,
	BackRank:     [4]int{4, 12, 12, 6},
	Center:       6,
	KingDiagonal: 15,
	ManMobility:  2,
	KingMobility: 2,
	Tempo:        5,
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
