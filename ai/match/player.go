package match

import (
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/bashni/bashni/ai"
)

// ErrSpec wraps every error about a player spec.
var ErrSpec = errors.New("match: bad player spec")

// Player is one side of a match: an engine configuration.
type Player struct {
	// Name is shown in tables; ParseSpec sets it to the spec.
	Name string
	// Level is 1..len(ai.Levels), or 0 to search exactly Limits.
	Level int
	// Limits, where non-zero, replace the level's (after scaling).
	Limits ai.Limits
	// Scale multiplies the level's node and time budgets (0 means 1), so a
	// match can play the levels' own configurations faster.
	Scale float64
	// Options make the player's engines (table size, threads, evaluation
	// weights).
	Options ai.Options
	// Exe, when set, is another build of bashni that plays this side:
	// each move is its `think` answer (see external.go). Level, Limits,
	// HashMB and Threads become its flags; Scale and Weights do not apply.
	Exe string
	// Noise, when non-zero, replaces the level's root randomness, so a
	// candidate level can be played before it is one.
	Noise int
	// WeightsFile, when set, names a JSON file of evaluation weights (as
	// bashni tune writes) for the caller to load into Options.Weights.
	WeightsFile string
}

// ParseSpec reads a player spec: comma-separated key=value pairs among
// level=N, depth=N, nodes=N, movetime=DURATION, scale=F, hash=MB,
// threads=N, noise=N, weights=FILE and exe=PATH, e.g. "level=6", "depth=5", "nodes=20000",
// "level=6,scale=0.1" or "exe=/tmp/bashni-old,movetime=1s" (another build
// of bashni, asked through its think command; alone it plays that build's
// full strength).
func ParseSpec(spec string) (Player, error) {
	p := Player{Name: spec}
	if strings.TrimSpace(spec) == "" {
		return p, fmt.Errorf("%w: empty (want e.g. level=6, depth=5 or nodes=20000)", ErrSpec)
	}
	for _, part := range strings.Split(spec, ",") {
		key, val, ok := strings.Cut(strings.TrimSpace(part), "=")
		if !ok {
			return p, fmt.Errorf("%w %q: %q is not key=value", ErrSpec, spec, part)
		}
		set, known := specKeys[strings.ToLower(key)]
		if !known {
			return p, fmt.Errorf("%w %q: %s: unknown key (want %s)", ErrSpec, spec, part, specKeyList())
		}
		if err := set(&p, val); err != nil {
			return p, fmt.Errorf("%w %q: %s: %v", ErrSpec, spec, part, err)
		}
	}
	if err := p.checkCombination(); err != nil {
		return p, fmt.Errorf("%w %q: %v", ErrSpec, spec, err)
	}
	return p, nil
}

// specKeys sets one field of a Player from a spec's value, checking its
// range; a new key is one line here.
var specKeys = map[string]func(p *Player, val string) error{
	"level": func(p *Player, v string) error { return parseInt(v, &p.Level, 1, len(ai.Levels), "") },
	"depth": func(p *Player, v string) error { return parseInt(v, &p.Limits.Depth, 1, 0, "") },
	"nodes": func(p *Player, v string) error {
		n, err := strconv.ParseUint(v, 10, 64)
		if err == nil && n == 0 {
			err = errors.New("want at least 1")
		}
		p.Limits.Nodes = n
		return err
	},
	"movetime": func(p *Player, v string) error {
		d, err := time.ParseDuration(v)
		if err == nil && d <= 0 {
			err = errors.New("want a positive duration")
		}
		p.Limits.MoveTime = d
		return err
	},
	"scale": func(p *Player, v string) error {
		f, err := strconv.ParseFloat(v, 64)
		if err == nil && !(f > 0) {
			err = errors.New("want a positive factor")
		}
		p.Scale = f
		return err
	},
	"threads": func(p *Player, v string) error { return parseInt(v, &p.Options.Threads, 1, ai.MaxThreads, "") },
	"noise":   func(p *Player, v string) error { return parseInt(v, &p.Noise, 1, 0, " (hundredths of a man)") },
	"hash":    func(p *Player, v string) error { return parseInt(v, &p.Options.HashMB, 1, 0, " MB") },
	"exe":     func(p *Player, v string) error { return parsePath(v, &p.Exe, "a bashni binary") },
	"weights": func(p *Player, v string) error { return parsePath(v, &p.WeightsFile, "a weights file") },
}

// specKeyList names the keys for an error message, in a stable order.
func specKeyList() string {
	keys := make([]string, 0, len(specKeys))
	for k := range specKeys {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return strings.Join(keys, ", ")
}

// parseInt reads an integer of at least min and, when max > 0, at most max;
// unit follows the bound in the error ("want at least 1 MB").
func parseInt(v string, dst *int, min, max int, unit string) error {
	n, err := strconv.Atoi(v)
	*dst = n
	switch {
	case err != nil:
		return err
	case max > 0 && (n < min || n > max):
		return fmt.Errorf("want %d to %d%s", min, max, unit)
	case n < min:
		return fmt.Errorf("want at least %d%s", min, unit)
	}
	return nil
}

// parsePath takes a non-empty path.
func parsePath(v string, dst *string, what string) error {
	*dst = v
	if v == "" {
		return fmt.Errorf("want the path of %s", what)
	}
	return nil
}

// checkCombination refuses specs whose keys contradict each other.
func (p Player) checkCombination() error {
	switch {
	case p.Exe != "" && p.Noise != 0:
		return errors.New("noise applies to this build's engine only")
	case p.Exe != "" && p.Scale != 0:
		return errors.New("scale needs the levels' budgets, which an external build keeps to itself: give movetime or nodes")
	case p.Exe == "" && p.Level == 0 && p.Limits == (ai.Limits{}):
		return errors.New("give a level or a limit (depth, nodes or movetime)")
	}
	return nil
}

// request builds the engine request for this player, its level's budgets
// scaled and then overridden by its own limits.
func (p Player) request() ai.Request {
	req := ai.Request{Level: p.Level, Noise: p.Noise}
	if p.Level > 0 {
		lim := ai.Levels[p.Level-1].Limits
		if p.Scale > 0 && p.Scale != 1 {
			lim.Nodes = uint64(float64(lim.Nodes) * p.Scale)
			lim.MoveTime = time.Duration(float64(lim.MoveTime) * p.Scale)
			if lim.Nodes == 0 && ai.Levels[p.Level-1].Limits.Nodes > 0 {
				lim.Nodes = 1
			}
		}
		req.Limits = lim
	}
	if p.Limits.Depth != 0 {
		req.Limits.Depth = p.Limits.Depth
	}
	if p.Limits.Nodes != 0 {
		req.Limits.Nodes = p.Limits.Nodes
	}
	if p.Limits.MoveTime != 0 {
		req.Limits.MoveTime = p.Limits.MoveTime
	}
	return req
}
