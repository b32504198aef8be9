package play

import (
	"context"
	"errors"
	"testing"
)

// An update that ended a game in a process that died before its replies
// is delivered again: the search for the game it is about (ActiveGames,
// by chat or by user) finds the game it ended by its receipt, rather than
// no game or another one still in progress.
func TestActiveGamesFindTheGameTheReceiptEnded(t *testing.T) {
	s, _, _ := newTestService(t)
	ctx := context.Background()
	ended, other := startGame(t, s), startGame(t, s)
	if _, err := s.Resign(WithReceipt(ctx, 77), ended.ID(), bob.UserID); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name         string
		user, chatID int64
	}{
		{"in the chat", 0, -100},
		{"of the user", bob.UserID, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			again := WithReceipt(ctx, 77) // the update delivered again, to another process
			_, err := s.ActiveGames(again, tc.user, tc.chatID)
			var ae *AppliedError
			if !errors.As(err, &ae) || ae.Game.ID() != ended.ID() || ae.Game.Active() {
				t.Fatalf("ActiveGames under the receipt that ended a game: %v; want that game, applied", err)
			}
			games, err := s.ActiveGames(WithReceipt(ctx, 78), tc.user, tc.chatID)
			if err != nil || len(games) != 1 || games[0].ID() != other.ID() {
				t.Errorf("ActiveGames under another receipt: %v, %v; want the game in progress", games, err)
			}
		})
	}
	// Carol, not in it, is not told of it.
	if games, err := s.ActiveGames(WithReceipt(ctx, 77), carol.UserID, 0); err != nil || len(games) != 0 {
		t.Errorf("Carol's games under the receipt: %v, %v; want none", games, err)
	}
}
