package tune

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/bashni/bashni/rules"
)

// Sample is one quiet position (its side to move has no capture) from a
// self-play game, with the points White scored in that game: 1, ½ or 0.
type Sample struct {
	Position rules.Position
	Result   float64
}

// ErrSamples wraps every error reading a samples file.
var ErrSamples = errors.New("tune: bad samples file")

// variantLine starts the comment line that gives the rules of the
// positions after it: the position format does not say them, and until
// such a line they are Bashni's.
const variantLine = "# variant "

// WriteSamples writes one sample a line: White's points, a tab, the
// position in the position format (docs/rules.md). Lines starting with # are
// comments, but for "# variant NAME" before positions of a variant other
// than the one above them (Bashni at the top).
func WriteSamples(w io.Writer, samples []Sample) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "# %d positions: White's points in the game, then the position\n", len(samples))
	variant := rules.Bashni
	for _, s := range samples {
		if v := s.Position.Variant(); v != variant {
			fmt.Fprintf(bw, "%s%s\n", variantLine, v)
			variant = v
		}
		fmt.Fprintf(bw, "%s\t%s\n", strconv.FormatFloat(s.Result, 'f', -1, 64), s.Position)
	}
	return bw.Flush()
}

// ReadSamples reads what WriteSamples wrote. A bad line is an error naming
// its number; nothing is returned then.
func ReadSamples(r io.Reader) ([]Sample, error) {
	var out []Sample
	variant := rules.Bashni
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if name, ok := strings.CutPrefix(line, variantLine); ok {
			v, err := rules.ParseVariant(name)
			if err != nil {
				return nil, fmt.Errorf("%w: line %d: %v", ErrSamples, n, err)
			}
			variant = v
			continue
		}
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		res, pos, ok := strings.Cut(line, "\t")
		if !ok {
			return nil, fmt.Errorf("%w: line %d: want points, a tab and a position", ErrSamples, n)
		}
		s := Sample{Position: rules.Start(variant)}
		switch res {
		case "1":
			s.Result = 1
		case "0.5":
			s.Result = 0.5
		case "0":
			s.Result = 0
		default:
			return nil, fmt.Errorf("%w: line %d: points %q (want 1, 0.5 or 0)", ErrSamples, n, res)
		}
		if err := s.Position.UnmarshalText([]byte(pos)); err != nil {
			return nil, fmt.Errorf("%w: line %d: %v", ErrSamples, n, err)
		}
		out = append(out, s)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrSamples, err)
	}
	return out, nil
}
