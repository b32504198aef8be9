package manners

import (
	"context"
	"strings"
	"unicode"

	"github.com/bashni/bashni/play"
)

// MaxPairs bounds a line of conditional moves: deep enough for a forced
// line of captures, short enough to read back on one screen.
const MaxPairs = 10

// maxMoveText bounds one move's text in a line (the longest capture of a
// king around the board is well under it).
const maxMoveText = 40

// ParseLine reads a line of conditional moves as typed after /if: moves
// in notation without spaces, separated by spaces or commas, by pairs
// (the opponent's move expected, the answer). It checks the form only;
// SetLine checks the moves on the board.
func ParseLine(text string) ([]string, error) {
	moves := strings.FieldsFunc(text, func(r rune) bool { return unicode.IsSpace(r) || r == ',' || r == ';' })
	if len(moves) == 0 || len(moves)%2 != 0 {
		return nil, ErrBadLine
	}
	if len(moves) > 2*MaxPairs {
		return nil, ErrLineTooLong
	}
	for _, m := range moves {
		if len(m) > maxMoveText {
			return nil, ErrBadLine
		}
	}
	return moves, nil
}

// Line is a player's line of conditional moves in a game, for showing.
type Line struct {
	Game  *play.Game
	Moves []string // by pairs: expected, answer
}

// SetLine leaves userID's line of conditional moves, parsed by ParseLine,
// in game id, in place of any line they left before: it must be their
// opponent's move, and every move of the line legal in turn from the
// board as it is (a *LineError names the first that is not). The moves
// are stored as the rules write them, so that the opponent's move is
// matched whatever way either typed it.
func (s *Service) SetLine(ctx context.Context, id string, userID int64, moves []string) (*Line, error) {
	var line []string
	g, err := s.core.ChangeGame(ctx, id, func(g *play.Game) error {
		var err error
		if line, err = CheckLine(g, userID, moves); err != nil {
			return err
		}
		st, err := load(g)
		if err != nil {
			return err
		}
		st.By, st.Line = userID, line
		return save(g, st)
	})
	if err != nil {
		return nil, err
	}
	return &Line{Game: g, Moves: line}, nil
}

// CheckLine is moves as the rules write them, if userID may leave them as
// a line in g as it is (SetLine checks it again on the game as stored).
func CheckLine(g *play.Game, userID int64, moves []string) ([]string, error) {
	if err := MaySetLine(g, userID); err != nil {
		return nil, err
	}
	r := g.Rules().Clone()
	line := make([]string, 0, len(moves))
	for i, text := range moves {
		m, err := r.PlayText(text)
		if err != nil {
			return nil, &LineError{Index: i, Move: text, Err: err}
		}
		line = append(line, m.String())
		if i < len(moves)-1 && r.Over() {
			return nil, &LineError{Index: i + 1, Move: moves[i+1], Err: play.ErrGameOver}
		}
	}
	return line, nil
}

// MaySetLine checks that userID may leave a line in g now.
func MaySetLine(g *play.Game, userID int64) error {
	if !g.Active() {
		return play.ErrGameOver
	}
	if !isPlayer(g, userID) {
		return play.ErrNotAPlayer
	}
	if !betweenPeople(g) {
		return ErrNotBetweenPeople
	}
	if !slow(g) {
		return ErrNotSlow
	}
	if _, p := g.ToMove(); p.UserID == userID {
		return ErrYourMove
	}
	return nil
}

// ClearLine drops userID's line in game id, if they left one.
func (s *Service) ClearLine(ctx context.Context, id string, userID int64) (*play.Game, error) {
	return s.core.ChangeGame(ctx, id, func(g *play.Game) error {
		st, err := load(g)
		if err != nil {
			return err
		}
		if st.By != userID || len(st.Line) == 0 {
			return play.Unchanged
		}
		st.By, st.Line = 0, nil
		return save(g, st)
	})
}

// LineOf is userID's line in g (nil: none).
func LineOf(g *play.Game, userID int64) []string {
	st, err := load(g)
	if err != nil || st.By != userID {
		return nil
	}
	return st.Line
}

// Answer is the core's MoveHook (play.Service.AfterMove): when the move
// just played in g is the one a line expected, its answer is played at
// once for the line's owner, in the move's own write, with the rules'
// checks of any move; any other move discards the line. A move also
// declines a takeback asked for, and a board moved on is no longer the
// one an earlier answer made.
func (s *Service) Answer(g *play.Game, o *play.Outcome) error {
	st, err := load(g)
	if err != nil || st.empty() {
		return nil // a part unreadable is no reason to refuse the move
	}
	st.TakebackBy, st.TakebackAt = 0, 0
	st.Answered, st.AnsweredBy, st.AnsweredAt = nil, 0, 0
	if len(st.Line) >= 2 && g.Active() && slow(g) && o.Move.String() == st.Line[0] {
		if _, p := g.ToMove(); p.UserID == st.By {
			s.playAnswer(g, o, &st)
			return save(g, st)
		}
	}
	st.By, st.Line = 0, nil
	return save(g, st)
}

// playAnswer plays the answer of the line's first pair in g, for its
// owner, and keeps the rest of the line; an answer the rules refuse
// (checked when the line was left, so never in practice) drops the line
// and leaves the move as it was.
func (s *Service) playAnswer(g *play.Game, o *play.Outcome, st *state) {
	answered, err := s.core.PlayFor(g, st.Line[1])
	if err != nil {
		st.By, st.Line = 0, nil
		return
	}
	o.Move = answered.Move
	st.Answered, st.AnsweredBy, st.AnsweredAt = st.Line[:2:2], st.By, g.Ply()
	st.Line = st.Line[2:]
	if len(st.Line) == 0 || !g.Active() {
		st.By, st.Line = 0, nil
	}
}

// Answered is the pair of a line played on g's board as it is (expected,
// answer) and who left the line; ok false when the last move was no
// line's answer.
func Answered(g *play.Game) (by int64, expected, answer string, ok bool) {
	st, err := load(g)
	if err != nil || len(st.Answered) != 2 || st.AnsweredAt != g.Ply() {
		return 0, "", "", false
	}
	return st.AnsweredBy, st.Answered[0], st.Answered[1], true
}
