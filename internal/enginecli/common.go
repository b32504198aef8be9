package enginecli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/bashni/bashni/ai"
)

// ErrUsage wraps every error about how a command was called: unknown or
// malformed flags, a bad position or player spec.
var ErrUsage = errors.New("usage error")

// newFlags makes a command's flag set, printing usage to stderr.
func newFlags(name, synopsis string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: bashni %s %s\n", name, synopsis)
		fs.PrintDefaults()
	}
	return fs
}

// parseFlags parses args and refuses stray arguments.
func parseFlags(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return fmt.Errorf("%w: %w", ErrUsage, flag.ErrHelp)
		}
		return fmt.Errorf("%w: %s: %v", ErrUsage, fs.Name(), err)
	}
	if fs.NArg() > 0 {
		fs.Usage()
		return fmt.Errorf("%w: %s: unexpected argument %q", ErrUsage, fs.Name(), fs.Arg(0))
	}
	return nil
}

// usagef makes a usage error.
func usagef(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrUsage, fmt.Sprintf(format, args...))
}

// formatScore writes a score in men ("+0.35") or as a forced result
// ("win in 7", "loss in 4", counted in plies).
func formatScore(s int) string {
	switch {
	case s > ai.MateScore-ai.MaxPly:
		return fmt.Sprintf("win in %d plies", ai.MateScore-s)
	case s < -ai.MateScore+ai.MaxPly:
		return fmt.Sprintf("loss in %d plies", ai.MateScore+s)
	}
	sign := "+"
	if s < 0 {
		sign, s = "-", -s
	}
	return fmt.Sprintf("%s%d.%02d", sign, s/100, s%100)
}

// levelNames lists the levels for help texts: "1 Novice, 2 Beginner, …".
func levelNames() string {
	var parts []string
	for _, lv := range ai.Levels {
		parts = append(parts, fmt.Sprintf("%d %s", lv.Number, lv.Name))
	}
	return strings.Join(parts, ", ")
}

// variantUsage describes the -variant flag of every command that takes one.
const variantUsage = "rules: bashni, bashni-mp (the other school of Bashni) or russian"
