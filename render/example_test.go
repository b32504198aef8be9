package render_test

import (
	"bytes"
	"fmt"
	"image/png"

	"github.com/bashni/bashni/render"
	"github.com/bashni/bashni/rules"
)

// A bot makes one Renderer and draws every reply's board with it; here the
// start position after 1. c3-d4, seen from Black, in the contrast theme.
func ExampleRenderer_PNG() {
	r := render.New()
	p := rules.Start(rules.Bashni)
	var move rules.Move
	for _, m := range p.Legal() {
		if m.String() == "c3-d4" {
			move = m
		}
	}
	theme, err := render.ThemeByName("contrast")
	if err != nil {
		panic(err)
	}
	b, err := r.PNG(p.Play(move), render.Options{
		Perspective: rules.Black,
		Theme:       theme,
		LastMove:    &move,
	})
	if err != nil {
		panic(err)
	}
	cfg, err := png.DecodeConfig(bytes.NewReader(b))
	if err != nil {
		panic(err)
	}
	fmt.Printf("%dx%d, under 40 KB: %v\n", cfg.Width, cfg.Height, len(b) < 40<<10)
	// Output: 640x640, under 40 KB: true
}

// The move picker: the tower on c3 is picked, its destinations marked.
func ExampleOptions_picker() {
	p := rules.Start(rules.Bashni)
	c3, _ := rules.ParseSquare("c3")
	o := render.Options{Selected: &c3, Size: 480}
	for _, m := range p.Legal() {
		if m.From() == c3 {
			o.Targets = append(o.Targets, m.To())
		}
	}
	img, err := render.New().Image(p, o)
	if err != nil {
		panic(err)
	}
	fmt.Println(img.Bounds().Dx(), len(o.Targets))
	// Output: 480 2
}
