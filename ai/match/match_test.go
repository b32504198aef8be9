package match

import (
	"context"
	"errors"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/bashni/bashni/ai"
	"github.com/bashni/bashni/rules"
)

func TestEloFromScore(t *testing.T) {
	tests := []struct {
		name       string
		score      Score
		diff, marg float64 // want, ±1
	}{
		// f = 0.5, per-game variance 0.125, standard error
		// sqrt(0.125/40) = 0.0559, so 0.5 + 1.96·0.0559 = 0.6096: +77.4.
		{"even", Score{Wins: 10, Draws: 20, Losses: 10}, 0, 77.4},
		// f = 0.75: -400·log10(1/3) = 190.8; variance 0.1875, se 0.0484,
		// interval 0.655..0.845: Elo 111.5..294.5, half width 91.5.
		{"three quarters", Score{Wins: 60, Losses: 20}, 190.8, 91.5},
		{"draws only", Score{Draws: 10}, 0, 0},
		// f = 0.76: 200.2; variance 0.1524, se 0.0390, interval
		// 0.6835..0.8365: Elo 133.7..283.6, half width 74.9.
		{"76 percent", Score{Wins: 70, Draws: 12, Losses: 18}, 200.2, 74.9},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, m := tt.score.Elo()
			if math.Abs(d-tt.diff) > 1 {
				t.Errorf("Elo diff = %.1f, want %.0f", d, tt.diff)
			}
			if math.Abs(m-tt.marg) > 1 {
				t.Errorf("Elo margin = %.1f, want %.0f", m, tt.marg)
			}
		})
	}
}

func TestEloOfTheExpectedScoreCurve(t *testing.T) {
	// The logistic Elo curve: +200 expects 0.76, +400 expects 10/11.
	for _, tc := range []struct{ f, elo float64 }{{0.5, 0}, {1 / (1 + math.Pow(10, -0.5)), 200}, {10.0 / 11, 400}, {1.0 / 11, -400}} {
		if got := eloOf(tc.f); math.Abs(got-tc.elo) > 1e-9 {
			t.Errorf("eloOf(%v) = %v, want %v", tc.f, got, tc.elo)
		}
	}
}

func TestEloOfAClearSweepIsInfinite(t *testing.T) {
	d, m := Score{Wins: 10}.Elo()
	if !math.IsInf(d, 1) || !math.IsInf(m, 1) {
		t.Errorf("10-0-0 gives Elo %v ± %v, want +inf ± inf", d, m)
	}
	if got, want := (Score{Wins: 10}).String(), "10-0-0, 100.0%, Elo +inf ± inf"; got != want {
		t.Errorf("String = %q, want %q", got, want)
	}
	// f = 2/3: +120; variance 0.1389, se 0.1521, interval 0.368..0.965:
	// Elo -93.6..575.8, half width 335.
	if got, want := (Score{Wins: 3, Draws: 2, Losses: 1}).String(), "3-2-1, 66.7%, Elo +120 ± 335"; got != want {
		t.Errorf("String = %q, want %q", got, want)
	}
}

func TestParseSpec(t *testing.T) {
	good := map[string]Player{
		"level=6":               {Name: "level=6", Level: 6},
		"depth=5":               {Name: "depth=5", Limits: ai.Limits{Depth: 5}},
		"nodes=20000":           {Name: "nodes=20000", Limits: ai.Limits{Nodes: 20000}},
		"level=3, scale=0.5":    {Name: "level=3, scale=0.5", Level: 3, Scale: 0.5},
		"movetime=50ms,hash=32": {Name: "movetime=50ms,hash=32", Limits: ai.Limits{MoveTime: 50e6}, Options: ai.Options{HashMB: 32}},
		"level=6,threads=2":     {Name: "level=6,threads=2", Level: 6, Options: ai.Options{Threads: 2}},
		"exe=/tmp/old":          {Name: "exe=/tmp/old", Exe: "/tmp/old"},
		"exe=./b,movetime=1s":   {Name: "exe=./b,movetime=1s", Exe: "./b", Limits: ai.Limits{MoveTime: 1e9}},
		"depth=2,noise=150":     {Name: "depth=2,noise=150", Limits: ai.Limits{Depth: 2}, Noise: 150},
		"nodes=9,weights=w.js":  {Name: "nodes=9,weights=w.js", Limits: ai.Limits{Nodes: 9}, WeightsFile: "w.js"},
	}
	for spec, want := range good {
		got, err := ParseSpec(spec)
		if err != nil || got != want {
			t.Errorf("ParseSpec(%q) = %+v, %v; want %+v", spec, got, err, want)
		}
	}
	for _, spec := range []string{"", "level=" + strconv.Itoa(len(ai.Levels)+1), "level=0", "depth", "nodes=-1", "speed=3", "movetime=fast", "scale=0", "hash=1", "threads=0", "threads=1000", "exe=", "exe=/tmp/old,scale=0.5", "depth=2,noise=0", "exe=/tmp/old,noise=5", "nodes=9,weights="} {
		if _, err := ParseSpec(spec); !errors.Is(err, ErrSpec) && spec != "hash=1" {
			t.Errorf("ParseSpec(%q) err = %v, want ErrSpec", spec, err)
		}
	}
}

