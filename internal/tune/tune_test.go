package tune

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/bits"
	"reflect"
	"strings"
	"testing"

	"github.com/bashni/bashni/ai"
	"github.com/bashni/bashni/rules"
)

// smallSelfPlay plays a few quick games: enough positions to fit, fast.
func smallSelfPlay(t *testing.T, games int) []Sample {
	t.Helper()
	samples, err := Generate(context.Background(), SelfPlay{
		Games: games, Nodes: 300, RandomPlies: 2, PerGame: 6, Workers: 2, Seed: 7,
	})
	if err != nil {
		t.Fatal(err)
	}
	return samples
}

func TestGenerateLabelsQuietPositionsWithTheirGamesResult(t *testing.T) {
	samples := smallSelfPlay(t, 6)
	if len(samples) == 0 || len(samples) > 6*6 {
		t.Fatalf("%d samples from 6 games of at most 6 each", len(samples))
	}
	for _, s := range samples {
		if s.Position.HasCapture() {
			t.Errorf("%v: the side to move has a capture; only quiet positions are scored statically", s.Position)
		}
		if s.Result != 0 && s.Result != 0.5 && s.Result != 1 {
			t.Errorf("%v: result %v", s.Position, s.Result)
		}
	}
	if again := smallSelfPlay(t, 6); !reflect.DeepEqual(samples, again) {
		t.Error("the same seed gave other samples")
	}
}

func TestSamplesRoundTrip(t *testing.T) {
	samples := smallSelfPlay(t, 2)
	var buf bytes.Buffer
	if err := WriteSamples(&buf, samples); err != nil {
		t.Fatal(err)
	}
	back, err := ReadSamples(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(samples, back) {
		t.Errorf("read back %d samples unlike the %d written", len(back), len(samples))
	}
}

// Russian draughts self-play starts from its own start position (the
// shipped openings are Bashni's), plays by its rules, where a capture
// removes the pieces and no tower ever forms, and its samples keep their
// variant through the samples file.
func TestGenerateRussianPlaysRussianAndKeepsTheVariant(t *testing.T) {
	samples, err := Generate(context.Background(), SelfPlay{
		Games: 4, Nodes: 300, RandomPlies: 6, PerGame: 40, Workers: 1, Seed: 3, Variant: rules.Russian,
	})
	if err != nil || len(samples) == 0 {
		t.Fatalf("%d samples, %v", len(samples), err)
	}
	fewer := false
	for _, s := range samples {
		p := s.Position
		if p.Variant() != rules.Russian {
			t.Fatalf("%v is a %v position", p, p.Variant())
		}
		for sq := rules.Square(0); sq < rules.NumSquares; sq++ {
			if h := p.Tower(sq).Height(); h > 1 {
				t.Fatalf("%v: a tower of %d on %v in Russian draughts", p, h, sq)
			}
		}
		fewer = fewer || bits.OnesCount32(p.Occupied()) < 2*rules.MaxPiecesPerColor
	}
	if !fewer {
		t.Error("no sample has lost a piece: no game got as far as a capture")
	}
	var buf bytes.Buffer
	if err := WriteSamples(&buf, samples); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "\n# variant russian\n") {
		t.Errorf("the file does not say its rules:\n%.200s", buf.String())
	}
	back, err := ReadSamples(&buf)
	if err != nil || !reflect.DeepEqual(samples, back) {
		t.Errorf("read back %d samples unlike the %d written: %v", len(back), len(samples), err)
	}
}

func TestReadSamplesFollowsVariantLines(t *testing.T) {
	start := rules.Start(rules.Bashni).String()
	text := "1\t" + start + "\n# variant russian\n0\t" + start + "\n# variant bashni-mp\n0.5\t" + start + "\n"
	got, err := ReadSamples(strings.NewReader(text))
	if err != nil || len(got) != 3 {
		t.Fatalf("%d samples, %v", len(got), err)
	}
	for i, want := range []rules.Variant{rules.Bashni, rules.Russian, rules.BashniMP} {
		if v := got[i].Position.Variant(); v != want {
			t.Errorf("sample %d is %v, want %v", i+1, v, want)
		}
	}
	if _, err := ReadSamples(strings.NewReader("# variant chess\n1\t" + start)); !errors.Is(err, ErrSamples) || !strings.Contains(err.Error(), "line 1") {
		t.Errorf("an unknown variant: %v, want ErrSamples naming line 1", err)
	}
}

