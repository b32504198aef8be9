package main

import (
	"context"
	"fmt"
	"time"

	"github.com/bashni/bashni/rules"
)

func cmdPerft(ctx context.Context, e env) error {
	fs := newFlags(e, "perft", "-depth N [-fen POS] [-variant bashni|bashni-mp|russian] [-divide]")
	depth := fs.Int("depth", 6, "depth in plies (1-20)")
	fen := fs.String("fen", "start", "position (start = the start position)")
	variant := fs.String("variant", "bashni", "rules: bashni, bashni-mp (the other school) or russian")
	divide := fs.Bool("divide", false, "print the count below each root move")
	if err := parseFlags(fs, e.args); err != nil {
		return err
	}
	if *depth < 1 || *depth > 20 {
		return usageError("perft: -depth %d is out of range 1-20", *depth)
	}
	p, err := positionFlag(*fen, *variant)
	if err != nil {
		return err
	}
	if *divide {
		var total uint64
		start := time.Now()
		for _, d := range rules.Divide(p, *depth) {
			fmt.Fprintf(e.stdout, "%s %d\n", d.Move, d.Nodes)
			total += d.Nodes
			if ctx.Err() != nil {
				return ctx.Err()
			}
		}
		fmt.Fprintf(e.stdout, "total %d in %v\n", total, time.Since(start).Round(time.Millisecond))
		return nil
	}
	for d := 1; d <= *depth; d++ {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		start := time.Now()
		n := rules.Perft(p, d)
		el := time.Since(start)
		fmt.Fprintf(e.stdout, "depth %2d  %14d  %10v  %6.1f Mnodes/s\n", d, n, el.Round(time.Microsecond), float64(n)/el.Seconds()/1e6)
	}
	return nil
}
