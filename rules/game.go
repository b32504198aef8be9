package rules

import (
	"fmt"
	"slices"
	"strings"
)

// Result is the outcome of a game.
type Result uint8

const (
	Ongoing Result = iota
	WhiteWins
	BlackWins
	Draw
	// NoResult is a game ended before it was a game (Abort): nobody won,
	// nobody drew, and it counts nowhere.
	NoResult
)

// String returns the result as in a game record: "*", "1-0", "0-1",
// "1/2-1/2"; an aborted game is "*" as in PDN, which uses it for a game
// abandoned as for one going on.
func (r Result) String() string {
	switch r {
	case WhiteWins:
		return "1-0"
	case BlackWins:
		return "0-1"
	case Draw:
		return "1/2-1/2"
	}
	return "*"
}

// Winner returns the winning colour; ok is false for a draw or an ongoing game.
func (r Result) Winner() (c Color, ok bool) {
	switch r {
	case WhiteWins:
		return White, true
	case BlackWins:
		return Black, true
	}
	return 0, false
}

// winFor returns the result in which c wins.
func winFor(c Color) Result {
	if c == White {
		return WhiteWins
	}
	return BlackWins
}

// Reason says why a game ended.
type Reason uint8

const (
	NoReason Reason = iota
	NoLegalMoves
	ThreefoldRepetition
	FifteenMoveRule
	Resignation
	Agreement
	Timeout
	// LoneKingRule: three or more kings did not take a lone king in 15
	// moves (Russian draughts, DrawRules.LoneKing).
	LoneKingRule
	// Aborted: the game ended before both sides had moved.
	Aborted
)

func (r Reason) String() string {
	switch r {
	case NoLegalMoves:
		return "no legal moves"
	case ThreefoldRepetition:
		return "threefold repetition"
	case FifteenMoveRule:
		return "15-move rule"
	case Resignation:
		return "resignation"
	case Agreement:
		return "agreement"
	case Timeout:
		return "time"
	case LoneKingRule:
		return "three kings against one"
	case Aborted:
		return "aborted"
	}
	return ""
}

// FifteenMovePlies is the number of plies in a row that count towards the
// 15-move rule after which the game is drawn: without a capture or a
// crowning in Bashni, with only kings moving and no capture in Russian
// draughts (DrawRules, docs/rules.md, End of game).
const FifteenMovePlies = 30

// Game is a game in progress or finished: a start position, the moves played
// with their positions, and the result. The zero Game is not ready; use
// NewGame.
type Game struct {
	positions []Position // positions[0] is the start; positions[i] follows moves[i-1]
	moves     []Move
	quiet     []int // quiet[i]: plies in a row that count towards the 15-move rule up to positions[i]
	result    Result
	reason    Reason
}

// NewGame starts a game from p (Start(v) for a normal game). A start
// position without legal moves is lost at once for the side to move.
func NewGame(p Position) *Game {
	g := &Game{positions: []Position{p}, quiet: []int{0}}
	g.judge()
	return g
}

// Clone returns an independent copy of the game: playing on one leaves the
// other as it was.
func (g *Game) Clone() *Game {
	c := *g
	c.positions = slices.Clone(g.positions)
	c.moves = slices.Clone(g.moves)
	c.quiet = slices.Clone(g.quiet)
	return &c
}

// Position returns the current position.
func (g *Game) Position() Position { return g.positions[len(g.positions)-1] }

// StartPosition returns the position the game started from.
func (g *Game) StartPosition() Position { return g.positions[0] }

// Moves returns the moves played so far.
func (g *Game) Moves() []Move { return append([]Move(nil), g.moves...) }

// Ply returns the number of moves played.
func (g *Game) Ply() int { return len(g.moves) }

// Result returns the result and why; Ongoing and NoReason while the game goes on.
func (g *Game) Result() (Result, Reason) { return g.result, g.reason }

// Over reports whether the game has ended.
func (g *Game) Over() bool { return g.result != Ongoing }

// Legal returns the legal moves in the current position (none once over).
func (g *Game) Legal() []Move {
	if g.Over() {
		return nil
	}
	p := g.Position()
	return p.Legal()
}

// History returns the hashes of every position so far, oldest first, for
// engines that must see repetitions.
func (g *Game) History() []uint64 {
	h := make([]uint64, len(g.positions))
	for i := range g.positions {
		h[i] = g.positions[i].hash
	}
	return h
}

// QuietPlies returns the plies in a row that count towards the 15-move
// rule under the game's variant (Position.ResetsQuiet): without capture or
// crowning in Bashni, king moves without capture in Russian draughts.
func (g *Game) QuietPlies() int { return g.quiet[len(g.quiet)-1] }

