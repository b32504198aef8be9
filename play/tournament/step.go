package tournament

import (
	"context"
	"errors"
	"reflect"
	"slices"

	"github.com/bashni/bashni/play"
	"github.com/bashni/bashni/storage"
)

// maxAttempts bounds the compare-and-set rounds of one step, as play's
// bound those of a game's write.
const maxAttempts = 8

// GameOver moves the tournament of a finished game on: its
// result is recorded and its players are paired again. Any other game is
// no event (nil).
func (s *Service) GameOver(ctx context.Context, g *play.Game) (*Event, error) {
	link := g.Link()
	if link == nil || s.tours == nil {
		return nil, nil
	}
	ev, err := s.advance(ctx, link.ChatID, link.ID, nil)
	if errors.Is(err, ErrOver) {
		return nil, nil // long over: nothing to add
	}
	return ev, err
}

// Tick moves every running tournament on (results the game ends
// did not record, pairing, the call of time, the end, the card's edit),
// each step won by one replica. Events with nothing to show are left out.
func (s *Service) Tick(ctx context.Context) ([]*Event, error) {
	if s.tours == nil {
		return nil, nil
	}
	chats, err := s.tours.RunningTournaments(ctx)
	if err != nil {
		return nil, err
	}
	var out []*Event
	for _, chat := range chats {
		ev, err := s.advance(ctx, chat, "", nil)
		if err != nil {
			if errors.Is(err, play.ErrBusy) || errors.Is(err, ErrNone) {
				continue
			}
			return out, err
		}
		if ev.Card || ev.Final || len(ev.Games) > 0 || len(ev.Again) > 0 || len(ev.NoShow) > 0 {
			out = append(out, ev)
		}
	}
	return out, nil
}

// advance reads chat's tournament (it must be id, unless id is empty),
// lets change change it, steps it on (arenaStep) and writes it back by
// compare-and-set, deciding again from a fresh read when another writer
// won. After the write it creates the games it paired.
func (s *Service) advance(ctx context.Context, chatID int64, id string, change func(t *storage.Tournament) error) (*Event, error) {
	if s.tours == nil {
		return nil, ErrNotSetUp
	}
	for range maxAttempts {
		t, games, err := s.readTour(ctx, chatID, id)
		if err != nil {
			return nil, err
		}
		before := t.Clone()
		step, err := s.moveTourOn(ctx, t, before, games, change)
		if err != nil {
			return nil, err
		}
		if reflect.DeepEqual(before, t) {
			return &Event{T: &Tournament{*t}}, nil
		}
		err = s.tours.UpdateTournament(ctx, t)
		if errors.Is(err, storage.ErrConflict) {
			continue
		}
		if err != nil {
			return nil, err
		}
		return s.tourEvent(ctx, t, step), nil
	}
	return nil, play.ErrBusy
}

// readTour reads a chat's tournament (id, if given, must be it: a card of
// an earlier one is over) and the state of its games.
func (s *Service) readTour(ctx context.Context, chatID int64, id string) (*storage.Tournament, map[string]tourGameState, error) {
	t, err := s.tours.Tournament(ctx, chatID)
	if errors.Is(err, storage.ErrNotFound) {
		return nil, nil, ErrNone
	}
	if err != nil {
		return nil, nil, err
	}
	if id != "" && t.ID != id {
		return nil, nil, ErrOver // a card of an earlier tournament
	}
	games, err := s.tourGames(ctx, t)
	if err != nil {
		return nil, nil, err
	}
	return t, games, nil
}

// moveTourOn applies change (a join, leave or pause; nil from the clock
// or a game's end), pauses players who blocked the bot, and takes the
// arena's step (arenaStep).
func (s *Service) moveTourOn(ctx context.Context, t, before *storage.Tournament, games map[string]tourGameState, change func(t *storage.Tournament) error) (tourStep, error) {
	if change != nil {
		if err := change(t); err != nil {
			return tourStep{}, err
		}
		if !reflect.DeepEqual(before, t) {
			t.CardDirty = true // a join, leave or pause shows on the card
		}
	}
	away, err := s.tourAway(ctx, t)
	if err != nil {
		return tourStep{}, err
	}
	for i := range t.Players {
		if p := &t.Players[i]; away[p.UserID] && !p.Paused && p.Game == "" {
			// They blocked the bot since joining: a game's cards could
			// not reach them, and their opponent would wait for the flag.
			p.Paused, t.CardDirty = true, true
		}
	}
	step := arenaStep(t, games, s.now(), s.newID)
	if step.final && t.Receipt == 0 {
		t.Receipt = play.NewReceipt()
	}
	return step, nil
}

// tourEvent is what a written step tells the bot: the tournament, whether
// its card or final is due, and the games it paired or posts again (each
// created here; one that fails is posted again by the clock).
func (s *Service) tourEvent(ctx context.Context, t *storage.Tournament, step tourStep) *Event {
	ev := &Event{T: &Tournament{*t.Clone()}, Card: step.card, Final: step.final, Receipt: t.Receipt}
	for _, id := range step.noShow {
		if p, ok := ev.T.Player(id); ok {
			ev.NoShow = append(ev.NoShow, p)
		}
	}
	for i, tg := range slices.Concat(step.paired, step.repost) {
		g, err := s.tourGame(ctx, t, tg)
		if err != nil {
			// The clock posts it again once tourRepostAfter passes.
			s.log.Warn("tournament game not created", "tournament", t.ID, "game", tg.ID, "err", err)
			continue
		}
		if i < len(step.paired) {
			ev.Games = append(ev.Games, g)
		} else {
			ev.Again = append(ev.Again, g)
		}
	}
	return ev
}

// tourAway lists the waiting players who blocked the bot (Telegram said
// 403 to a message for them): they are paused rather than paired. Coming
// back to the bot's chat clears it (play.Service.Touch), and Join resumes them.
func (s *Service) tourAway(ctx context.Context, t *storage.Tournament) (map[int64]bool, error) {
	away := map[int64]bool{}
	if t.Status != storage.TournamentRunning {
		return away, nil
	}
	for _, p := range t.Players {
		if p.Paused || p.Game != "" {
			continue
		}
		u, err := s.core.User(ctx, p.UserID)
		if errors.Is(err, storage.ErrNotFound) {
			continue
		}
		if err != nil {
			return nil, err
		}
		away[p.UserID] = u.Blocked
	}
	return away, nil
}
