package main

import (
	"context"
	"os"

	"github.com/bashni/bashni/render"
	"github.com/bashni/bashni/rules"
)

func cmdRender(_ context.Context, e env) error {
	fs := newFlags(e, "render", "-fen POS -o FILE [-flip] [-theme NAME] [-size PX] [-last MOVE] [-variant V]")
	fen := fs.String("fen", "start", "position (start = the start position)")
	variant := fs.String("variant", "bashni", "rules: bashni, bashni-mp (the other school) or russian")
	out := fs.String("o", "", "output PNG file (required)")
	flip := fs.Bool("flip", false, "Black at the bottom")
	theme := fs.String("theme", "classic", "theme: classic or contrast")
	size := fs.Int("size", render.DefaultSize, "image size in pixels")
	last := fs.String("last", "", "highlight this move, legal in the position *before* it (give -fen of that position)")
	if err := parseFlags(fs, e.args); err != nil {
		return err
	}
	if *out == "" {
		return usageError("render: -o FILE is required")
	}
	p, err := positionFlag(*fen, *variant)
	if err != nil {
		return err
	}
	t, err := render.ThemeByName(*theme)
	if err != nil {
		return usageError("%v", err)
	}
	o := render.Options{Size: *size, Theme: t}
	if *flip {
		o.Perspective = rules.Black
	}
	if *last != "" {
		m, err := rules.ParseMove(&p, *last)
		if err != nil {
			return usageError("%v", err)
		}
		p = p.Play(m)
		o.LastMove = &m
	}
	png, err := render.New().PNG(p, o)
	if err != nil {
		return usageError("%v", err)
	}
	return os.WriteFile(*out, png, 0o644)
}
