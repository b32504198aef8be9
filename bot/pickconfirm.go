package bot

import (
	"context"
	"strings"

	"github.com/bashni/bashni/play"
	"github.com/bashni/bashni/rules"
)

// A move picked on the card may wait for a second tap before it is
// played, when a module says the player wants it (Module.ConfirmMove: a
// slip in a game of days per move costs days). The picker's row then
// becomes that one move, marked, and Back: an edit of the buttons only, no
// new message. Its data is the move's squares and confirmMark.

// confirmMark ends the squares of a pick that confirms its move.
const confirmMark = "!"

// splitConfirm reads a pick's Arg: its squares' code and whether it
// confirms.
func splitConfirm(arg string) (squares string, confirmed bool) {
	return strings.CutSuffix(arg, confirmMark)
}

// confirmStage is the picker's row that asks for m's second tap.
func confirmStage(m rules.Move) [][]pickEntry {
	return [][]pickEntry{
		{{label: "✅ " + m.String(), pick: m.Squares(), confirm: true}},
		{{label: backLabel, pick: nil}},
	}
}

// confirms reports whether a module wants user's picked move in g
// confirmed by a second tap.
func (r modules) confirms(ctx context.Context, k *Kit, g *play.Game, u *play.User) bool {
	for _, m := range r.list {
		if m.ConfirmMove != nil && m.ConfirmMove(ctx, k, g, u) {
			return true
		}
	}
	return false
}
