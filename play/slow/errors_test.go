package slow

import (
	"fmt"
	"testing"

	"github.com/bashni/bashni/play"
)

// Every refusal of slow play has the kind the doors answer it by, found
// through wrapping as the core's are.
func TestRefusalKinds(t *testing.T) {
	for name, tt := range map[string]struct {
		err  error
		kind play.Kind
	}{
		"ErrBadAway":    {ErrBadAway, play.Invalid},
		"ErrAllowance":  {ErrAllowance, play.TooMany},
		"ErrNotAway":    {ErrNotAway, play.Conflict},
		"ErrBadConfirm": {ErrBadConfirm, play.Invalid},
	} {
		wrapped := fmt.Errorf("slow: user 1: %w", tt.err)
		if got := play.KindOf(wrapped); got != tt.kind {
			t.Errorf("KindOf(wrapped %s) = %v, want %v", name, got, tt.kind)
		}
	}
}
