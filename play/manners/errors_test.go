package manners

import (
	"fmt"
	"testing"

	"github.com/bashni/bashni/play"
)

// Every refusal has the kind the doors answer it by, found through
// wrapping.
func TestRefusalKinds(t *testing.T) {
	for name, tt := range map[string]struct {
		err  error
		kind play.Kind
	}{
		"ErrNotBetweenPeople": {ErrNotBetweenPeople, play.Invalid},
		"ErrNotSlow":          {ErrNotSlow, play.Invalid},
		"ErrBadLine":          {ErrBadLine, play.Invalid},
		"ErrYourMove":         {ErrYourMove, play.Conflict},
		"ErrTooLateToAbort":   {ErrTooLateToAbort, play.Conflict},
		"ErrNoTakebackAsk":    {ErrNoTakebackAsk, play.Conflict},
	} {
		if got := play.KindOf(fmt.Errorf("manners: game g1: %w", tt.err)); got != tt.kind {
			t.Errorf("KindOf(wrapped %s) = %v, want %v", name, got, tt.kind)
		}
	}
}
