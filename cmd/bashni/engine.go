package main

import (
	"context"
	"errors"

	aicli "github.com/bashni/bashni/ai/cli"
)

func init() {
	register("think", "the engine's move in one position, with depth, score, nodes and line", func(ctx context.Context, e env) error {
		return engineErr(aicli.Think(ctx, e.args, e.stdout, e.stderr))
	})
	register("match", "engine against engine in colour-swapped pairs, with an Elo estimate", func(ctx context.Context, e env) error {
		return engineErr(aicli.Match(ctx, e.args, e.stdout, e.stderr))
	})
	register("play", "a game against the AI in the terminal", func(ctx context.Context, e env) error {
		return engineErr(aicli.Play(ctx, e.args, e.stdin, e.stdout, e.stderr))
	})
}

// engineErr maps the engine commands' usage errors to this binary's.
func engineErr(err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, errHelp):
		return errHelp
	case errors.Is(err, aicli.ErrUsage):
		return usageError("%v", err)
	}
	return err
}
