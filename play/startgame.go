package play

import (
	"context"

	"github.com/bashni/bashni/rules"
	"github.com/bashni/bashni/storage"
)

// GameSpec is a game a feature starts with the players it chose (a chat
// against the AI, play/team): no challenge, no card owed by the call; the
// feature posts its card.
type GameSpec struct {
	Variant      rules.Variant
	White, Black Player
	ChatID       int64 // the chat of the game's card
	Lang         string
	// Team, if set, is the vote of a game a chat plays by vote: the
	// feature's own part of the record (Game.Team).
	Team *storage.TeamGame
}

// StartGame creates the game spec describes. When the AI has the first
// move, it is owed from here (aiturns.go).
func (s *Service) StartGame(ctx context.Context, spec GameSpec) (*Game, error) {
	return s.newGame(ctx, newGameSpec{variant: spec.Variant, white: spec.White, black: spec.Black, chatID: spec.ChatID,
		lang: spec.Lang, team: spec.Team.Clone()})
}
