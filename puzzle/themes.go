package puzzle

import "github.com/bashni/bashni/rules"

// A Theme names what a puzzle teaches, as lichess tags its puzzles. Themes
// are read from the solution by the rules alone (ThemesOf), not stored:
// a set written before themes existed, and a puzzle mined later, get
// theirs the same way when they are read.
type Theme string

// The themes, in the order a player is offered them.
const (
	// ThemeOneMove: the solution is one move (its point comes in the
	// line after it).
	ThemeOneMove Theme = "onemove"
	// ThemeQuiet: the first move captures nothing.
	ThemeQuiet Theme = "quiet"
	// ThemeSacrifice: a solver's move gives the opponent a capture, which
	// the opponent's reply takes.
	ThemeSacrifice Theme = "sacrifice"
	// ThemeLiberation: a solver's capture jumps a tower whose next piece
	// down is the solver's own, setting it free.
	ThemeLiberation Theme = "liberation"
	// ThemeKingCapture: a solver's capture is made by a king.
	ThemeKingCapture Theme = "kingcapture"
	// ThemeCrowning: a solver's man is crowned in the middle of a capture
	// and goes on capturing as a king.
	ThemeCrowning Theme = "crowning"
	// ThemeMajority: a solver's capture takes the most pieces of the
	// captures there (two or more) where a smaller one was also allowed:
	// in Bashni the choice is free, so finding the big one is the point.
	ThemeMajority Theme = "majority"
	// ThemeLong: three solver moves or more.
	ThemeLong Theme = "long"
)

// Themes lists every theme, in the order a player is offered them.
var Themes = []Theme{ThemeOneMove, ThemeQuiet, ThemeSacrifice, ThemeLiberation, ThemeKingCapture, ThemeCrowning, ThemeMajority, ThemeLong}

// ParseTheme reads a theme's name as ThemesOf writes it.
func ParseTheme(s string) (Theme, bool) {
	for _, t := range Themes {
		if string(t) == s {
			return t, true
		}
	}
	return "", false
}

// ThemesOf finds p's themes in its solution, in the order of Themes.
func ThemesOf(p *Puzzle) []Theme {
	found := map[Theme]bool{
		ThemeOneMove: len(p.Solution) == 1,
		ThemeLong:    len(p.Solution) >= 5,
	}
	if len(p.Solution) > 0 && !p.Solution[0].IsCapture() {
		found[ThemeQuiet] = true
	}
	pos := p.Position
	for i, m := range p.Solution {
		if i%2 == 0 {
			solverMove(&pos, m, found)
			if i+1 < len(p.Solution) && p.Solution[i+1].IsCapture() {
				found[ThemeSacrifice] = true
			}
		}
		pos = pos.Play(m)
	}
	var out []Theme
	for _, t := range Themes {
		if found[t] {
			out = append(out, t)
		}
	}
	return out
}

// solverMove marks the themes of the solver's move m in pos.
func solverMove(pos *rules.Position, m rules.Move, found map[Theme]bool) {
	if !m.IsCapture() {
		return
	}
	side := pos.SideToMove()
	top := pos.Tower(m.From()).Top()
	if top.IsKing() {
		found[ThemeKingCapture] = true
	} else if crownedMidway(m, side) {
		found[ThemeCrowning] = true
	}
	for _, j := range m.JumpedSquares() {
		if t := pos.Tower(j); t.Height() > 1 && t.Piece(1).Color() == side {
			found[ThemeLiberation] = true
		}
	}
	if m.Len() >= 2 && isMajority(pos, m) {
		found[ThemeMajority] = true
	}
}

// crownedMidway reports whether a man's capture m lands on side's far
// rank before its last jump.
func crownedMidway(m rules.Move, side rules.Color) bool {
	far := 7
	if side == rules.Black {
		far = 0
	}
	for i := 0; i < m.Len()-1; i++ {
		if m.Landing(i).Rank() == far {
			return true
		}
	}
	return false
}

// isMajority reports whether m takes the most pieces of pos's captures
// while another, smaller capture was allowed.
func isMajority(pos *rules.Position, m rules.Move) bool {
	smaller := false
	for _, c := range pos.Legal() {
		switch {
		case c.Len() > m.Len():
			return false
		case c.Len() < m.Len():
			smaller = true
		}
	}
	return smaller
}
