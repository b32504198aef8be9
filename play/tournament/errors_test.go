package tournament

import (
	"testing"

	"github.com/bashni/bashni/play"
)

// Each refusal is of the kind the doors answer it by.
func TestRefusalKinds(t *testing.T) {
	for name, tc := range map[string]struct {
		err  error
		kind play.Kind
	}{
		"ErrNotSetUp":      {ErrNotSetUp, play.Unsupported},
		"ErrBadDuration":   {ErrBadDuration, play.Invalid},
		"ErrNotInGroup":    {ErrNotInGroup, play.Invalid},
		"ErrRuns":          {ErrRuns, play.Conflict},
		"ErrNone":          {ErrNone, play.NotFound},
		"ErrOver":          {ErrOver, play.Conflict},
		"ErrAlreadyJoined": {ErrAlreadyJoined, play.Conflict},
		"ErrNotJoined":     {ErrNotJoined, play.Forbidden},
	} {
		if got := play.KindOf(tc.err); got != tc.kind {
			t.Errorf("%s: kind %v, want %v", name, got, tc.kind)
		}
	}
}
