package render

import (
	"bytes"
	"errors"
	"image/color"
	"image/png"
	"math"
	"strconv"
	"sync"

	"github.com/fogleman/gg"
	"github.com/golang/freetype/truetype"
	"golang.org/x/image/font/gofont/goregular"
)

// Graph is an evaluation graph of a game: the engine's score after each
// ply, White's advantage as white area above the middle line and Black's as
// dark area below it, the result in a corner and the worst moves marked.
type Graph struct {
	// Scores are in hundredths of a man from White's point of view, one
	// per position (the start and after each move).
	Scores []int
	// Result is printed in the top left corner, e.g. "1-0".
	Result string
	// Marks are plies whose move is marked as a mistake: the dot sits on
	// the score after it.
	Marks []int
	// Width and Height in pixels (DefaultGraphWidth × DefaultGraphHeight
	// when 0).
	Width, Height int
}

// The graph's default size: wide for a phone's screen, small to send.
const (
	DefaultGraphWidth  = 800
	DefaultGraphHeight = 360
)

// graphFont is parsed once; each drawing makes its own face, as a face is
// not safe for concurrent use.
var graphFont = sync.OnceValues(func() (*truetype.Font, error) { return truetype.Parse(goregular.TTF) })

// squash maps a score to -1..1 the way winning chances grow: a man is a
// clear edge, five men are nearly won, and a forced win is the edge.
func squash(s int) float64 {
	return 2/(1+math.Exp(-float64(s)/250)) - 1
}

// GraphPNG draws g as a PNG. It is safe for concurrent use.
func GraphPNG(g Graph) ([]byte, error) {
	if len(g.Scores) == 0 {
		return nil, errors.New("render: graph: no scores")
	}
	w, h := g.Width, g.Height
	if w == 0 && h == 0 {
		w, h = DefaultGraphWidth, DefaultGraphHeight
	}
	if w < 100 || h < 60 || w > 4000 || h > 4000 {
		return nil, errors.New("render: graph: size out of range (100×60 to 4000×4000)")
	}
	f, err := graphFont()
	if err != nil {
		return nil, err
	}
	const pad = 12.0
	// A strip under the plot numbers the moves, so "the game turned at move
	// 14" can be read off it.
	axisH := math.Max(14, math.Round(float64(h)/11))
	left, right, top, bottom := pad, float64(w)-pad, pad, float64(h)-axisH-pad/2
	mid := (top + bottom) / 2
	n := len(g.Scores)
	x := func(i int) float64 {
		if n == 1 {
			return left
		}
		return left + (right-left)*float64(i)/float64(n-1)
	}
	y := func(s int) float64 { return mid - squash(s)*(bottom-top)/2 }

	dc := gg.NewContext(w, h)
	dc.SetColor(color.RGBA{0x8a, 0x8f, 0x98, 0xff}) // Black's side
	dc.Clear()
	// White's side: everything below the curve, so White's advantage
	// grows the light area upward.
	dc.MoveTo(0, float64(h))
	dc.LineTo(0, y(g.Scores[0]))
	for i, s := range g.Scores {
		dc.LineTo(x(i), y(s))
	}
	dc.LineTo(float64(w), y(g.Scores[n-1]))
	dc.LineTo(float64(w), float64(h))
	dc.ClosePath()
	dc.SetColor(color.RGBA{0xf4, 0xf1, 0xea, 0xff})
	dc.Fill()
	// The curve, the even line and the move grid.
	dc.SetColor(color.RGBA{0x30, 0x30, 0x30, 0xff})
	dc.SetLineWidth(2)
	dc.NewSubPath()
	for i, s := range g.Scores {
		dc.LineTo(x(i), y(s))
	}
	dc.Stroke()
	dc.SetColor(color.NRGBA{0xc0, 0x40, 0x30, 0x90})
	dc.SetLineWidth(1)
	dc.DrawLine(left, mid, right, mid)
	dc.Stroke()
	// Mistakes: red dots on the score after the move.
	dc.SetColor(color.RGBA{0xd0, 0x20, 0x20, 0xff})
	for _, ply := range g.Marks {
		if ply >= 0 && ply+1 < n {
			dc.DrawCircle(x(ply+1), y(g.Scores[ply+1]), 5)
			dc.Fill()
		}
	}
	// The move axis: a strip, a tick and a number at every few moves.
	dc.SetColor(color.RGBA{0xe6, 0xe2, 0xd8, 0xff})
	dc.DrawRectangle(0, bottom+pad/2, float64(w), float64(h)-bottom-pad/2)
	dc.Fill()
	axisFace := truetype.NewFace(f, &truetype.Options{Size: axisH * 0.7})
	defer axisFace.Close()
	dc.SetFontFace(axisFace)
	for _, m := range moveTicks(n, int((right-left)/(axisH*2.5))) {
		tx := x(2 * m)
		dc.SetColor(color.NRGBA{0x30, 0x30, 0x30, 0x50})
		dc.SetLineWidth(1)
		dc.DrawLine(tx, top, tx, bottom+pad/2)
		dc.Stroke()
		dc.SetColor(color.RGBA{0x30, 0x30, 0x30, 0xff})
		label := strconv.Itoa(m)
		lw, _ := dc.MeasureString(label)
		dc.DrawStringAnchored(label, math.Min(tx, float64(w)-lw/2-2), bottom+pad/2+axisH/2, 0.5, 0.4)
	}
	if g.Result != "" {
		face := truetype.NewFace(f, &truetype.Options{Size: float64(h) / 12})
		defer face.Close()
		dc.SetFontFace(face)
		tw, th := dc.MeasureString(g.Result)
		dc.SetColor(color.NRGBA{0xff, 0xff, 0xff, 0xd0})
		dc.DrawRoundedRectangle(left, top, tw+2*pad, th+pad, 6)
		dc.Fill()
		dc.SetColor(color.Black)
		dc.DrawStringAnchored(g.Result, left+pad+tw/2, top+(th+pad)/2, 0.5, 0.35)
	}
	var buf bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestSpeed}
	if err := enc.Encode(&buf, dc.Image()); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// moveTicks picks the move numbers the axis of a graph of n positions
// labels: multiples of 1, 2, 5, 10, 20 or 50, at most max of them. Move m
// sits on the position after Black's m-th reply, index 2m.
func moveTicks(n, max int) []int {
	moves := (n - 1) / 2
	if moves < 1 || max < 1 {
		return nil
	}
	step := 50
	for _, s := range []int{1, 2, 5, 10, 20, 50} {
		if moves/s <= max {
			step = s
			break
		}
	}
	var out []int
	for m := step; m <= moves; m += step {
		out = append(out, m)
	}
	return out
}