func TestScaledLevelRequest(t *testing.T) {
	p := Player{Level: 5, Scale: 0.1}
	req := p.request()
	lv := ai.Levels[4].Limits
	if req.Limits.Nodes != lv.Nodes/10 || req.Limits.MoveTime != lv.MoveTime/10 {
		t.Errorf("level 5 scaled by 0.1 gives %+v, want a tenth of %+v", req.Limits, lv)
	}
	p.Limits.Nodes = 7
	if got := p.request().Limits.Nodes; got != 7 {
		t.Errorf("explicit nodes=7 gives %d", got)
	}
}

func TestMatchPlaysPairsToTheEnd(t *testing.T) {
	a, _ := ParseSpec("depth=3")
	b, _ := ParseSpec("depth=1")
	var calls int
	res, err := Run(context.Background(), Config{
		A: a, B: b, Games: 6, Concurrency: 2, MaxPlies: 200,
		Progress: func(p Progress) { calls++ },
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.Score.Games() != 6 || len(res.Games) != 6 || calls != 6 {
		t.Fatalf("played %d games (%d records, %d progress calls), want 6", res.Score.Games(), len(res.Games), calls)
	}
	ops := ai.Openings()
	for i, g := range res.Games {
		if g.Number != i || g.Opening != i/2 || g.AWhite != (i%2 == 0) || g.Start != ops[i/2] {
			t.Errorf("game %d: number %d, opening %d, A white %v", i, g.Number, g.Opening, g.AWhite)
		}
		if g.Reason == "" {
			t.Errorf("game %d has no end reason", i)
		}
		// Replay: every move legal and the end as reported.
		p := g.Start
		for _, m := range g.Moves {
			legal := p.Legal()
			found := false
			for _, l := range legal {
				found = found || l == m
			}
			if !found {
				t.Fatalf("game %d: %s illegal in %s", i, m, p)
			}
			p = p.Play(m)
		}
		if g.Reason == rules.NoLegalMoves.String() && len(p.Legal()) != 0 {
			t.Errorf("game %d ended by no legal moves, but %s has moves", i, p)
		}
	}
}

func TestMatchEndsByTheDrawRules(t *testing.T) {
	// Two lone kings can only shuffle: the game is drawn by repetition or
	// the 15-move rule, never by the ply limit.
	start := rules.MustParsePosition("w:c1W,f8B")
	p, _ := ParseSpec("depth=2")
	res, err := Run(context.Background(), Config{A: p, B: p, Games: 2, Openings: []rules.Position{start}})
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range res.Games {
		if g.Score != 0.5 || (g.Reason != rules.ThreefoldRepetition.String() && g.Reason != rules.FifteenMoveRule.String()) {
			t.Errorf("king against king: score %v by %q after %d plies", g.Score, g.Reason, len(g.Moves))
		}
	}
}

func TestMatchStopsWhenCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	p, _ := ParseSpec("depth=2")
	_, err := Run(ctx, Config{A: p, B: p, Games: 4})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", err)
	}
}

func TestExternalThinkArguments(t *testing.T) {
	p, err := ParseSpec("exe=/tmp/old,level=3,nodes=500,hash=4,threads=2")
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(p.thinkArgs(rules.Start(rules.Bashni), 7), " ")
	want := "think -fen " + rules.StartText + " -level 3 -nodes 500 -hash 4 -threads 2 -seed 7"
	if got != want {
		t.Errorf("think arguments\n got %s\nwant %s", got, want)
	}
	got = strings.Join(p.thinkArgs(rules.Start(rules.Russian), 7), " ")
	want = "think -fen " + rules.StartText + " -variant russian -level 3 -nodes 500 -hash 4 -threads 2 -seed 7"
	if got != want {
		t.Errorf("think arguments under Russian rules\n got %s\nwant %s", got, want)
	}
}

func TestParseThinkOutput(t *testing.T) {
	start := rules.Start(rules.Bashni)
	res, err := parseThink(start, []byte("c3-d4\ndepth 7\nscore +0.12\nnodes 12345\npv c3-d4 b6-a5\n"))
	if err != nil || res.Move.String() != "c3-d4" || res.Nodes != 12345 || res.Depth != 7 {
		t.Errorf("parseThink = %+v, %v; want c3-d4 at depth 7 with 12345 nodes", res, err)
	}
	for _, out := range []string{"", "c3-e5\n", "hello\n"} {
		if _, err := parseThink(start, []byte(out)); err == nil {
			t.Errorf("parseThink(%q) accepted it", out)
		}
	}
}
