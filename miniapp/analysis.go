package miniapp

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/bashni/bashni/ai"
	"github.com/bashni/bashni/play"
	"github.com/bashni/bashni/play/review"
)

// analysis is a finished game reviewed by the engine, as the page steps
// through it: everything the board needs at each ply comes ready, so the
// page replays nothing.
type analysis struct {
	ID     string `json:"id"`
	Result string `json:"result"` // "1-0", "0-1" or "1/2-1/2"
	Status string `json:"status"` // the result as the viewer reads it
	// Positions are the start and the position after each move, in the
	// position format of docs/rules.md: len(Moves)+1 of them.
	Positions []string `json:"positions"`
	// Scores are the engine's score of each position, in hundredths of a
	// man from White's point of view, within ±Cap (a forced win is ±Cap).
	Scores   []int          `json:"scores"`
	Moves    []reviewedMove `json:"moves"`
	Mistakes []mistake      `json:"mistakes"` // the players' biggest, worst first
	Cap      int            `json:"cap"`
}

// reviewedMove is one move of the game and the engine's word on it.
type reviewedMove struct {
	Ply    int    `json:"ply"`    // played in Positions[Ply], giving Positions[Ply+1]
	Number string `json:"number"` // "5." for White's fifth move, "5…" for Black's
	Mover  string `json:"mover"`  // "w" or "b"
	Move   move   `json:"move"`
	Before int    `json:"before"` // Scores[Ply]
	After  int    `json:"after"`  // Scores[Ply+1]
	Loss   int    `json:"loss"`   // for the mover, hundredths of a man; 0 for the best move
	// Best is the engine's choice, given for a mistake (a loss of at least
	// review.MistakeThreshold): the page draws it as an arrow.
	Best *move `json:"best,omitempty"`
	// Text is the move as the page writes it under the board, with the
	// loss and the better move for a mistake.
	Text string `json:"text"`
}

// mistake is one of the biggest mistakes: where, and the line that says it.
type mistake struct {
	Ply  int    `json:"ply"`
	Text string `json:"text"`
}

// pending is the answer while the analysis is under way.
type pending struct {
	Pending bool   `json:"pending"`
	Text    string `json:"text"`
	Place   int    `json:"place,omitempty"` // in the review queue, 1 for next or under way
}

// pendingOf is the 202 answer for a review at place in the queue (0: not
// known).
func (s *Server) pendingOf(lang string, place int) pending {
	if place > 1 {
		return pending{Pending: true, Text: s.texts.T(lang, "app_analysis_queued", "Place", place), Place: place}
	}
	return pending{Pending: true, Text: s.texts.T(lang, "app_analysing"), Place: place}
}

// analysisOf lays a out for the page, in lang.
func (s *Server) analysisOf(a *review.Analysis, lang string) analysis {
	g := a.Game
	rv := a.Review
	start := g.Rules().StartPosition()
	out := analysis{ID: g.ID(), Result: g.Result(), Scores: rv.Scores, Cap: ai.ReviewCap,
		Positions: make([]string, 0, len(rv.Moves)+1), Moves: make([]reviewedMove, 0, len(rv.Moves)), Mistakes: []mistake{}}
	out.Status, _ = s.texts.Result(lang, g)
	p := start
	out.Positions = append(out.Positions, p.String())
	texts := make([]string, len(rv.Moves))
	for i, m := range rv.Moves {
		p = p.Play(m.Move)
		out.Positions = append(out.Positions, p.String())
		rm := reviewedMove{Ply: m.Ply, Number: m.Number(start), Mover: colorCode(m.Mover), Move: moveOf(m.Move),
			Before: rv.Scores[i], After: rv.Scores[i+1], Loss: m.Loss}
		rm.Text = rm.Number + " " + m.Move.String()
		if m.Loss >= review.MistakeThreshold && m.Best.Len() > 0 && m.Best != m.Move {
			best := moveOf(m.Best)
			rm.Best = &best
			rm.Text = s.texts.T(lang, "analysis_line", "Number", rm.Number, "Move", m.Move.String(),
				"Loss", fmt.Sprintf("%.1f", float64(m.Loss)/100), "Best", m.Best.String())
		}
		texts[i] = rm.Text
		out.Moves = append(out.Moves, rm)
	}
	for _, m := range a.Mistakes {
		out.Mistakes = append(out.Mistakes, mistake{Ply: m.Ply, Text: texts[m.Ply]})
	}
	return out
}

// handleAnalysis answers with the game's analysis if one was made (200),
// says one is under way here (202), or that there is none yet (204). It
// never starts one: the page asks on opening a finished game.
func (s *Server) handleAnalysis(w http.ResponseWriter, r *http.Request, v viewer) {
	reviews := s.opts.Reviews
	if reviews == nil { // no engine reviews here: there is none, as ever
		w.Header().Set("Cache-Control", "no-store")
		w.WriteHeader(http.StatusNoContent)
		return
	}
	a, running, err := reviews.Analysed(r.Context(), r.PathValue("id"))
	switch {
	case err != nil:
		s.fail(w, v, err)
	case a != nil:
		writeJSON(w, http.StatusOK, s.analysisOf(a, v.lang))
	case running:
		place, _ := reviews.Place(r.Context(), r.PathValue("id"))
		writeJSON(w, http.StatusAccepted, s.pendingOf(v.lang, place))
	default:
		w.Header().Set("Cache-Control", "no-store")
		w.WriteHeader(http.StatusNoContent)
	}
}

// handleAnalyse starts the game's analysis, or joins the one under way,
// and waits for it up to Options.AnalysisWait: 200 with the analysis, or
// 202 when it is still running, and the page asks again. A review takes
// up to about half a minute; the wait keeps each request well within what
// proxies in front of the server allow, and the review goes on between
// requests (play keeps it).
func (s *Server) handleAnalyse(w http.ResponseWriter, r *http.Request, v viewer) {
	reviews := s.opts.Reviews
	if reviews == nil {
		s.fail(w, v, review.ErrNoAnalysis)
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), s.opts.AnalysisWait)
	defer cancel()
	a, err := reviews.Analyse(ctx, r.PathValue("id"), v.user.ID)
	var queued *review.QueuedError
	switch {
	case err == nil:
		writeJSON(w, http.StatusOK, s.analysisOf(a, v.lang))
	case errors.Is(err, context.DeadlineExceeded) && ctx.Err() != nil && r.Context().Err() == nil:
		place := 0
		if errors.As(err, &queued) {
			place = queued.Place
		}
		writeJSON(w, http.StatusAccepted, s.pendingOf(v.lang, place))
	default:
		if !play.KindOf(err).Refusal() && r.Context().Err() == nil {
			s.log.Warn("miniapp: analysis failed", "game", r.PathValue("id"), "err", err)
		}
		s.fail(w, v, err)
	}
}
