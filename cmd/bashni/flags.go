package main

import (
	"errors"
	"flag"
	"fmt"
	"strings"

	"github.com/bashni/bashni/rules"
)

// errHelp is returned when the user asked for -h: not a failure.
var errHelp = flag.ErrHelp

// newFlags makes a flag set for one subcommand that reports errors instead
// of exiting, and writes its usage to the environment's stderr.
func newFlags(e env, name, usage string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(e.stderr)
	fs.Usage = func() {
		fmt.Fprintf(e.stderr, "usage: bashni %s %s\n", name, usage)
		fs.PrintDefaults()
	}
	return fs
}

// parseFlags parses args and turns a bad command line into a usage error.
func parseFlags(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return errHelp
		}
		return usageError("%s: %v", fs.Name(), err)
	}
	if fs.NArg() > 0 {
		return usageError("%s: unexpected arguments %q", fs.Name(), strings.Join(fs.Args(), " "))
	}
	return nil
}

// positionFlag reads -fen and -variant into a position.
func positionFlag(fen, variant string) (rules.Position, error) {
	v, err := rules.ParseVariant(variant)
	if err != nil {
		return rules.Position{}, usageError("%v", err)
	}
	if fen == "" || fen == "start" {
		return rules.Start(v), nil
	}
	p, err := rules.ParsePosition(fen)
	if err != nil {
		return rules.Position{}, usageError("%v", err)
	}
	return p.WithVariant(v), nil
}
