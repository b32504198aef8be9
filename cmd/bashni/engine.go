package main

import (
	"context"
	"errors"

	aicli "github.com/bashni/bashni/ai/cli"
)

func cmdThink(ctx context.Context, e env) error {
	return engineErr(aicli.Think(ctx, e.args, e.stdout, e.stderr))
}

func cmdMatch(ctx context.Context, e env) error {
	return engineErr(aicli.Match(ctx, e.args, e.stdout, e.stderr))
}

func cmdPlay(ctx context.Context, e env) error {
	return engineErr(aicli.Play(ctx, e.args, e.stdin, e.stdout, e.stderr))
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
