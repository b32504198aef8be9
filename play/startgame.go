package play

import (
	"context"

	"github.com/bashni/bashni/rules"
	"github.com/bashni/bashni/storage"
)

// GameSpec is a game a feature starts with the players it chose (a chat
// against the AI, play/team; a tournament's pairing, play/tournament): no
// challenge, no card owed by the call; the feature posts its cards.
type GameSpec struct {
	// ID names the game ("" draws one); a given id is created at most
	// once (storage.ErrConflict if it exists), so that two replicas
	// making the same pairing make one game.
	ID           string
	Variant      rules.Variant
	White, Black Player
	ChatID       int64 // the chat of the game's own card
	Rated        bool
	Lang         string
	TimeControl  string
	DaysPerMove  int // a correspondence pace (pace.go), 0 for the server's timeout
	// Team, if set, is the vote of a game a chat plays by vote: the
	// feature's own part of the record (Game.Team).
	Team *storage.TeamGame
	// Link, if set, shows the game in a second chat and counts it in
	// another chat's leaderboard (mirror.go); the rest of it is the
	// feature's own.
	Link *storage.GameLink
}

// StartGame creates the game spec describes. When the AI has the first
// move, it is owed from here (aiturns.go).
func (s *Service) StartGame(ctx context.Context, spec GameSpec) (*Game, error) {
	var link *storage.GameLink
	if spec.Link != nil {
		l := *spec.Link
		link = &l
	}
	if err := checkPace(spec.DaysPerMove); err != nil {
		return nil, err
	}
	return s.newGame(ctx, newGameSpec{daysPerMove: spec.DaysPerMove,
		id: spec.ID, variant: spec.Variant, white: spec.White, black: spec.Black, chatID: spec.ChatID,
		rated: spec.Rated, lang: spec.Lang, timeControl: spec.TimeControl, team: spec.Team.Clone(), link: link,
	})
}
