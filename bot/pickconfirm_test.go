package bot

import (
	"testing"

	"github.com/bashni/bashni/rules"
)

// The confirmation row is the picked move, marked to play it, and Back;
// its data reads back as the move's squares, confirmed.
func TestConfirmStage(t *testing.T) {
	start := rules.Start(rules.Bashni)
	legal := start.Legal()
	m := legal[0]
	stage := confirmStage(m)
	if len(stage) != 2 || len(stage[0]) != 1 || !stage[0][0].confirm || stage[1][0].label != backLabel {
		t.Fatalf("stage %+v, want the move confirmed and Back", stage)
	}
	kb := (&Bot{}).pickerKeyboard("en", "g1", 3, stage[:1])
	data := *kb.InlineKeyboard[0][0].CallbackData
	c, err := ParseCallback(data)
	if err != nil {
		t.Fatal(err)
	}
	code, confirmed := splitConfirm(c.Arg)
	picked, err := decodeSquares(code)
	if err != nil || !confirmed || len(picked) != len(m.Squares()) {
		t.Errorf("%q reads as %v confirmed %v (%v), want %v confirmed", data, picked, confirmed, err, m.Squares())
	}
	if res, ok := resolvePick(legal, picked, maxWholeMoves); !ok || res.move == nil || res.move.String() != m.String() {
		t.Errorf("the confirmed pick resolves to %+v, want %s", res, m)
	}
}
