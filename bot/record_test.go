package bot

import (
	"testing"
	"time"

	"github.com/bashni/bashni/play"
	"github.com/bashni/bashni/rules"
	"github.com/bashni/bashni/storage"
)

// The PDN file of a finished game parses back into the same game: moves,
// final position and result with its reason.
func TestPDNRoundTrip(t *testing.T) {
	tests := []struct {
		name   string
		moves  []string
		finish func(g *rules.Game) error
		start  string
	}{
		{"resigned", []string{"c3-d4", "f6-e5", "d4:f6", "g7:e5"}, func(g *rules.Game) error { return g.Resign(rules.White) }, ""},
		{"on time", []string{"c3-d4"}, func(g *rules.Game) error { return g.LoseOnTime(rules.Black) }, ""},
		{"agreed", []string{"c3-d4", "f6-e5"}, func(g *rules.Game) error { return g.AgreeDraw() }, ""},
		{"board result from a position", []string{"c3:e5"}, nil, "w:c3w,d4b"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			start := rules.Start(rules.Bashni)
			if tt.start != "" {
				start = rules.MustParsePosition(tt.start)
			}
			rg, err := rules.ReplayGame(start, tt.moves)
			if err != nil {
				t.Fatal(err)
			}
			if tt.finish != nil {
				if err := tt.finish(rg); err != nil {
					t.Fatal(err)
				}
			}
			r, why := rg.Result()
			rec := &storage.Game{ID: "g1", Variant: "bashni", White: storage.Player{UserID: 1, Name: "Alice \"A\""}, Black: storage.Player{UserID: 2, Name: "Bob"},
				Start: start.String(), Moves: tt.moves, Status: storage.GameFinished, Result: r.String(), Reason: why.String(), CreatedAt: time.Now()}
			g, err := play.LoadGame(rec)
			if err != nil {
				t.Fatal(err)
			}
			text := PDN(g)
			back, err := ParsePDN(text)
			if err != nil {
				t.Fatalf("ParsePDN(%q): %v", text, err)
			}
			gr, gwhy := back.Game.Result()
			if back.Game.Record() != rg.Record() || gr != r || gwhy != why || back.Tags["White"] != "Alice \"A\"" {
				t.Errorf("round trip of\n%s\ngave %q %v (%v), tags %v; want %q %v (%v)", text, back.Game.Record(), gr, gwhy, back.Tags, rg.Record(), r, why)
			}
		})
	}
}
