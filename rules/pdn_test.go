package rules

import (
	"strings"
	"testing"
)

// The PDN of a finished game reads back into the same game: moves, final
// position and result with its reason; tags are kept.
func TestPDNRoundTrip(t *testing.T) {
	tests := []struct {
		name   string
		moves  []string
		finish func(g *Game) error
		start  string
	}{
		{"resigned", []string{"c3-d4", "f6-e5", "d4:f6", "g7:e5"}, func(g *Game) error { return g.Resign(White) }, ""},
		{"on time", []string{"c3-d4"}, func(g *Game) error { return g.LoseOnTime(Black) }, ""},
		{"agreed", []string{"c3-d4", "f6-e5"}, func(g *Game) error { return g.AgreeDraw() }, ""},
		{"board result from a position", []string{"c3:e5"}, nil, "w:c3w,d4b"},
		{"going on", []string{"c3-d4"}, nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			start := Start(Bashni)
			if tt.start != "" {
				start = MustParsePosition(tt.start)
			}
			g, err := ReplayGame(start, tt.moves)
			if err != nil {
				t.Fatal(err)
			}
			if tt.finish != nil {
				if err := tt.finish(g); err != nil {
					t.Fatal(err)
				}
			}
			r, why := g.Result()
			tags := map[string]string{"White": "Alice \"A\"", "Black": "Bob", "Termination": why.String()}
			text := (&PDN{Tags: tags, Game: g}).String()
			back, err := ParsePDN(text)
			if err != nil {
				t.Fatalf("ParsePDN(%q): %v", text, err)
			}
			gr, gwhy := back.Game.Result()
			if back.Game.Record() != g.Record() || gr != r || gwhy != why || back.Tags["White"] != "Alice \"A\"" {
				t.Errorf("round trip of\n%s\ngave %q %v (%v), tags %v; want %q %v (%v)", text, back.Game.Record(), gr, gwhy, back.Tags, g.Record(), r, why)
			}
		})
	}
}

// FuzzParsePDN: any text either fails or gives a game whose record reads
// back to the same game.
func FuzzParsePDN(f *testing.F) {
	f.Add("[White \"A\"]\n[Result \"1-0\"]\n\n1. c3-d4 f6-e5 1-0\n")
	f.Add("[FEN \"w:c3w,d4b\"]\n1. c3:e5 *")
	f.Add("[Variant \"russian\"]\n1. c3-d4 {x} f6-e5!? 2. d4:f6")
	f.Add("[GameType \"25,W,8,8,A1,0\"]\n1. c3-d4 f6-e5 2. d4:f6")
	f.Add("[Variant \"bashni-mp\"]\n[FEN \"w:c3w,d4bb,f4b,f2b,d2b\"]\n1. c3:e5:g3:e1:c3:e5")
	f.Fuzz(func(t *testing.T, text string) {
		g, err := ParsePDN(text)
		if err != nil {
			return
		}
		start := g.Game.StartPosition()
		again, err := ParsePDN("[FEN \"" + start.String() + "\"]\n[Variant \"" + start.Variant().String() + "\"]\n" + g.Game.Record())
		if err != nil || again.Game.Record() != g.Game.Record() {
			t.Fatalf("record %q does not read back: %v", g.Game.Record(), err)
		}
	})
}

// The ruleset travels with the game: Russian draughts as PDN's GameType 25
// and by name, Bashni and its other school by name; a reader that finds only
// a GameType knows Russian draughts by it, and refuses a game it cannot play.
func TestPDNRuleset(t *testing.T) {
	for _, v := range Variants {
		t.Run(v.String(), func(t *testing.T) {
			g, err := ReplayGame(Start(v), []string{"c3-d4", "f6-e5", "d4:f6"})
			if err != nil {
				t.Fatal(err)
			}
			text := (&PDN{Game: g}).String()
			wantGT := v == Russian
			if got := strings.Contains(text, "[GameType \"25\"]"); got != wantGT {
				t.Errorf("%v: GameType 25 written %v, want %v:\n%s", v, got, wantGT, text)
			}
			if !strings.Contains(text, "[Variant \""+v.String()+"\"]") {
				t.Errorf("%v: no Variant tag in\n%s", v, text)
			}
			back, err := ParsePDN(text)
			if err != nil {
				t.Fatal(err)
			}
			if start := back.Game.StartPosition(); start.Variant() != v {
				got := start.Variant()
				t.Errorf("read back as %v, want %v", got, v)
			}
		})
	}
	back, err := ParsePDN("[GameType \"25,W,8,8,A1,0\"]\n1. c3-d4 f6-e5 2. d4:f6 *")
	if err != nil {
		t.Fatalf("GameType 25 alone: %v", err)
	}
	if start := back.Game.StartPosition(); start.Variant() != Russian {
		t.Errorf("GameType 25 alone read as %v", start.Variant())
	}
	if _, err := ParsePDN("[GameType \"20\"]\n1. 32-28 *"); err == nil || !strings.Contains(err.Error(), "GameType") {
		t.Errorf("GameType 20 (international draughts) accepted or not named: %v", err)
	}
}
