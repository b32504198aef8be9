package render

import (
	"fmt"
	"image/color"
	"sort"
	"strings"
)

// PieceStyle is how the pieces of one colour are painted. Every colour is
// opaque; the renderer relies on it to keep the palette exact.
type PieceStyle struct {
	Face    color.RGBA // the top face of a piece
	Side    color.RGBA // the cylinder side, the band seen inside a tower
	Edge    color.RGBA // the groove on the face and the line between layers
	Outline color.RGBA // the silhouette
	// Rim is the line under the piece in a tower (and under its face): dark
	// under a light piece, light under a dark one, at least 3:1 (WCAG) from
	// Side, so that two pieces of one colour read as two on a phone.
	Rim color.RGBA
}

// Theme is a set of colours. Any Theme of opaque colours works (the renderer
// prepares tiles per theme and size, and keeps a few), but only colours at
// least 8 levels apart in some channel are sure to stay distinct in the
// 8-bit image. The two built-in ones, from
// ThemeByName, are tuned: "classic" (wood) and "contrast" (high contrast,
// safe for colour-blind players: highlights use the Okabe–Ito colours and also
// differ in lightness and shape).
type Theme struct {
	Name string

	Frame, Coord color.RGBA // the margin and the coordinate letters on it
	Light, Dark  color.RGBA // the squares

	White, Black PieceStyle

	// Crown marks a king: the crown on its face and the patch on its band,
	// at least 3:1 (WCAG) from either colour's Side.
	Crown, CrownEdge color.RGBA

	From, Path, To color.RGBA // last move: start, intermediate landings, end
	Jumped         color.RGBA // last move: the towers it jumped
	Selected       color.RGBA // the tower the player picked
	Target         color.RGBA // markers on the picked tower's destinations
	TargetEdge     color.RGBA
}

func rgb(v uint32) color.RGBA {
	return color.RGBA{uint8(v >> 16), uint8(v >> 8), uint8(v), 0xff}
}

// The built-in themes. They are functions so no caller can change them.

// Classic is a wooden board with ivory and ebony pieces.
func Classic() Theme {
	return Theme{
		Name:  "classic",
		Frame: rgb(0x3b2a1e), Coord: rgb(0xead8b8),
		Light: rgb(0xefd9b4), Dark: rgb(0xae7f58),
		White: PieceStyle{
			Face: rgb(0xfaf6ec), Side: rgb(0xf5ede0), Edge: rgb(0x9c8d74), Outline: rgb(0x2e251d), Rim: rgb(0x4a3b2c),
		},
		Black: PieceStyle{
			Face: rgb(0x35312e), Side: rgb(0x1f1c1a), Edge: rgb(0x7a7168), Outline: rgb(0x0d0b0a), Rim: rgb(0xc4b8a6),
		},
		Crown: rgb(0xc8321e), CrownEdge: rgb(0x3a0a00),
		From: rgb(0xbcb24c), Path: rgb(0xc9c45c), To: rgb(0xd6d46a),
		Jumped:   rgb(0xd2664e),
		Selected: rgb(0x6f9f4a),
		Target:   rgb(0x2c5a22), TargetEdge: rgb(0xe9e3b0),
	}
}

// Contrast is a high-contrast theme for small screens, sunlight and
// colour-blind players: pure white and black pieces, a slate board, and
// highlights from the Okabe–Ito palette that also differ in lightness.
func Contrast() Theme {
	return Theme{
		Name:  "contrast",
		Frame: rgb(0x000000), Coord: rgb(0xffffff),
		Light: rgb(0xe6e6e6), Dark: rgb(0x4f6477),
		White: PieceStyle{
			Face: rgb(0xffffff), Side: rgb(0xf0f0f0), Edge: rgb(0x6e6e6e), Outline: rgb(0x000000), Rim: rgb(0x404040),
		},
		Black: PieceStyle{
			Face: rgb(0x1c1c1c), Side: rgb(0x000000), Edge: rgb(0x9a9a9a), Outline: rgb(0x000000), Rim: rgb(0xbdbdbd),
		},
		Crown: rgb(0xd55e00), CrownEdge: rgb(0x000000),
		From: rgb(0x9fd3f2), Path: rgb(0x78c1ec), To: rgb(0x56b4e9),
		Jumped:   rgb(0xd55e00),
		Selected: rgb(0xe69f00),
		Target:   rgb(0x009e73), TargetEdge: rgb(0xffffff),
	}
}

var builtin = map[string]func() Theme{
	"classic":  Classic,
	"contrast": Contrast,
}

// ThemeNames lists the names ThemeByName knows, sorted.
func ThemeNames() []string {
	names := make([]string, 0, len(builtin))
	for n := range builtin {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// ThemeByName returns a built-in theme by its name, ignoring case. The empty
// name is the default, "classic".
func ThemeByName(name string) (Theme, error) {
	name = strings.ToLower(strings.TrimSpace(name))
	if name == "" {
		return Classic(), nil
	}
	if f, ok := builtin[name]; ok {
		return f(), nil
	}
	return Theme{}, fmt.Errorf("render: unknown theme %q (known: %s)", name, strings.Join(ThemeNames(), ", "))
}

func (s PieceStyle) opaque() bool {
	return s.Face.A == 0xff && s.Side.A == 0xff && s.Edge.A == 0xff && s.Outline.A == 0xff && s.Rim.A == 0xff
}

// check reports the first colour that is not opaque: blending them would
// make colours the palette was not built for.
func (t *Theme) check() error {
	cs := []struct {
		name string
		c    color.RGBA
	}{
		{"Frame", t.Frame}, {"Coord", t.Coord}, {"Light", t.Light}, {"Dark", t.Dark},
		{"Crown", t.Crown}, {"CrownEdge", t.CrownEdge}, {"From", t.From}, {"Path", t.Path},
		{"To", t.To}, {"Jumped", t.Jumped}, {"Selected", t.Selected}, {"Target", t.Target},
		{"TargetEdge", t.TargetEdge},
	}
	for _, c := range cs {
		if c.c.A != 0xff {
			return fmt.Errorf("render: theme %q: colour %s is not opaque", t.Name, c.name)
		}
	}
	if !t.White.opaque() || !t.Black.opaque() {
		return fmt.Errorf("render: theme %q: piece colours must be opaque", t.Name)
	}
	return nil
}
