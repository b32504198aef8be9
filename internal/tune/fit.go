package tune

import (
	"fmt"
	"math"
	"reflect"
	"runtime"
	"sync"

	"github.com/bashni/bashni/ai"
	"github.com/bashni/bashni/rules"
)

// Param is one tunable integer of a Weights: its name as the struct spells
// it (Advance[3]) and where it lives.
type Param struct {
	Name string
	Ptr  *int
}

// Params lists w's tunable integers in the struct's order. Man is left
// out: it is the unit every other weight is counted in.
func Params(w *ai.Weights) []Param {
	var out []Param
	v := reflect.ValueOf(w).Elem()
	for i := range v.NumField() {
		f, name := v.Field(i), v.Type().Field(i).Name
		switch {
		case name == "Man":
		case f.Kind() == reflect.Int:
			out = append(out, Param{name, f.Addr().Interface().(*int)})
		case f.Kind() == reflect.Array && f.Type().Elem().Kind() == reflect.Int:
			for j := range f.Len() {
				out = append(out, Param{fmt.Sprintf("%s[%d]", name, j), f.Index(j).Addr().Interface().(*int)})
			}
		default:
			panic("tune: Weights field " + name + " is neither an int nor an array of ints")
		}
	}
	return out
}

// expected squashes a score (hundredths of a man, White's view) into
// White's expected points, with k as the slope: k=1 makes one man worth a
// 64% expectation, as a hundred centipawns are in chess.
func expected(score int, k float64) float64 {
	return 1 / (1 + math.Pow(10, -k*float64(score)/400))
}

// Loss is the mean squared error between the samples' results and the
// expected points w's static evaluation gives their positions.
func Loss(samples []Sample, w ai.Weights, k float64) float64 {
	if len(samples) == 0 {
		return 0
	}
	ev := ai.NewEvaluator(w)
	workers := runtime.GOMAXPROCS(0)
	sums := make([]float64, workers)
	var wg sync.WaitGroup
	for i := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := i; j < len(samples); j += workers {
				s := &samples[j]
				score := ev.Evaluate(&s.Position)
				if s.Position.SideToMove() == rules.Black {
					score = -score
				}
				d := s.Result - expected(score, k)
				sums[i] += d * d
			}
		}()
	}
	wg.Wait()
	total := 0.0
	for _, s := range sums {
		total += s
	}
	return total / float64(len(samples))
}

// FitK finds the slope that makes w's evaluation fit the samples best (the
// loss is one-humped in k, so a ternary search finds its bottom).
func FitK(samples []Sample, w ai.Weights) float64 {
	lo, hi := 0.01, 10.0
	for range 60 {
		a, b := lo+(hi-lo)/3, hi-(hi-lo)/3
		if Loss(samples, w, a) < Loss(samples, w, b) {
			hi = b
		} else {
			lo = a
		}
	}
	return (lo + hi) / 2
}

// Fit improves w by local search, the Texel way: each parameter in turn is
// moved by a step up, else down, and kept where the loss fell; passes
// repeat until none helps, then the step halves, down to 1. k stays fixed,
// so the weights cannot all shrink or grow together to fit. log, if set,
// hears each pass's loss.
func Fit(samples []Sample, w ai.Weights, k float64, firstStep int, log func(step, pass int, loss float64)) ai.Weights {
	params := Params(&w)
	best := Loss(samples, w, k)
	for step := max(firstStep, 1); step >= 1; step /= 2 {
		for pass := 1; ; pass++ {
			improved := false
			for _, p := range params {
				old := *p.Ptr
				for _, try := range []int{old + step, old - step} {
					*p.Ptr = try
					if l := Loss(samples, w, k); l < best {
						best, old, improved = l, try, true
						break
					}
				}
				*p.Ptr = old
			}
			if log != nil {
				log(step, pass, best)
			}
			if !improved {
				break
			}
		}
	}
	return w
}

// GoLiteral writes w as the Go composite literal ai.DefaultWeights and
// ai.RussianWeights are.
func GoLiteral(w ai.Weights) string {
	v := reflect.ValueOf(w)
	out := "ai.Weights{\n"
	for i := range v.NumField() {
		out += fmt.Sprintf("\t%s: %#v,\n", v.Type().Field(i).Name, v.Field(i).Interface())
	}
	return out + "}"
}
