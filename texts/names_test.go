package texts

import (
	"strconv"
	"testing"

	"github.com/bashni/bashni/ai"
	"github.com/bashni/bashni/rules"
)

// Every reason a game can end for and every AI level a player can pick has
// its own text in every language: a missing one would show its id on the
// result card, or "AI 19" in the level picker.
func TestEveryReasonAndLevelNamed(t *testing.T) {
	c := New()
	var ids []string
	for r := rules.NoLegalMoves; r.String() != ""; r++ {
		ids = append(ids, "reason_"+r.String())
	}
	for _, lv := range ai.Levels {
		ids = append(ids, "ai_level_"+strconv.Itoa(lv.Number))
	}
	for _, lang := range Languages {
		for _, id := range ids {
			if _, err := c.render(lang, id, nil, nil); err != nil {
				t.Errorf("%s has no %s text: %v", id, lang, err)
			}
		}
	}
	if got := c.ReasonName("ru", rules.LoneKingRule.String()); got == "" || got == "reason_"+rules.LoneKingRule.String() {
		t.Errorf("the lone king's draw reads %q in Russian", got)
	}
}
