package render

import (
	"bytes"
	"flag"
	"fmt"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/bashni/bashni/rules"
)

var update = flag.Bool("update", false, "rewrite the golden images in testdata")

// Positions the tests draw. Each is legal by docs/rules.md: at most twelve pieces
// a colour, two colour bands a tower, no man on its far rank.
const (
	// tallText mixes towers of every kind: a king on a1, a king-topped
	// four-high tower, a six-high tower with a king inside, a seven-high tower
	// (past what is drawn piece by piece), an all-black tower with a king at
	// the bottom.
	tallText = "w:a1W,c3Wwbb,e5bBwwWw,d4BbWwwww,g5bbbB,h8Bb"
	// highestText is the one tower of all 24 pieces, kings in both blocks.
	highestText = "b:d4BbbbbbBbbbbbWwwwwwwwwwwW"
	// captureText has a long king capture for White.
	captureText = "w:a3Ww,b4b,d6bb,f6bw,f4b,h4b,h6Bw,b8b"
)

// longestCapture returns the legal capture with the most legs.
func longestCapture(t testing.TB, p rules.Position) rules.Move {
	t.Helper()
	var best rules.Move
	for _, m := range p.Legal() {
		if m.IsCapture() && m.Len() > best.Len() {
			best = m
		}
	}
	if best.Len() == 0 {
		t.Fatalf("no capture in %v", p)
	}
	return best
}

type goldenCase struct {
	name string
	pos  rules.Position
	opt  Options
}

func goldenCases(t testing.TB) []goldenCase {
	capPos := rules.MustParsePosition(captureText)
	capMove := longestCapture(t, capPos)
	after := capPos.Play(capMove)
	contrast, _ := ThemeByName("contrast")
	sel := rules.Square(9) // c3
	start := rules.Start(rules.Bashni)
	var targets []rules.Square
	for _, m := range start.Legal() {
		if m.From() == sel {
			targets = append(targets, m.To())
		}
	}
	cases := []goldenCase{
		{"start", start, Options{}},
		{"start_black", start, Options{Perspective: rules.Black}},
		{"tall", rules.MustParsePosition(tallText), Options{}},
		{"tall_contrast", rules.MustParsePosition(tallText), Options{Theme: contrast}},
		{"highest", rules.MustParsePosition(highestText), Options{Size: 480}},
		{"capture", after, Options{LastMove: &capMove}},
		{"capture_contrast_black", after, Options{LastMove: &capMove, Theme: contrast, Perspective: rules.Black}},
		{"picker", start, Options{Selected: &sel, Targets: targets, Size: 320}},
		{"game_over", after, Options{LastMove: &capMove, Caption: "Game over · 1-0 · no moves left"}},
		{"game_over_ru_320", after, Options{LastMove: &capMove, Size: 320, Caption: "Партия окончена · 1-0"}},
	}
	for _, b := range towerBoards(t) {
		for _, size := range []int{320, 640} {
			cases = append(cases, goldenCase{fmt.Sprintf("towers_%s_%d", b.name, size), b.pos, Options{Size: size}})
		}
	}
	return cases
}

// towerBoard is a board of towers of the heights its name lists.
type towerBoard struct {
	name string
	pos  rules.Position
}

// towerBoards puts a tower of every height from 2 to 24 on as few boards as
// the 12 pieces a side allow: each of a colour block over the other's,
// with a king in each block, owners alternating, heights spread out.
func towerBoards(t testing.TB) []towerBoard {
	t.Helper()
	type board struct {
		heights []int
		w, b    int
	}
	var boards []*board
	for h := rules.MaxTowerHeight; h >= 2; h-- {
		own, pr := (h+1)/2, h/2
		w, b := own, pr
		if h%2 == 1 {
			w, b = pr, own
		}
		placed := false
		for _, bd := range boards {
			if bd.w+w <= 12 && bd.b+b <= 12 {
				bd.heights = append(bd.heights, h)
				bd.w, bd.b = bd.w+w, bd.b+b
				placed = true
				break
			}
		}
		if !placed {
			boards = append(boards, &board{heights: []int{h}, w: w, b: b})
		}
	}
	squares := []string{"d4", "f6", "b6", "f2", "h4", "b2", "d6", "h6"}
	var out []towerBoard
	for _, bd := range boards {
		var entries, names []string
		for i, h := range bd.heights {
			owner := rules.White
			if h%2 == 1 {
				owner = rules.Black
			}
			entries = append(entries, squares[i]+mixedTower(owner, h, true))
			names = append(names, strconv.Itoa(h))
		}
		p, err := rules.ParsePosition("w:" + strings.Join(entries, ","))
		if err != nil {
			t.Fatalf("towers %v: %v", bd.heights, err)
		}
		out = append(out, towerBoard{strings.Join(names, "-"), p})
	}
	return out
}

func decodePNG(t testing.TB, b []byte) image.Image {
	t.Helper()
	m, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("decoding the png: %v", err)
	}
	return m
}

// TestGolden compares decoded pixels with testdata/*.png; -update rewrites
// them (look at them before committing).
func TestGolden(t *testing.T) {
	r := shared
	for _, c := range goldenCases(t) {
		t.Run(c.name, func(t *testing.T) {
			b, err := r.PNG(c.pos, c.opt)
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join("testdata", c.name+".png")
			if *update {
				if err := os.WriteFile(path, b, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			got, exp := decodePNG(t, b), decodePNG(t, want)
			if got.Bounds() != exp.Bounds() {
				t.Fatalf("bounds %v, want %v", got.Bounds(), exp.Bounds())
			}
			diff := 0
			var first image.Point
			bb := got.Bounds()
			for y := bb.Min.Y; y < bb.Max.Y; y++ {
				for x := bb.Min.X; x < bb.Max.X; x++ {
					r1, g1, b1, _ := got.At(x, y).RGBA()
					r2, g2, b2, _ := exp.At(x, y).RGBA()
					if r1 != r2 || g1 != g2 || b1 != b2 {
						if diff == 0 {
							first = image.Pt(x, y)
						}
						diff++
					}
				}
			}
			if diff > 0 {
				t.Errorf("%d pixels differ from %s, the first at %v (run with -update if the change is wanted, and look)", diff, path, first)
			}
		})
	}
}
