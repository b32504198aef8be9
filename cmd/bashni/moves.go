package main

import (
	"bufio"
	"context"
)

func cmdMoves(_ context.Context, e env) error {
	fs := newFlags(e, "moves", "-fen POS [-variant bashni|bashni-mp|russian]")
	fen := fs.String("fen", "start", "position in the position format or column notation (start = the start position)")
	variant := fs.String("variant", "bashni", "rules: bashni, bashni-mp (the other school) or russian")
	if err := parseFlags(fs, e.args); err != nil {
		return err
	}
	p, err := positionFlag(*fen, *variant)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(e.stdout)
	for _, m := range p.Legal() {
		w.WriteString(m.String())
		w.WriteByte(' ')
		w.WriteString(p.Play(m).String())
		w.WriteByte('\n')
	}
	return w.Flush()
}
