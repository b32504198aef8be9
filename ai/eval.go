package ai

import (
	"math/bits"

	"github.com/bashni/bashni/rules"
)

// slotLow has bit 0 of each of a Tower's 24 two-bit piece slots: the colour
// bit (set for Black); the bit above it is the king flag.
const slotLow = 0x5555_5555_5555

// evaluator holds the weights unpacked into per-square tables.
type evaluator struct {
	w        Weights
	manSq    [2][rules.NumSquares]int32 // a man-topped tower of a colour on a square
	kingSq   [2][rules.NumSquares]int32
	tallRank [2][rules.NumSquares]int32 // per further own piece under a man top
}

func newEvaluator(w Weights) *evaluator {
	e := &evaluator{w: w}
	for s := rules.Square(0); s < rules.NumSquares; s++ {
		man := w.Man + w.Advance[s.Rank()] + w.ManSquare[s]
		if s.Rank() == 0 {
			man += w.BackRank[s.File()/2]
		}
		switch s.String() {
		case "c5", "d4", "e5", "f4":
			man += w.Center
		}
		king := w.King
		if s.File() == s.Rank() {
			king += w.KingDiagonal
		}
		tall := 0
		if s.Rank() >= 3 {
			tall = w.TallAdvance * (s.Rank() - 2)
		}
		// Black sees the board turned half a circle: square 31-s.
		for c, sq := range [2]rules.Square{s, rules.NumSquares - 1 - s} {
			e.manSq[c][sq] = int32(man)
			e.kingSq[c][sq] = int32(king)
			e.tallRank[c][sq] = int32(tall)
		}
	}
	return e
}

// towerShape splits a tower into its owner's block (k pieces, ownKings of
// them kings) and the prisoners below (h-k pieces, prisKings kings).
func towerShape(t rules.Tower) (h, k, ownKings, prisKings int) {
	h = t.Height()
	valid := uint64(1)<<(2*uint(h)) - 1
	x := uint64(t)
	black := x & slotLow & valid
	kings := (x >> 1) & slotLow & valid
	other := black // pieces not of the owner's colour
	if x&1 != 0 {
		other = ^x & slotLow & valid
	}
	k = h
	if other != 0 {
		k = bits.TrailingZeros64(other) / 2
	}
	block := uint64(1)<<(2*uint(k)) - 1
	ownKings = bits.OnesCount64(kings & block)
	prisKings = bits.OnesCount64(kings &^ block)
	return
}

// Square sets by row parity: the squares are numbered four to a rank, so
// a diagonal step is a shift by 3, 4 or 5 depending on the rank's parity,
// except off the a and h files.
const (
	evenRanks = 0x0F0F0F0F // ranks 1, 3, 5, 7
	oddRanks  = 0xF0F0F0F0
	fileA     = 0x01010101 // a1, a3, a5, a7
	fileH     = 0x80808080 // h2, h4, h6, h8
)

// forward returns the squares one diagonal step ahead of the given
// squares for colour c, towards the h file and towards the a file. Each
// target has one source per direction, so a popcount counts pairs.
func forward(c rules.Color, from uint32) (right, left uint32) {
	if c == rules.White {
		right = (from&evenRanks)<<4 | (from&oddRanks&^fileH)<<5
		left = (from&evenRanks&^fileA)<<3 | (from&oddRanks)<<4
	} else {
		right = (from&evenRanks)>>4 | (from&oddRanks&^fileH)>>3
		left = (from&evenRanks&^fileA)>>5 | (from&oddRanks)>>4
	}
	return right, left
}

// manMoves counts the steps of colour c's men on the given squares to
// empty squares.
func manMoves(c rules.Color, men, empty uint32) int {
	right, left := forward(c, men)
	return bits.OnesCount32(right&empty) + bits.OnesCount32(left&empty)
}

// supported counts the (supporter, man) pairs of colour c: an own tower
// diagonally behind an own man-topped tower.
func supported(c rules.Color, own, men uint32) int {
	right, left := forward(c, own)
	return bits.OnesCount32(right&men) + bits.OnesCount32(left&men)
}

// evaluate scores p for the side to move. It also returns how many quiet
// moves the side to move has, so quiescence can tell a blocked side (which
// has lost) from a quiet position.
func (e *evaluator) evaluate(p *rules.Position) (score int, mobility int) {
	w := &e.w
	var total [2]int32
	var manMob, kingMob [2]int // quiet moves of men-topped and king-topped towers
	occ := p.Occupied()
	empty := ^occ
	for rest := occ; rest != 0; rest &= rest - 1 {
		s := rules.Square(bits.TrailingZeros32(rest))
		t := p.Tower(s)
		c := t.Owner()
		var h, k, ownKings, prisKings int
		if t.Height() == 1 {
			h, k = 1, 1
			if t.Top().IsKing() {
				ownKings = 1
			}
		} else {
			h, k, ownKings, prisKings = towerShape(t)
		}
		v := int32(0)
		if t.Top().IsKing() {
			v += e.kingSq[c][s]
			ownKings--
			for d := 0; d < 4; d++ {
				for _, r := range rays[s][d] {
					if empty&(1<<r) == 0 {
						break
					}
					kingMob[c]++
				}
			}
		} else {
			v += e.manSq[c][s] + e.tallRank[c][s]*int32(k-1)
		}
		v += int32(w.ReserveKing*ownKings + w.ReserveMan*(k-1-ownKings))
		total[c] += v
		if h > k {
			g := k - 1
			if g > 2 {
				g = 2
			}
			total[c^1] += int32(w.PrisonerKing[g]*prisKings + w.PrisonerMan[g]*(h-k-prisKings))
		}
	}
	men := occ &^ p.KingTopped()
	for c := rules.White; c <= rules.Black; c++ {
		own := p.Owned(c)
		manMob[c] = manMoves(c, own&men, empty)
		if w.Edge != 0 || w.Support != 0 {
			total[c] += int32(w.Edge*bits.OnesCount32(own&men&(fileA|fileH)) + w.Support*supported(c, own, own&men))
		}
	}
	side := p.SideToMove()
	if w.Trade != 0 {
		mine, theirs := bits.OnesCount32(p.Owned(side)), bits.OnesCount32(p.Owned(side^1))
		if n := mine + theirs; n > 0 {
			total[side] += int32(w.Trade * (mine - theirs) / n)
		}
	}
	score = int(total[side]-total[side^1]) + w.Tempo +
		w.ManMobility*(manMob[side]-manMob[side^1]) +
		w.KingMobility*(kingMob[side]-kingMob[side^1])
	return score, manMob[side] + kingMob[side]
}
