package main

import (
	"context"
	"errors"

	"github.com/bashni/bashni/internal/enginecli"
)

func cmdThink(ctx context.Context, e env) error {
	return engineErr(enginecli.Think(ctx, e.args, e.stdout, e.stderr))
}

func cmdMatch(ctx context.Context, e env) error {
	return engineErr(enginecli.Match(ctx, e.args, e.stdout, e.stderr))
}

func cmdSelfPlay(ctx context.Context, e env) error {
	return engineErr(enginecli.SelfPlay(ctx, e.args, e.stdout, e.stderr))
}

func cmdTune(ctx context.Context, e env) error {
	return engineErr(enginecli.Tune(ctx, e.args, e.stdout, e.stderr))
}

func cmdPlay(ctx context.Context, e env) error {
	return engineErr(enginecli.Play(ctx, e.args, e.stdin, e.stdout, e.stderr))
}

// engineErr maps the engine commands' usage errors to this binary's.
func engineErr(err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, errHelp):
		return errHelp
	case errors.Is(err, enginecli.ErrUsage):
		return usageError("%v", err)
	}
	return err
}
