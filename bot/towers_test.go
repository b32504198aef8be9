package bot

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/bashni/bashni/rules"
	"github.com/bashni/bashni/texts"
)

// TestTowersAlert: the alert lists every tower of two or more, a1 first,
// top first, within Telegram's 200 characters even for the most lines a
// position can have; when they do not fit a limit it lists those that do
// and ends with "…"; with none it says so.
func TestTowersAlert(t *testing.T) {
	b := &Bot{core: &core{texts: texts.New()}}
	for _, tc := range []struct {
		pos, lang, want string
		limit           int
	}{
		{"w:c3WwWbbBbb,e5bw,g7b", "en", "Towers, top first:\nc3: ⚪♛ ⚪ ⚪♛ ⚫×2 ⚫♛ ⚫×2\ne5: ⚫ ⚪", maxAlert},
		{"b:c3bbwww", "ru", "Башни, сверху вниз:\nc3: ⚫×2 ⚪×3", maxAlert},
		{"w:c3w,e5b", "en", "No towers on the board: every square holds one piece or none.", maxAlert},
		// Twelve towers of two kings: the most lines there can be.
		{"w:a1WB,c1WB,e1WB,g1WB,b2WB,d2WB,f2WB,h2WB,a3WB,c3WB,e3WB,g3WB", "ru", "", maxAlert},
		{"w:a1WB,c1WB,e1WB,g1WB,b2WB,d2WB,f2WB,h2WB,a3WB,c3WB,e3WB,g3WB", "en", "Towers, top first:\na1: ⚪♛ ⚫♛\nc1: ⚪♛ ⚫♛\ne1: ⚪♛ ⚫♛\n…", 50},
	} {
		got := b.towersAlert(tc.lang, rules.MustParsePosition(tc.pos), tc.limit)
		if n := utf8.RuneCountInString(got); n > tc.limit {
			t.Errorf("%s: alert of %d characters, want at most %d", tc.pos, n, tc.limit)
		}
		if tc.want == "" {
			if strings.Count(got, "\n") != 12 || strings.HasSuffix(got, "…") {
				t.Errorf("%s: %q, want all twelve towers", tc.pos, got)
			}
			continue
		}
		if got != tc.want {
			t.Errorf("%s in %s: %q, want %q", tc.pos, tc.lang, got, tc.want)
		}
	}
}
