package miniapp

import (
	"encoding/json"
	"errors"
	"net/http"
	"strings"

	"github.com/bashni/bashni/play"
	"github.com/bashni/bashni/play/manners"
)

// Conditional moves on the board (issue 42): in a game at days per move
// between people, while the opponent is to move, the player plays the
// replies they expect and their answers on the board, and the page sends
// the line here. It is left through play/manners' SetLine, with the same
// checks as a line typed after /if, so a line refused changes nothing.

// lineRequest is the body of a line: the moves by pairs (expected,
// answer), or none to drop the line.
type lineRequest struct {
	Moves []string `json:"moves"`
}

// decodeLine reads a line request: one small JSON object with at most
// manners.MaxPairs pairs of short moves.
func decodeLine(body []byte) ([]string, error) {
	var req lineRequest
	dec := json.NewDecoder(strings.NewReader(string(body)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&req); err != nil || dec.More() || len(req.Moves) > 2*manners.MaxPairs {
		return nil, errBadRequest
	}
	for _, m := range req.Moves {
		if m == "" || len(m) > maxMoveText {
			return nil, errBadRequest
		}
	}
	return req.Moves, nil
}

// handleLine leaves the viewer's line in the game (an empty line drops
// it) and answers the game as the viewer now sees it, line included.
func (s *Server) handleLine(w http.ResponseWriter, r *http.Request, v viewer) {
	body, err := readBody(w, r)
	var moves []string
	if err == nil {
		moves, err = decodeLine(body)
	}
	if err != nil {
		s.fail(w, v, err)
		return
	}
	ctx, id := r.Context(), r.PathValue("id")
	var g *play.Game
	if len(moves) == 0 {
		g, err = s.opts.Manners.ClearLine(ctx, id, v.user.ID)
	} else {
		// The same form check as /if's: whole pairs, not too many.
		if moves, err = manners.ParseLine(strings.Join(moves, " ")); err == nil {
			var line *manners.Line
			if line, err = s.opts.Manners.SetLine(ctx, id, v.user.ID, moves); err == nil {
				g = line.Game
			}
		}
	}
	if err != nil {
		s.refuseLine(w, r, v, err)
		return
	}
	writeJSON(w, http.StatusOK, s.state(g, v))
}

// refuseLine answers a line refused; a move of it that cannot be played
// is named, as /if names it.
func (s *Server) refuseLine(w http.ResponseWriter, r *http.Request, v viewer, err error) {
	var le *manners.LineError
	if !errors.As(err, &le) {
		s.failWithState(w, r, v, err)
		return
	}
	msg := s.texts.T(v.lang, "if_bad_move", "N", le.Index+1, "Move", le.Move, "Reason", s.texts.Error(v.lang, le.Err, false))
	writeJSON(w, statusOf(err), errorBody{Error: msg})
}

// lineOf is what the board shows of the viewer's conditional moves in g:
// whether they may leave a line now, and the line they left.
func (s *Server) lineOf(g *play.Game, v viewer) (may bool, line []string) {
	if s.opts.Manners == nil {
		return false, nil
	}
	return manners.MaySetLine(g, v.user.ID) == nil, manners.LineOf(g, v.user.ID)
}

// lineBoard is the board after a line being entered: the page has no
// rules of its own, so it asks for the position and the legal moves.
type lineBoard struct {
	Position string `json:"position"`
	Last     *move  `json:"last,omitempty"`
	Legal    []move `json:"legal"`
}

// handleLineTry answers the board after the moves of a line being
// entered, checked as SetLine checks them (any number, even an unpaired
// last move); nothing is stored.
func (s *Server) handleLineTry(w http.ResponseWriter, r *http.Request, v viewer) {
	body, err := readBody(w, r)
	var moves []string
	if err == nil {
		moves, err = decodeLine(body)
	}
	if err != nil {
		s.fail(w, v, err)
		return
	}
	g, err := s.svc.Game(r.Context(), r.PathValue("id"))
	if err == nil {
		moves, err = manners.CheckLine(g, v.user.ID, moves)
	}
	if err != nil {
		s.refuseLine(w, r, v, err)
		return
	}
	rg := g.Rules().Clone()
	out := lineBoard{Legal: []move{}}
	for _, text := range moves {
		m, err := rg.PlayText(text) // checked above: never refused
		if err != nil {
			s.fail(w, v, err)
			return
		}
		mv := moveOf(m)
		out.Last = &mv
	}
	out.Position = rg.Position().String()
	if !rg.Over() {
		for _, m := range rg.Legal() {
			out.Legal = append(out.Legal, moveOf(m))
		}
	}
	writeJSON(w, http.StatusOK, out)
}
