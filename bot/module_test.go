package bot

import (
	"context"
	"testing"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"
)

// A module's setting row is named like a button's Arg: a name the core's
// own settings or another module took is a wiring bug, refused as a kind
// taken twice is, and so is a row without its handlers.
func TestModuleSettingsPlugged(t *testing.T) {
	show := func(context.Context, *Kit, *tgbotapi.Chat, string) (string, string, bool) { return "", "", false }
	toggle := func(context.Context, *Kit, Tap) error { return nil }
	row := Setting{Show: show, Toggle: toggle}
	mod := func(name string, s Setting) Module { return Module{Name: name, Settings: map[string]Setting{"x": s}} }
	for _, tc := range []struct {
		name string
		mods []Module
	}{
		{"a core setting", []Module{{Name: "a", Settings: map[string]Setting{"theme": row}}}},
		{"two modules' one name", []Module{mod("a", row), mod("b", row)}},
		{"no Toggle", []Module{mod("a", Setting{Show: show})}},
		{"no Show", []Module{mod("a", Setting{Toggle: toggle})}},
	} {
		if _, err := plug(tc.mods); err == nil {
			t.Errorf("%s: plugged", tc.name)
		}
	}
	r, err := plug([]Module{mod("a", row), {Name: "b", Settings: map[string]Setting{"y": row}}})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := r.setting("x"); !ok {
		t.Error("setting x not found")
	}
	if _, ok := r.setting("theme"); ok {
		t.Error("the core's theme found among the modules'")
	}
}
