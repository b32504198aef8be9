package bot

import (
	"context"
	"testing"

	"github.com/bashni/bashni/rules"
	"github.com/bashni/bashni/texts"
)

// Every ruleset has its name and its button in both languages (package
// texts checks that every text is in every language).
func TestEveryRulesetHasItsWords(t *testing.T) {
	tx := texts.New()
	for _, v := range rules.Variants {
		for _, id := range []string{"rules_name_" + v.String(), "btn_rules_" + v.String()} {
			for _, lang := range texts.Languages {
				if got := tx.T(lang, id); got == id {
					t.Errorf("ruleset %v has no %s text %s", v, lang, id)
				}
			}
		}
	}
}

func TestVariantWords(t *testing.T) {
	for word, want := range map[string]rules.Variant{"russian": rules.Russian, "Русские": rules.Russian, "mp": rules.BashniMP,
		"bashni-mp": rules.BashniMP, "bashni": rules.Bashni, "башни": rules.Bashni} {
		if got, ok := variantWord(word); !ok || got != want {
			t.Errorf("variantWord(%q) = %v, %v; want %v", word, got, ok, want)
		}
	}
	for _, word := range []string{"", "white", "5+3", "chess"} {
		if _, ok := variantWord(word); ok {
			t.Errorf("variantWord(%q) names a ruleset", word)
		}
	}
	for _, v := range rules.Variants {
		if got := variantOfCode(variantCode[v]); got != v {
			t.Errorf("ruleset %v's code reads back as %v", v, got)
		}
	}
}

// Every button of the AI menu and of a vote fits Telegram's 64 bytes.
func TestTogetherButtonsFit(t *testing.T) {
	b := New(context.Background(), nil, nil, discardSender{}, &optionsRecorder{}, Config{})
	for _, lang := range texts.Languages {
		kb := colorKeyboard(b.texts, lang, 18, rules.BashniMP)
		for _, row := range kb.InlineKeyboard {
			for _, btn := range row {
				if _, err := ParseCallback(*btn.CallbackData); err != nil || len(*btn.CallbackData) > 64 {
					t.Errorf("button %q: %q: %v", btn.Text, *btn.CallbackData, err)
				}
			}
		}
	}
}
