package team

import (
	"fmt"
	"testing"

	"github.com/bashni/bashni/play"
)

// Every refusal of the votes has the kind the doors answer it by, found
// through wrapping as the core's are.
func TestRefusalKinds(t *testing.T) {
	for name, tt := range map[string]struct {
		err  error
		kind play.Kind
	}{
		"ErrNotTeamGame":   {ErrNotTeamGame, play.Invalid},
		"ErrVoteClosed":    {ErrVoteClosed, play.Conflict},
		"ErrAlreadyVoted":  {ErrAlreadyVoted, play.Conflict},
		"ErrBadWindow":     {ErrBadWindow, play.Invalid},
		"ErrBadPollAnswer": {ErrBadPollAnswer, play.Invalid},
		"ErrUnknownPoll":   {ErrUnknownPoll, play.Conflict},
		"ErrNotYourTurn":   {ErrNotYourTurn, play.Conflict},
	} {
		if got := play.KindOf(fmt.Errorf("team: game g1: %w", tt.err)); got != tt.kind {
			t.Errorf("KindOf(wrapped %s) = %v, want %v", name, got, tt.kind)
		}
	}
}
