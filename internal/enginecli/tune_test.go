package enginecli

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bashni/bashni/ai"
	"github.com/bashni/bashni/internal/tune"
	"github.com/bashni/bashni/rules"
)

// TestSelfPlayTuneMatch runs the tuning loop as docs/engine.md tells it, in
// miniature: self-play positions, a fit, and a match with the fitted weights.
func TestSelfPlayTuneMatch(t *testing.T) {
	dir := t.TempDir()
	data, weights := filepath.Join(dir, "positions.txt"), filepath.Join(dir, "weights.json")
	var out bytes.Buffer
	ctx := context.Background()
	if err := SelfPlay(ctx, []string{"-games", "8", "-nodes", "300", "-out", data}, &out, &out); err != nil {
		t.Fatalf("selfplay: %v\n%s", err, out.String())
	}
	if err := Tune(ctx, []string{"-data", data, "-out", weights, "-step", "2"}, &out, &out); err != nil {
		t.Fatalf("tune: %v\n%s", err, out.String())
	}
	for _, want := range []string{"held out", "fitted: loss", "ai.Weights{"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("tune's output lacks %q:\n%s", want, out.String())
		}
	}
	w, err := LoadWeights(weights)
	if err != nil || w.Man != 100 {
		t.Fatalf("the fitted weights read back as %+v, %v", w, err)
	}
	out.Reset()
	err = Match(ctx, []string{"-a", "nodes=300,weights=" + weights, "-b", "nodes=300", "-games", "2", "-quiet"}, &out, &out)
	if err != nil || !strings.Contains(out.String(), "2 games") {
		t.Errorf("match with weights: %v\n%s", err, out.String())
	}
}

// selfplay -variant plays that variant's games from its start position and
// writes a file that says so; a variant it does not know is a usage error.
func TestSelfPlayVariant(t *testing.T) {
	data := filepath.Join(t.TempDir(), "russian.txt")
	var out bytes.Buffer
	ctx := context.Background()
	if err := SelfPlay(ctx, []string{"-variant", "russian", "-games", "2", "-nodes", "200", "-out", data}, &out, &out); err != nil {
		t.Fatalf("selfplay: %v\n%s", err, out.String())
	}
	f, err := os.Open(data)
	if err != nil {
		t.Fatal(err)
	}
	samples, err := tune.ReadSamples(f)
	f.Close()
	if err != nil || len(samples) == 0 {
		t.Fatalf("%d samples, %v", len(samples), err)
	}
	for _, s := range samples {
		if s.Position.Variant() != rules.Russian {
			t.Fatalf("%v is a %v position", s.Position, s.Position.Variant())
		}
	}
	err = SelfPlay(ctx, []string{"-variant", "chess", "-out", data}, &out, &out)
	if !errors.Is(err, ErrUsage) {
		t.Errorf("-variant chess: %v, want a usage error", err)
	}
}

// tune fits one ruleset at a time: a file mixing two is a usage error and
// writes nothing.
func TestTuneRefusesMixedVariants(t *testing.T) {
	dir := t.TempDir()
	data, weights := filepath.Join(dir, "mixed.txt"), filepath.Join(dir, "w.json")
	start := rules.Start(rules.Bashni).String()
	os.WriteFile(data, []byte("1\t"+start+"\n# variant russian\n0\t"+start+"\n"), 0o644)
	var out bytes.Buffer
	err := Tune(context.Background(), []string{"-data", data, "-out", weights}, &out, &out)
	if !errors.Is(err, ErrUsage) || !strings.Contains(err.Error(), "russian") {
		t.Errorf("mixed variants: %v, want a usage error naming them", err)
	}
	if _, err := os.Stat(weights); !os.IsNotExist(err) {
		t.Errorf("weights written after the error: %v", err)
	}
}

func TestLoadWeightsKeepsUnnamedWeightsAndRefusesUnknownOnes(t *testing.T) {
	dir := t.TempDir()
	part := filepath.Join(dir, "part.json")
	os.WriteFile(part, []byte(`{"King": 250}`), 0o644)
	w, err := LoadWeights(part)
	want := ai.DefaultWeights
	want.King = 250
	if err != nil || w != want {
		t.Errorf("got %+v, %v; want the defaults with King 250", w, err)
	}
	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(bad, []byte(`{"Queen": 900}`), 0o644)
	if _, err := LoadWeights(bad); err == nil || !strings.Contains(err.Error(), "Queen") {
		t.Errorf("unknown weight: %v", err)
	}
	var out bytes.Buffer
	err = Match(context.Background(), []string{"-a", "nodes=100,weights=" + bad, "-b", "nodes=100"}, &out, &out)
	if !errors.Is(err, ErrUsage) {
		t.Errorf("match with a bad weights file: %v, want a usage error", err)
	}
}
