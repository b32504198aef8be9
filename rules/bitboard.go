package rules

import "math/bits"

// Bit masks over the 32 squares. With squares numbered by rank then file,
// a diagonal step adds or subtracts 3, 4 or 5 depending on the parity of
// the rank, so a whole set of towers steps at once with two shifts.
const (
	evenRanks uint32 = 0x0F0F0F0F // ranks 1, 3, 5, 7 (files a, c, e, g)
	oddRanks  uint32 = 0xF0F0F0F0 // ranks 2, 4, 6, 8 (files b, d, f, h)
	fileA     uint32 = 0x01010101 // a1, a3, a5, a7
	fileH     uint32 = 0x80808080 // h2, h4, h6, h8
)

// step moves every square of b one step in direction d; squares that would
// leave the board drop out.
func step(b uint32, d int) uint32 {
	switch d {
	case NorthEast:
		return (b&evenRanks)<<4 | (b&oddRanks&^fileH)<<5
	case NorthWest:
		return (b&evenRanks&^fileA)<<3 | (b&oddRanks)<<4
	case SouthEast:
		return (b&evenRanks)>>4 | (b&oddRanks&^fileH)>>3
	default: // SouthWest
		return (b&evenRanks&^fileA)>>5 | (b&oddRanks)>>4
	}
}

// opposite[d] is the direction back along d.
var opposite = [4]int{SouthWest, SouthEast, NorthWest, NorthEast}

// manCapturers returns the men of side that can make at least one jump.
func (p *Position) manCapturers() uint32 {
	side := p.side
	men := p.tops[side] &^ p.kings
	if men == 0 {
		return 0
	}
	enemy := p.tops[side.Opponent()]
	empty := ^p.Occupied()
	var can uint32
	for d := 0; d < 4; d++ {
		back := opposite[d]
		// A man can jump along d if its neighbour is an enemy tower and the
		// square beyond is empty.
		can |= men & step(enemy&step(empty, back), back)
	}
	return can
}

// kingCapturers returns the kings of side that can make at least one jump.
func (p *Position) kingCapturers() uint32 {
	side := p.side
	kings := p.tops[side] & p.kings
	if kings == 0 {
		return 0
	}
	enemy := p.tops[side.Opponent()]
	occ := p.Occupied()
	var can uint32
	for k := kings; k != 0; k &= k - 1 {
		s := Square(bits.TrailingZeros32(k))
		if kingCanCapture(s, enemy, occ&^(1<<s), 0) {
			can |= 1 << s
		}
	}
	return can
}
