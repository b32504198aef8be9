package rules

import "math/bits"

// DrawRules say which of the board's drawing rules a variant has besides
// threefold repetition, which every variant has (docs/rules.md, End of
// game). Bashni's zero value is its own rule, kept exactly as it was.
type DrawRules struct {
	// KingMovesOnly: the 15-move rule counts the plies in which only kings
	// moved, without capture, and any man's move starts the count again
	// (Russian draughts). Without it the rule counts the plies without
	// capture or crowning, that is with the pieces' number and composition
	// unchanged, whatever moved (Bashni).
	KingMovesOnly bool
	// LoneKing: three or more kings against a lone king are drawn when the
	// kings have not taken it by their LoneKingMoves-th move from when that
	// balance arose (Russian draughts).
	LoneKing bool
}

// DrawRules returns the variant's drawing rules.
func (v Variant) DrawRules() DrawRules {
	if v == Russian {
		return DrawRules{KingMovesOnly: true, LoneKing: true}
	}
	return DrawRules{}
}

// LoneKingMoves is how many moves three or more kings get to take a lone
// king (DrawRules.LoneKing).
const LoneKingMoves = 15

// ResetsQuiet reports whether m, played in p, starts the 15-move count
// (Game.QuietPlies) again under p's variant: a capture always; then a
// man's move where only kings' moves count (Russian draughts), else a
// crowning (Bashni).
func (p *Position) ResetsQuiet(m Move) bool {
	if m.capture {
		return true
	}
	if p.variant.DrawRules().KingMovesOnly {
		return p.kings&(1<<m.From()) == 0
	}
	return p.Crowns(m)
}

// LoneKing reports whether p is three or more kings against a lone king,
// and which side has the kings. The stronger side has kings only: a man of
// its own would make the balance one a man's move can still change.
func (p *Position) LoneKing() (strong Color, ok bool) {
	for _, c := range [2]Color{White, Black} {
		weak := p.tops[c.Opponent()]
		if weak&(weak-1) != 0 || weak&p.kings != weak || weak == 0 {
			continue
		}
		own := p.tops[c]
		if own&p.kings == own && bits.OnesCount32(own) >= 3 {
			return c, true
		}
	}
	return 0, false
}

// DrawnBy returns the counting rule that draws p, after quiet plies that
// count towards the 15-move rule (Game.QuietPlies), or NoReason. It does
// not look for repetitions or for a side without moves, which loses first.
//
// Under Russian draughts' rules quiet is also the lone king's count: with
// kings alone on the board every move is a king's, and the balance of three
// kings against one arose by a capture or a crowning, either of which
// started the count, so the stronger side's moves since are the plies it
// played of the last quiet ones.
func (p *Position) DrawnBy(quiet int) Reason {
	if quiet < 2*LoneKingMoves-1 {
		return NoReason
	}
	if p.variant.DrawRules().LoneKing {
		if strong, ok := p.LoneKing(); ok {
			played := quiet / 2 // the stronger side's plies of the last quiet
			if quiet%2 == 1 && p.side != strong {
				played++ // it played the last ply, and every other one before
			}
			if played >= LoneKingMoves {
				return LoneKingRule
			}
		}
	}
	if quiet >= FifteenMovePlies {
		return FifteenMoveRule
	}
	return NoReason
}
