// Package enginecli holds the engine's command-line subcommands, for the main
// binary to wire: Think (one position, the engine's move), Match (engine
// against engine with a result table), Play (a game against the engine in
// the terminal), Puzzles (puzzles found in self-play or PDN games), and
// SelfPlay and Tune (fitting the evaluation's weights, package tune).
//
// Each command parses its own flags with a flag.FlagSet and returns an
// error wrapping ErrUsage for bad flags, positions or specs, so the caller
// can exit with status 2 for those; -h returns an error wrapping both
// ErrUsage and flag.ErrHelp.
package enginecli
