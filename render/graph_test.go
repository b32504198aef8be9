package render

import (
	"bytes"
	"image/png"
	"slices"
	"testing"
)

func TestGraphPNGDecodesAtItsSize(t *testing.T) {
	scores := []int{0, 10, -20, 40, 35, 300, 280, 900, 2000}
	for _, tc := range []struct{ w, h, wantW, wantH int }{{0, 0, DefaultGraphWidth, DefaultGraphHeight}, {400, 200, 400, 200}} {
		b, err := GraphPNG(Graph{Scores: scores, Result: "1-0", Marks: []int{4, 99}, Width: tc.w, Height: tc.h})
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(bytes.NewReader(b))
		if err != nil {
			t.Fatalf("not a PNG: %v", err)
		}
		if got := img.Bounds().Size(); got.X != tc.wantW || got.Y != tc.wantH {
			t.Errorf("size %v, want %dx%d", got, tc.wantW, tc.wantH)
		}
		// White is winning at the end: the right edge's middle is White's
		// light colour, the bottom left corner Black's grey.
		r, _, _, _ := img.At(tc.wantW-3, tc.wantH*3/4).RGBA()
		if r>>8 < 0xe0 {
			t.Errorf("below the middle at the end, red %#x: want White's light side (the score is +20)", r>>8)
		}
	}
}

func TestGraphPNGRefusesBadInput(t *testing.T) {
	for _, g := range []Graph{{}, {Scores: []int{0}, Width: 10, Height: 10}, {Scores: []int{0}, Width: 5000, Height: 300}} {
		if _, err := GraphPNG(g); err == nil {
			t.Errorf("GraphPNG(%+v) succeeded", g)
		}
	}
}

// The graph's axis numbers the moves: a few round numbers, none past the
// game's end.
func TestMoveTicks(t *testing.T) {
	for _, tc := range []struct {
		n, max int
		want   []int
	}{
		{1, 10, nil},
		{9, 10, []int{1, 2, 3, 4}},
		{81, 10, []int{5, 10, 15, 20, 25, 30, 35, 40}},
		{121, 10, []int{10, 20, 30, 40, 50, 60}},
	} {
		if got := moveTicks(tc.n, tc.max); !slices.Equal(got, tc.want) {
			t.Errorf("moveTicks(%d, %d) = %v, want %v", tc.n, tc.max, got, tc.want)
		}
	}
}
