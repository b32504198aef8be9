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

// WriteSamples writes one sample a line: White's points, a tab, the
// position in the position format (docs/rules.md). Lines starting with # are
// comments.
func WriteSamples(w io.Writer, samples []Sample) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "# %d positions: White's points in the game, then the position\n", len(samples))
	for _, s := range samples {
		fmt.Fprintf(bw, "%s\t%s\n", strconv.FormatFloat(s.Result, 'f', -1, 64), s.Position)
	}
	return bw.Flush()
}

// ReadSamples reads what WriteSamples wrote. A bad line is an error naming
// its number; nothing is returned then.
func ReadSamples(r io.Reader) ([]Sample, error) {
	var out []Sample
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		res, pos, ok := strings.Cut(line, "\t")
		if !ok {
			return nil, fmt.Errorf("%w: line %d: want points, a tab and a position", ErrSamples, n)
		}
		var s Sample
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
