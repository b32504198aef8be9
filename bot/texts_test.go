package bot

import (
	"strconv"
	"testing"

	"github.com/bashni/bashni/ai"
)

// Every text exists in both languages, and Russian plurals take the right
// form (1 ход, 2 хода, 5 ходов, 21 ход).
func TestTextsCompleteAndPlural(t *testing.T) {
	en := map[string]bool{}
	for _, m := range messagesEN {
		en[m.ID] = true
	}
	ru := map[string]bool{}
	for _, m := range messagesRU {
		ru[m.ID] = true
		if !en[m.ID] {
			t.Errorf("text %q is in Russian only", m.ID)
		}
	}
	for id := range en {
		if !ru[id] {
			t.Errorf("text %q has no Russian", id)
		}
	}
	tx := NewTexts()
	for _, tt := range []struct {
		lang string
		n    int
		want string
	}{
		{"ru", 1, "1 ход"}, {"ru", 2, "2 хода"}, {"ru", 5, "5 ходов"}, {"ru", 21, "21 ход"}, {"ru", 11, "11 ходов"}, {"ru", 22, "22 хода"},
		{"en", 1, "1 move"}, {"en", 2, "2 moves"}, {"en", 21, "21 moves"},
	} {
		if got := tx.N(tt.lang, "plies", tt.n); got != tt.want {
			t.Errorf("%s plural of %d: got %q, want %q", tt.lang, tt.n, got, tt.want)
		}
	}
	if got := Lang("ru-RU"); got != "ru" {
		t.Errorf("Lang(ru-RU) = %s", got)
	}
	if got := Lang(""); got != "en" {
		t.Errorf("Lang('') = %s", got)
	}
}

// TestEveryLevelHasItsNameInBothLanguages: the picker shows each level by
// name, so a level added to ai.Levels needs its words here too.
func TestEveryLevelHasItsNameInBothLanguages(t *testing.T) {
	tx := NewTexts()
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
