package bot_test

import (
	"context"
	"log/slog"
	"strings"
	"testing"

	"github.com/bashni/bashni/bot"
	"github.com/bashni/bashni/internal/testkit"
	"github.com/bashni/bashni/render"
)

// A forged or outdated button of any kind is refused with a short, true
// answer: never "something went wrong", and never an ERROR in the log.
// (Rematch is left out: issue 13 turns it into an offer.)
func TestForgedButtonsAreRefusals(t *testing.T) {
	h := newHarness(t, boltStore(t))
	logs := &testkit.Buffer{}
	ctx := context.Background()
	h.bot = bot.New(ctx, h.svc, h.marks, h.rec, render.New(), bot.Config{
		Username: "bashni_bench_bot",
		Logger:   slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelWarn})),
	})
	g := h.newGame(t, ctx)
	internal := h.bot.Texts().T("en", "err_internal")
	for _, data := range []string{
		"p|nosuchgame|0|",
		"p|" + g.id + "|7|",     // an old board
		"p|" + g.id + "|0|aaaa", // squares that are no move
		"p|" + g.id + "|0|AB",   // light-square codes
		"a|nosuch|-1|",          // accept a gone challenge
		"d|nosuch|-1|",          // decline
		"x|nosuch|-1|",          // cancel
		"dy|" + g.id + "|-1|",   // no draw offered
		"dn|nosuchgame|-1|",     // no such game
		"f|nosuchgame|-1|",      // PDN
		"g|nosuchgame|-1|",      // replay
		"m||-1|nosuchitem",      // menu
		"l||-1|x",               // level
		"l||-1|99",              // level out of range
		"c|x|-1|white",          // colour of no level
		"c|99|-1|white",         // colour of a level out of range
		"c|1|-1|purple",         // no such colour
		"ln||-1|xx",             // no such language
		"s||-1|nosuchsetting",   // no such setting
		"i|nosuch|-1|",          // inline accept
		"zz|x|1|",               // no such kind
		"not callback data at all",
	} {
		tap := h.tap(g, h.bob, data)
		h.handle(ctx, tap)
		text, ok := h.rec.answer(tap.CallbackQuery.ID)
		if !ok {
			t.Errorf("%q: the tap was not answered", data)
			continue
		}
		if text == internal {
			t.Errorf("%q: answered %q, a fault rather than a refusal", data, text)
		}
	}
	if strings.Contains(logs.String(), "level=ERROR") {
		t.Errorf("refusals logged as errors:\n%s", logs.String())
	}
}