func TestReadSamplesNamesTheBadLine(t *testing.T) {
	start := rules.Start(rules.Bashni).String()
	for _, tc := range []struct{ text, want string }{
		{"1\t" + start + "\n2\t" + start, "line 2: points \"2\""},
		{"# comment\n\n0.5 " + start, "line 3: want points, a tab and a position"},
		{"0\tw:z9w", "line 1:"},
	} {
		got, err := ReadSamples(strings.NewReader(tc.text))
		if !errors.Is(err, ErrSamples) || !strings.Contains(err.Error(), tc.want) || got != nil {
			t.Errorf("%q: got %d samples, %v; want nothing and an error with %q", tc.text, len(got), err, tc.want)
		}
	}
}

func FuzzReadSamples(f *testing.F) {
	f.Add("1\t" + rules.Start(rules.Bashni).String())
	f.Add("0.5\tb:a1W,h8bbw\n# x\n0\tw:c3w,d4b")
	f.Fuzz(func(t *testing.T, text string) {
		samples, err := ReadSamples(strings.NewReader(text))
		if err != nil {
			return
		}
		var buf bytes.Buffer
		if err := WriteSamples(&buf, samples); err != nil {
			t.Fatal(err)
		}
		back, err := ReadSamples(&buf)
		if err != nil || len(back) != len(samples) {
			t.Fatalf("written samples read back as %d, %v", len(back), err)
		}
	})
}

func TestParamsReachEveryWeightButTheUnit(t *testing.T) {
	w := ai.DefaultWeights
	params := Params(&w)
	seen := map[string]bool{}
	for _, p := range params {
		if seen[p.Name] {
			t.Errorf("%s listed twice", p.Name)
		}
		seen[p.Name] = true
		*p.Ptr += 1000
	}
	if seen["Man"] {
		t.Error("Man is tunable; it is the unit the other weights are counted in")
	}
	// Every int in the struct but Man moved by 1000.
	got, want := reflect.ValueOf(w), reflect.ValueOf(ai.DefaultWeights)
	for i := range got.NumField() {
		name := got.Type().Field(i).Name
		f, d := got.Field(i), want.Field(i)
		if f.Kind() == reflect.Int {
			if moved := f.Int() - d.Int(); moved != 1000 && name != "Man" || moved != 0 && name == "Man" {
				t.Errorf("%s moved by %d", name, moved)
			}
			continue
		}
		for j := range f.Len() {
			if moved := f.Index(j).Int() - d.Index(j).Int(); moved != 1000 {
				t.Errorf("%s[%d] moved by %d", name, j, moved)
			}
		}
	}
}

// TestFitRecoversFromSpoiledWeights labels positions with what the engine's
// own weights expect, spoils two weights, and checks the fit lowers the
// loss at every pass and moves the spoiled weights back towards the truth.
func TestFitRecoversFromSpoiledWeights(t *testing.T) {
	samples := smallSelfPlay(t, 40)
	truth := ai.NewEvaluator(ai.DefaultWeights)
	for i := range samples {
		s := &samples[i]
		score := truth.Evaluate(&s.Position)
		if s.Position.SideToMove() == rules.Black {
			score = -score
		}
		switch e := expected(score, 1); {
		case e > 0.6:
			s.Result = 1
		case e < 0.4:
			s.Result = 0
		default:
			s.Result = 0.5
		}
	}
	spoiled := ai.DefaultWeights
	spoiled.King = 120
	spoiled.ReserveMan = 20
	start := Loss(samples, spoiled, 1)
	last := start
	fitted := Fit(samples, spoiled, 1, 16, func(step, pass int, loss float64) {
		if loss > last {
			t.Errorf("step %d pass %d: loss rose from %f to %f", step, pass, last, loss)
		}
		last = loss
	})
	if end := Loss(samples, fitted, 1); !(end < start) {
		t.Errorf("loss %f after fitting, %f before", end, start)
	}
	if fitted.King <= spoiled.King || fitted.ReserveMan <= spoiled.ReserveMan {
		t.Errorf("King %d, ReserveMan %d: the fit did not move them back up from %d, %d",
			fitted.King, fitted.ReserveMan, spoiled.King, spoiled.ReserveMan)
	}
	if fitted.Man != 100 {
		t.Errorf("Man %d: the unit moved", fitted.Man)
	}
	// The labels are a step function of the truth's expectation, which a
	// steeper slope fits better than the k=1 they were cut at.
	k := FitK(samples, ai.DefaultWeights)
	if k <= 1 || Loss(samples, ai.DefaultWeights, k) > Loss(samples, ai.DefaultWeights, 1) {
		t.Errorf("FitK %f: no better than k=1 for labels cut from k=1", k)
	}
}

func TestGoLiteralNamesEveryField(t *testing.T) {
	lit := GoLiteral(ai.DefaultWeights)
	for _, name := range []string{"Man: 100,", fmt.Sprintf("King: %d,", ai.DefaultWeights.King), "Advance: [8]int{"} {
		if !strings.Contains(lit, name) {
			t.Errorf("literal lacks %q:\n%s", name, lit)
		}
	}
}
