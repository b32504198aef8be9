package enginecli

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"

	"github.com/bashni/bashni/ai"
	"github.com/bashni/bashni/internal/tune"
	"github.com/bashni/bashni/rules"
)

// SelfPlay runs `bashni selfplay`: self-play games at a small node budget,
// written as labelled quiet positions for Tune. Bashni's games start from
// the shipped openings; another -variant's from its start position, with
// more random moves (-random) since there is only one.
func SelfPlay(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("selfplay", "-out FILE [-variant V] [-games N] [-nodes N] [-random N] [-per-game N] [-workers K] [-seed S] [-weights FILE]", stderr)
	out := fs.String("out", "", "file to write the positions to")
	variant := rules.Bashni
	fs.TextVar(&variant, "variant", rules.Bashni, variantUsage)
	games := fs.Int("games", 4000, "games to play")
	nodes := fs.Uint64("nodes", 5000, "nodes per move")
	random := fs.Int("random", 3, fmt.Sprintf("random moves after the opening, so games differ (default %d from the start position for a variant other than bashni)", randomFromStart))
	perGame := fs.Int("per-game", 12, "positions kept from each game, at most")
	workers := fs.Int("workers", runtime.NumCPU(), "games played at once")
	seed := fs.Int64("seed", 1, "seed for the openings and random moves")
	weights := fs.String("weights", "", "evaluation weights to play with, as JSON (default: the engine's own)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if variant != rules.Bashni && !flagSet(fs, "random") {
		*random = randomFromStart
	}
	switch {
	case *out == "":
		fs.Usage()
		return usagef("selfplay: -out is required")
	case *games < 1 || *nodes < 1 || *perGame < 1 || *workers < 1:
		return usagef("selfplay: -games, -nodes, -per-game and -workers want at least 1")
	case *random < 0:
		return usagef("selfplay: -random %d: want 0 or more", *random)
	}
	cfg := tune.SelfPlay{
		Games: *games, Nodes: *nodes, RandomPlies: *random, PerGame: *perGame,
		Workers: *workers, Seed: *seed, Variant: variant,
		Progress: func(done int) {
			if done%100 == 0 || done == *games {
				fmt.Fprintf(stderr, "selfplay: %d/%d games\n", done, *games)
			}
		},
	}
	if *weights != "" {
		w, err := LoadWeights(*weights)
		if err != nil {
			return usagef("selfplay: -weights: %v", err)
		}
		cfg.Weights = &w
	}
	// Interrupted, it still writes the games it finished: a long run
	// stopped early is data, not waste.
	samples, err := tune.Generate(ctx, cfg)
	if err != nil && ctx.Err() == nil {
		return fmt.Errorf("selfplay: %w", err)
	}
	var buf bytes.Buffer
	if err := tune.WriteSamples(&buf, samples); err != nil {
		return fmt.Errorf("selfplay: %w", err)
	}
	if err := os.WriteFile(*out, buf.Bytes(), 0o644); err != nil {
		return fmt.Errorf("selfplay: %w", err)
	}
	fmt.Fprintf(stdout, "%d positions written to %s\n", len(samples), *out)
	if err != nil {
		return fmt.Errorf("selfplay: stopped early: %w", err)
	}
	return nil
}

// randomFromStart is selfplay's -random for a variant without shipped
// openings: its games all start from one position, and six random plies
// (seven first moves in Russian draughts, then as many replies) give
// thousands of different games where three would give a few hundred.
const randomFromStart = 6

