package bot

import (
	"strconv"
	"testing"

	"github.com/bashni/bashni/ai"
	"github.com/bashni/bashni/texts"
)

// TestEveryLevelHasItsNameInBothLanguages: the picker shows each level by
// name, so a level added to ai.Levels needs its words here too.
func TestEveryLevelHasItsNameInBothLanguages(t *testing.T) {
	tx := texts.New()
	for _, lv := range ai.Levels {
		id := "ai_level_" + strconv.Itoa(lv.Number)
		if got := tx.T("en", id); got != lv.Name {
			t.Errorf("level %d is %q in English, %q in package ai", lv.Number, got, lv.Name)
		}
		if got := tx.T("ru", id); got == id || got == lv.Name {
			t.Errorf("level %d has no Russian name (%q)", lv.Number, got)
		}
	}
}
