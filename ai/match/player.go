package match

import (
	"errors"
	"fmt"
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
		var err error
		switch strings.ToLower(key) {
		case "level":
			p.Level, err = strconv.Atoi(val)
			if err == nil && (p.Level < 1 || p.Level > len(ai.Levels)) {
				err = fmt.Errorf("want 1 to %d", len(ai.Levels))
			}
		case "depth":
			p.Limits.Depth, err = strconv.Atoi(val)
			if err == nil && p.Limits.Depth < 1 {
				err = errors.New("want at least 1")
			}
		case "nodes":
			p.Limits.Nodes, err = strconv.ParseUint(val, 10, 64)
			if err == nil && p.Limits.Nodes == 0 {
				err = errors.New("want at least 1")
			}
		case "movetime":
			p.Limits.MoveTime, err = time.ParseDuration(val)
			if err == nil && p.Limits.MoveTime <= 0 {
				err = errors.New("want a positive duration")
			}
		case "scale":
			p.Scale, err = strconv.ParseFloat(val, 64)
			if err == nil && !(p.Scale > 0) {
				err = errors.New("want a positive factor")
			}
		case "threads":
			p.Options.Threads, err = strconv.Atoi(val)
			if err == nil && (p.Options.Threads < 1 || p.Options.Threads > ai.MaxThreads) {
				err = fmt.Errorf("want 1 to %d", ai.MaxThreads)
			}
		case "exe":
			p.Exe = val
			if val == "" {
				err = errors.New("want the path of a bashni binary")
			}
		case "noise":
			p.Noise, err = strconv.Atoi(val)
			if err == nil && p.Noise < 1 {
				err = errors.New("want at least 1 (hundredths of a man)")
			}
		case "weights":
			p.WeightsFile = val
			if val == "" {
				err = errors.New("want the path of a weights file")
			}
		case "hash":
			p.Options.HashMB, err = strconv.Atoi(val)
			if err == nil && p.Options.HashMB < 1 {
				err = errors.New("want at least 1 MB")
			}
		default:
			err = errors.New("unknown key (want level, depth, nodes, movetime, scale, noise, hash, threads, weights or exe)")
		}
		if err != nil {
			return p, fmt.Errorf("%w %q: %s: %v", ErrSpec, spec, part, err)
		}
	}
	if p.Exe != "" && p.Noise != 0 {
		return p, fmt.Errorf("%w %q: noise applies to this build's engine only", ErrSpec, spec)
	}
	if p.Exe != "" && p.Scale != 0 {
		return p, fmt.Errorf("%w %q: scale needs the levels' budgets, which an external build keeps to itself: give movetime or nodes", ErrSpec, spec)
	}
	if p.Exe == "" && p.Level == 0 && p.Limits == (ai.Limits{}) {
		return p, fmt.Errorf("%w %q: give a level or a limit (depth, nodes or movetime)", ErrSpec, spec)
	}
	return p, nil
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
