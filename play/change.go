package play

import (
	"context"
	"fmt"
	"time"

	"github.com/bashni/bashni/rules"
	"github.com/bashni/bashni/storage"
)

// The seams a feature built on the core uses to run games of its own (a
// chat's game against the AI by vote, play/team): it changes them with
// ChangeGame, plays the move it chose for a side with PlayFor, and hands
// the clock a deadline of its own with AddDeadline. The core keeps the
// game's life (the board, the record, the deadlines, the count of a game
// that ends) and knows nothing of what the feature keeps in its part of
// the record.

// Unchanged, returned by a ChangeGame decide function, writes nothing and
// is no error.
var Unchanged = errUnchanged

// ChangeGame reads game id, lets decide change it, and writes it back with
// a compare-and-set, deciding again from a fresh read when another writer
// won (as every change the core makes; ErrBusy when it lost too often).
// Under a receipt the write stores the event it makes, as a move's. A
// game the change ended is counted (rated, its hooks told) once it is
// stored.
func (s *Service) ChangeGame(ctx context.Context, id string, decide func(g *Game) error) (*Game, error) {
	ended := false
	g, err := s.update(ctx, id, func(g *Game) error {
		was := g.rec.Active()
		err := decide(g)
		ended = err == nil && was && !g.rec.Active()
		return err
	})
	if err == nil && ended {
		s.finished(ctx, g)
	}
	return g, err
}

// Resign is the move a feature chooses (PlayFor) for a side that gives up;
// Abort ends a game no side has moved in yet with no result (abort.go);
// OnTime is the loss of a side whose time, on a clock the feature runs (a
// group's vote with no ballot), ran out: the cards and the ratings say
// "on time", not "resigned", as for any fallen flag.
const (
	Resign = "resign"
	Abort  = "abort"
	OnTime = "on time"
)

// PlayFor plays move (in notation, Resign, Abort or OnTime) for the side to move of g,
// within a ChangeGame decide or a Deadline: a move a feature chose for a
// side no one player moves (a chat's vote). The record and the deadlines
// follow as for any move, and a pending draw offer lapses.
func (s *Service) PlayFor(g *Game, move string) (*Outcome, error) {
	side, _ := g.ToMove()
	if move == OnTime {
		// The rules know no clocks: the loss is written to the record,
		// which syncRecord would overwrite from the rules' game.
		if err := s.loseOnTime(g); err != nil {
			return nil, fmt.Errorf("play: game %s: on time for a side: %w", g.rec.ID, err)
		}
		g.rec.DrawOfferBy = 0
		return &Outcome{Mover: g.Player(side)}, nil
	}
	var m rules.Move
	var err error
	switch move {
	case Resign:
		err = g.rules.Resign(side)
	case Abort:
		err = abortFor(g)
	default:
		m, err = g.rules.PlayText(move)
	}
	if err != nil {
		return nil, fmt.Errorf("play: game %s: the chosen move %s: %w", g.rec.ID, move, err)
	}
	g.rec.DrawOfferBy = 0
	s.syncRecord(g)
	return &Outcome{Move: m, Mover: g.Player(side)}, nil
}

// ResignFor resigns side of g for a feature that runs it (a group that
// left its match), within a ChangeGame decide or a Deadline, whoever is
// to move.
func (s *Service) ResignFor(g *Game, side rules.Color) (*Outcome, error) {
	if err := g.rules.Resign(side); err != nil {
		return nil, fmt.Errorf("play: game %s: resign for a side: %w", g.rec.ID, err)
	}
	g.rec.DrawOfferBy = 0
	s.syncRecord(g)
	return &Outcome{Mover: g.Player(side)}, nil
}

// A Deadline is a feature's own deadline of a live game (a vote whose time
// is up), handled by the clock's Tick within its write of g, before the
// core's deadlines: it returns the move it played (PlayFor), which the
// tick reports as a ClockEvent with Played, or nil when none of its
// deadlines was due. The store's index of due games must know the
// deadline (storage.GameRecord's due time).
type Deadline func(g *Game, now time.Time) (*Outcome, error)

// AddDeadline hands the clock a feature's deadline. Call it at wiring,
// before the first Tick.
func (s *Service) AddDeadline(d Deadline) { s.deadlines = append(s.deadlines, d) }

// featureDeadline is the move the first due Deadline played, nil if none
// was due.
func (s *Service) featureDeadline(g *Game, now time.Time) (*Outcome, error) {
	for _, d := range s.deadlines {
		if o, err := d(g, now); o != nil || err != nil {
			return o, err
		}
	}
	return nil, nil
}

// Team returns the vote of a game a chat plays by vote (play/team's part
// of the record), nil for any other game. It is the record's own: the
// feature changes it only within ChangeGame's decide or its Deadline, and
// copies it to give it out.
func (g *Game) Team() *storage.TeamGame { return g.rec.Team }
