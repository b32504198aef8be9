package main

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"syscall"
	"time"

	"github.com/bashni/bashni/internal/enginecli"
	"github.com/bashni/bashni/play/mining"
	"github.com/bashni/bashni/play/training"
	"github.com/bashni/bashni/puzzle"
)

// cmdPuzzles is `bashni puzzles`: with -mine, the puzzle miner over the
// bot's store (below); else the finder over PDN files or self-play
// (internal/enginecli), which made the shipped set.
func cmdPuzzles(ctx context.Context, e env) error {
	if i := slices.IndexFunc(e.args, func(a string) bool { return a == "-mine" || a == "--mine" }); i >= 0 {
		e.args = slices.Delete(slices.Clone(e.args), i, i+1)
		return cmdMine(ctx, e)
	}
	return engineErr(enginecli.Puzzles(ctx, e.args, e.stdout, e.stderr))
}

// cmdMine mines the games finished since the stored mark for puzzles, on
// one thread at the lowest CPU priority, and ends: an operator schedules
// it (docs/hosting.md). Two runs at once are safe: the second finds the
// mark held and ends at once, successfully.
func cmdMine(ctx context.Context, e env) error {
	fs := newFlags(e, "puzzles -mine", "[-config FILE] [-games N] [-time D] [-nodes N] [-nice N] [-check]")
	configPath := fs.String("config", e.getenv("BASHNI_CONFIG"), "YAML config file (env BASHNI_CONFIG): the bot's store is read from it and the environment")
	games := fs.Int("games", 0, "mine at most this many finished games (0: every game since the mark)")
	limit := fs.Duration("time", 0, "stop after this long, keeping what was found (0: no limit)")
	nodes := fs.Uint64("nodes", 10000, "the judge's budget a move, as the shipped set's (uniqueness is confirmed at twice it)")
	check := fs.Bool("check", false, "check every puzzle kept again, as the shipped set's test does with -all-puzzles, instead of mining")
	nice := fs.Int("nice", 19, "the process's CPU niceness (19: the lowest priority, so the bot and the AI go first; 0: left as it is)")
	if err := parseFlags(fs, e.args); err != nil {
		return err
	}
	switch {
	case *games < 0:
		return usageError("puzzles -mine: -games %d: want 0 or more", *games)
	case *limit < 0:
		return usageError("puzzles -mine: -time %s: want 0 or more", *limit)
	case *nodes < 100:
		return usageError("puzzles -mine: -nodes %d: want at least 100", *nodes)
	case *nice < 0 || *nice > 19:
		return usageError("puzzles -mine: -nice %d: want 0 to 19", *nice)
	}
	cfg, err := loadConfigEnv(*configPath, e)
	if err != nil {
		return err
	}
	logger := newLogger(cfg, e.stderr)
	if *nice > 0 {
		if err := lowerPriority(*nice); err != nil {
			logger.Warn("puzzles: could not lower the CPU priority", "nice", *nice, "err", err)
		}
	}
	store, err := openStore(ctx, cfg, e.now, logger)
	if err != nil {
		return err
	}
	defer store.Close()
	shipped, err := puzzle.Shipped()
	if err != nil {
		return fmt.Errorf("puzzles: the built-in puzzles: %w", err)
	}
	if *limit > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, *limit)
		defer cancel()
	}
	if *check {
		return checkMined(ctx, e, store, *nodes)
	}
	miner := mining.New(store, shipped, e.now, logger, mining.Options{Nodes: *nodes, Holder: processName()})
	start, cpu := e.now(), processCPU()
	rep, err := miner.Run(ctx, *games)
	if errors.Is(err, mining.ErrHeld) {
		fmt.Fprintf(e.stdout, "puzzles: %v: nothing to do\n", err)
		return nil
	}
	fmt.Fprintf(e.stdout, "puzzles: %d games gone through (%d mined), %d puzzles found, %d kept; %s wall, %s CPU; %d games since the first run\n",
		rep.Games, rep.Mined, rep.Found, rep.Kept, e.now().Sub(start).Round(time.Millisecond), (processCPU() - cpu).Round(time.Millisecond), rep.Mark.Games)
	return err
}

// checkMined is `bashni puzzles -mine -check`: every puzzle kept checked
// again; an error if any fails, naming each.
func checkMined(ctx context.Context, e env, store Store, nodes uint64) error {
	n, failed, err := mining.CheckAll(ctx, store, nodes)
	for _, f := range failed {
		fmt.Fprintln(e.stderr, "puzzles:", f)
	}
	fmt.Fprintf(e.stdout, "puzzles: %d mined puzzles checked at %d nodes, %d failed\n", n, 2*nodes, len(failed))
	if err == nil && len(failed) > 0 {
		err = fmt.Errorf("puzzles: %d of %d mined puzzles fail the check", len(failed), n)
	}
	return err
}

// processCPU is the CPU this process has used, user and system.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// addFound puts puzzles found here into the trainer's pool, each with
// the game it came from.
func addFound(p *training.Puzzles) func([]mining.Found) {
	return func(fs []mining.Found) {
		ps := make([]puzzle.Puzzle, len(fs))
		from := make([]training.Origin, len(fs))
		for i, f := range fs {
			ps[i] = f.Puzzle
			from[i] = training.Origin{Game: f.Rec.Game, White: f.Rec.White, Black: f.Rec.Black}
		}
		p.Add(ps, from)
	}
}