// Play plays m, which must be legal in the current position.
func (g *Game) Play(m Move) error {
	if g.Over() {
		return ErrGameOver
	}
	p := g.Position()
	legal := p.Legal()
	for _, l := range legal {
		if l == m {
			g.push(p, m)
			return nil
		}
	}
	return &MoveError{Input: m.String(), Reason: "not a legal move here", Cause: CauseNotLegalHere, Legal: legal}
}

// PlayText parses a move in notation (see ParseMove) and plays it.
func (g *Game) PlayText(text string) (Move, error) {
	if g.Over() {
		return Move{}, ErrGameOver
	}
	p := g.Position()
	m, err := ParseMove(&p, text)
	if err != nil {
		return Move{}, err
	}
	g.push(p, m)
	return m, nil
}

func (g *Game) push(p Position, m Move) {
	quiet := g.QuietPlies() + 1
	if p.ResetsQuiet(m) {
		quiet = 0
	}
	g.moves = append(g.moves, m)
	g.positions = append(g.positions, p.Play(m))
	g.quiet = append(g.quiet, quiet)
	g.judge()
}

// Undo takes back the last move (and any result it caused). Resignation and
// agreement are undone too if they came after it.
func (g *Game) Undo() error {
	if len(g.moves) == 0 {
		return fmt.Errorf("rules: no move to undo")
	}
	g.moves = g.moves[:len(g.moves)-1]
	g.positions = g.positions[:len(g.positions)-1]
	g.quiet = g.quiet[:len(g.quiet)-1]
	g.result, g.reason = Ongoing, NoReason
	g.judge()
	return nil
}

// Resign ends the game: c loses.
func (g *Game) Resign(c Color) error { return g.end(winFor(c.Opponent()), Resignation) }

// AgreeDraw ends the game drawn by agreement.
func (g *Game) AgreeDraw() error { return g.end(Draw, Agreement) }

// LoseOnTime ends the game: c ran out of time and loses.
func (g *Game) LoseOnTime(c Color) error { return g.end(winFor(c.Opponent()), Timeout) }

// Abort ends the game with no result: for a game one side has not moved
// in, where a resignation or a loss on time would say nothing of anyone.
func (g *Game) Abort() error { return g.end(NoResult, Aborted) }

func (g *Game) end(r Result, why Reason) error {
	if g.Over() {
		return ErrGameOver
	}
	g.result, g.reason = r, why
	return nil
}

// judge applies the board rules of docs/rules.md, End of game, to the current
// position.
func (g *Game) judge() {
	p := g.Position()
	var buf [64]Move
	if len(p.LegalMoves(buf[:0])) == 0 {
		g.result, g.reason = winFor(p.side.Opponent()), NoLegalMoves
		return
	}
	if why := p.DrawnBy(g.QuietPlies()); why != NoReason {
		g.result, g.reason = Draw, why
		return
	}
	// Only positions since the count last started can repeat: what starts
	// it (a capture, a crowning, a man's move) changes the pieces for good.
	seen := 0
	for i := len(g.positions) - 1 - g.QuietPlies(); i < len(g.positions); i++ {
		if g.positions[i] == p {
			seen++
		}
	}
	if seen >= 3 {
		g.result, g.reason = Draw, ThreefoldRepetition
	}
}

// Record returns the moves in numbered notation, e.g.
// "1. c3-b4 b6-c5 2. b4-a5 a7-b6". A game that starts with Black to move
// begins "1... b6-c5". A finished game ends with its result.
func (g *Game) Record() string {
	var b strings.Builder
	side := g.positions[0].side
	num := 1
	for i, m := range g.moves {
		if i > 0 {
			b.WriteByte(' ')
		}
		if side == White {
			fmt.Fprintf(&b, "%d. ", num)
		} else if i == 0 {
			fmt.Fprintf(&b, "%d... ", num)
		}
		b.WriteString(m.String())
		if side == Black {
			num++
		}
		side = side.Opponent()
	}
	if g.Over() {
		if len(g.moves) > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(g.result.String())
	}
	return b.String()
}

// ReplayGame rebuilds a game from its start position and moves in notation,
// as stores keep it. It fails on the first move that is not legal.
func ReplayGame(start Position, moves []string) (*Game, error) {
	g := NewGame(start)
	for i, text := range moves {
		if _, err := g.PlayText(text); err != nil {
			return g, fmt.Errorf("rules: move %d (%s): %w", i+1, text, err)
		}
	}
	return g, nil
}
