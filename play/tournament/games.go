package tournament

import (
	"context"
	"errors"

	"github.com/bashni/bashni/play"
	"github.com/bashni/bashni/rules"
	"github.com/bashni/bashni/storage"
)

// A tournament's games as the arena sees them: read from the games' own
// records (what ended them, and whether anyone ever moved), and created
// from a pairing.

// tourGames reads the state of a tournament's games in progress.
func (s *Service) tourGames(ctx context.Context, t *storage.Tournament) (map[string]tourGameState, error) {
	out := map[string]tourGameState{}
	for _, tg := range t.Games {
		if tg.Result != "" {
			continue
		}
		rec, err := s.tours.Game(ctx, tg.ID)
		if errors.Is(err, storage.ErrNotFound) {
			continue // paired, not yet created
		}
		if err != nil {
			return nil, err
		}
		st := tourGameState{exists: true, carded: rec.MessageID != 0 && rec.Link != nil && rec.Link.MirrorMessage != 0}
		if !rec.Active() {
			st.over, st.result = true, rec.Result
			st.aborted, st.noShow = tourAborted(rec)
		}
		out[tg.ID] = st
	}
	return out, nil
}

// tourAborted reports whether a finished game ended before both sides had
// moved (lichess aborts such a game: it counts for nobody), and who, if
// anyone, let it end so: the side to move when it ended by anything but a
// resignation or an agreement (their flag fell, or it was aborted for
// them). Judged from the record alone, so that it holds whatever ended
// the game.
func tourAborted(rec *storage.GameRecord) (aborted bool, noShow int64) {
	if len(rec.Moves) >= 2 {
		return false, 0
	}
	switch rec.Reason {
	case rules.Resignation.String(), rules.Agreement.String():
		return true, 0
	}
	if len(rec.Moves) == 0 {
		return true, rec.White.UserID
	}
	return true, rec.Black.UserID
}

// tourGame creates the game tg of tournament t, or returns it if it
// exists already (a post again). Its card is White's private chat; Black
// gets a second card (GameLink).
func (s *Service) tourGame(ctx context.Context, t *storage.Tournament, tg storage.TourGame) (*play.Game, error) {
	if g, err := s.core.Game(ctx, tg.ID); err == nil {
		return g, nil
	} else if !errors.Is(err, storage.ErrNotFound) {
		return nil, err
	}
	var white, black storage.TourPlayer
	for _, p := range t.Players {
		switch p.UserID {
		case tg.White:
			white = p
		case tg.Black:
			black = p
		}
	}
	v, err := rules.ParseVariant(t.Variant)
	if err != nil {
		return nil, err
	}
	g, err := s.core.StartGame(ctx, play.GameSpec{
		ID: tg.ID, Variant: v, White: storage.Player{UserID: white.UserID, Name: white.Name},
		Black: storage.Player{UserID: black.UserID, Name: black.Name}, ChatID: white.UserID, Rated: true,
		Lang: white.Lang, TimeControl: t.TimeControl,
		Link: &storage.GameLink{ChatID: t.ChatID, ID: t.ID, MirrorChat: black.UserID, MirrorLang: black.Lang, EndsAt: t.EndsAt},
	})
	if errors.Is(err, storage.ErrConflict) {
		return s.core.Game(ctx, tg.ID) // created meanwhile
	}
	return g, err
}