// flagSet says whether the command line named flag name.
func flagSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// Tune runs `bashni tune`: fits the evaluation weights to a selfplay file
// and writes them as JSON (for a match's weights=FILE) and as Go.
func Tune(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("tune", "-data FILE -out FILE [-from FILE] [-step N] [-holdout F]", stderr)
	data := fs.String("data", "", "positions written by bashni selfplay")
	out := fs.String("out", "", "file to write the fitted weights to, as JSON")
	from := fs.String("from", "", "weights to start from, as JSON (default: the engine's own for the positions' variant)")
	step := fs.Int("step", 8, "first step of the local search (it halves down to 1)")
	holdout := fs.Float64("holdout", 0.1, "share of the positions kept out of the fit, to check it generalises")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *data == "" || *out == "" {
		fs.Usage()
		return usagef("tune: -data and -out are required")
	}
	if !(*holdout >= 0 && *holdout < 1) || *step < 1 {
		return usagef("tune: -holdout wants 0 to below 1, -step at least 1")
	}
	samples, variant, err := readTuneSamples(*data)
	if err != nil {
		return err
	}
	w := ai.WeightsFor(variant)
	if *from != "" {
		if w, err = LoadWeights(*from); err != nil {
			return usagef("tune: -from: %v", err)
		}
	}
	fit, check := holdOut(samples, *holdout)
	k := tune.FitK(fit, w)
	fmt.Fprintf(stdout, "%d %v positions to fit, %d held out; k = %.3f\n", len(fit), variant, len(check), k)
	fmt.Fprintf(stdout, "start: loss %.6f, held out %.6f\n", tune.Loss(fit, w, k), tune.Loss(check, w, k))
	tuned := tune.Fit(fit, w, k, *step, func(step, pass int, loss float64) {
		if ctx.Err() == nil {
			fmt.Fprintf(stderr, "tune: step %d pass %d: loss %.6f\n", step, pass, loss)
		}
	})
	fmt.Fprintf(stdout, "fitted: loss %.6f, held out %.6f\n", tune.Loss(fit, tuned, k), tune.Loss(check, tuned, k))
	if err := writeWeights(*out, tuned); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "written to %s; as Go:\n%s\n", *out, tune.GoLiteral(tuned))
	return nil
}

// readTuneSamples reads a selfplay file, whose positions must all be of
// one ruleset (Bashni for an empty file): the one the fit is for.
func readTuneSamples(path string) ([]tune.Sample, rules.Variant, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, 0, usagef("tune: -data: %v", err)
	}
	samples, err := tune.ReadSamples(f)
	f.Close()
	if err != nil {
		return nil, 0, usagef("tune: -data %s: %v", path, err)
	}
	variant := rules.Bashni
	for i, s := range samples {
		if v := s.Position.Variant(); i == 0 {
			variant = v
		} else if v != variant {
			return nil, 0, usagef("tune: -data %s: positions of %v and of %v: fit one ruleset at a time", path, variant, v)
		}
	}
	return samples, variant, nil
}

// holdOut splits the samples into those to fit and a share to check the
// fit on. The file is in game order; every tenth game's positions (and so
// on) are held out by position index, which keeps them from the fit.
func holdOut(samples []tune.Sample, share float64) (fit, check []tune.Sample) {
	every := 0
	if share > 0 {
		every = max(int(1/share), 2)
	}
	for i, s := range samples {
		if every > 0 && i%every == 0 {
			check = append(check, s)
		} else {
			fit = append(fit, s)
		}
	}
	return fit, check
}

// writeWeights writes w to path as JSON, for a match's weights=FILE.
func writeWeights(path string, w ai.Weights) error {
	js, err := json.MarshalIndent(w, "", "  ")
	if err != nil {
		return fmt.Errorf("tune: %w", err)
	}
	if err := os.WriteFile(path, append(js, '\n'), 0o644); err != nil {
		return fmt.Errorf("tune: %w", err)
	}
	return nil
}

// LoadWeights reads a JSON weights file over the engine's own weights, so
// a file naming some weights keeps the rest. Unknown names are an error.
func LoadWeights(path string) (ai.Weights, error) {
	w := ai.DefaultWeights
	b, err := os.ReadFile(path)
	if err != nil {
		return w, err
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&w); err != nil {
		return ai.DefaultWeights, fmt.Errorf("%s: %w", path, err)
	}
	return w, nil
}
