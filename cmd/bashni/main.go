// Command bashni is the Bashni bot and its tools: the Telegram bot, an AI
// worker, a terminal game, engine analysis and matches, puzzle finding,
// self-play and weight tuning, move generation, perft and board rendering.
// Run "bashni help" for the list; the table of
// subcommands is commands, below.
//
// How "bashni bot" runs (who owns each goroutine, the shutdown order, and
// which state lives only in the process) is in docs/runtime.md.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"
)

func main() {
	os.Exit(exitCode(run(context.Background(), os.Args[1:], os.Environ(), os.Stdin, os.Stdout, os.Stderr), os.Stderr))
}

// errUsage marks errors caused by the command line or its input (bad flags,
// an invalid position or move): they exit with status 2.
var errUsage = errors.New("usage")

// usageError wraps err so that it exits with status 2.
func usageError(format string, args ...any) error {
	return fmt.Errorf("%w: %s", errUsage, fmt.Sprintf(format, args...))
}

// exitCode prints err and turns it into the process's exit status.
func exitCode(err error, stderr io.Writer) int {
	switch {
	case err == nil:
		return 0
	case errors.Is(err, errHelp):
		return 0
	case errors.Is(err, errUsage):
		fmt.Fprintln(stderr, "bashni:", unwrapUsage(err))
		return 2
	default:
		fmt.Fprintln(stderr, "bashni:", err)
		return 1
	}
}

// unwrapUsage drops the "usage: " prefix that errUsage adds to the text.
func unwrapUsage(err error) string {
	s := err.Error()
	const prefix = "usage: "
	if len(s) > len(prefix) && s[:len(prefix)] == prefix {
		return s[len(prefix):]
	}
	return s
}

// run is the whole program; main only supplies the process's environment
// (environ: "KEY=value" lines, as os.Environ gives them), so tests call run
// directly.
func run(ctx context.Context, args []string, environ []string, stdin io.Reader, stdout, stderr io.Writer) error {
	return runAt(ctx, args, environ, stdin, stdout, stderr, time.Now)
}

// runAt is run deciding about time by now: the process's one clock (the
// end-to-end tests' child processes share one they move by hand).
func runAt(ctx context.Context, args []string, environ []string, stdin io.Reader, stdout, stderr io.Writer, now func() time.Time) error {
	vars := make(map[string]string, len(environ))
	for _, kv := range environ {
		if k, v, ok := strings.Cut(kv, "="); ok {
			vars[k] = v
		}
	}
	getenv := func(k string) string { return vars[k] }
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	if len(args) == 0 {
		printHelp(stderr)
		return usageError("no subcommand given")
	}
	name, rest := args[0], args[1:]
	for _, c := range commands {
		if c.name == name {
			// The process's one clock: every layer below decides about
			// time (deadlines, expiry, reminders) with this, passed down.
			return c.run(ctx, env{args: rest, getenv: getenv, environ: environ, stdin: stdin, stdout: stdout, stderr: stderr, now: now})
		}
	}
	if name == "help" || name == "-h" || name == "-help" || name == "--help" {
		printHelp(stdout)
		return nil
	}
	printHelp(stderr)
	return usageError("unknown subcommand %q", name)
}

// env is what a subcommand gets from the process.
type env struct {
	args   []string
	getenv func(string) string
	// environ lists the variables set, so unknown BASHNI_* ones are
	// refused rather than silently ignored.
	environ []string
	stdin   io.Reader
	stdout  io.Writer
	stderr  io.Writer
	now     func() time.Time
}

type command struct {
	name, summary string
	run           func(context.Context, env) error
}

// commands is every subcommand, in the order help lists them.
var commands = []command{
	{"bot", "run the Telegram bot (token from TELEGRAM_BOT_TOKEN or the config file)", cmdBot},
	{"think", "the engine's move in one position, with depth, score, nodes and line", cmdThink},
	{"match", "engine against engine in colour-swapped pairs, with an Elo estimate", cmdMatch},
	{"selfplay", "self-play games written as labelled positions for tune", cmdSelfPlay},
	{"puzzles", "find puzzles (one winning move, then the next) in PDN games or self-play", cmdPuzzles},
	{"tune", "fit the evaluation weights to selfplay positions (Texel tuning)", cmdTune},
	{"play", "a game against the AI in the terminal", cmdPlay},
	{"moves", "list the legal moves of a position, each with the position after it", cmdMoves},
	{"perft", "count move sequences to a depth (move generator check and speed)", cmdPerft},
	{"render", "draw a position as a PNG", cmdRender},
	{"worker", "compute AI moves from the Redis queue for bots with ai.queue: redis", cmdWorker},
}

func printHelp(w io.Writer) {
	fmt.Fprintln(w, "usage: bashni <subcommand> [flags]")
	fmt.Fprintln(w)
	for _, c := range commands {
		fmt.Fprintf(w, "  %-9s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, `Run "bashni <subcommand> -h" for its flags.`)
}
