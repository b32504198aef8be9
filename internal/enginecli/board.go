package enginecli

import (
	"fmt"
	"io"
	"strings"

	"github.com/bashni/bashni/rules"
)

// drawBoard writes the board as text from White's side (or Black's when
// flip is set). Each dark square shows its tower's top piece, in the
// position format's letters (w, b, W, B), and its height when above one;
// towers taller than one are then listed with their full contents.
func drawBoard(w io.Writer, p *rules.Position, flip bool) {
	files := "    a   b   c   d   e   f   g   h"
	if flip {
		files = "    h   g   f   e   d   c   b   a"
	}
	line := "  +---+---+---+---+---+---+---+---+"
	fmt.Fprintln(w, files)
	fmt.Fprintln(w, line)
	for row := 0; row < 8; row++ {
		rank := 7 - row
		if flip {
			rank = row
		}
		var b strings.Builder
		fmt.Fprintf(&b, "%d |", rank+1)
		for col := 0; col < 8; col++ {
			file := col
			if flip {
				file = 7 - col
			}
			s, dark := rules.SquareAt(file, rank)
			cell := "   "
			if dark {
				cell = " . "
				if t := p.Tower(s); !t.Empty() {
					cell = towerCell(t)
				}
			}
			b.WriteString(cell)
			b.WriteByte('|')
		}
		fmt.Fprintf(&b, " %d", rank+1)
		fmt.Fprintln(w, b.String())
		fmt.Fprintln(w, line)
	}
	fmt.Fprintln(w, files)
	var tall []string
	for s := rules.Square(0); s < rules.NumSquares; s++ {
		if t := p.Tower(s); t.Height() > 1 {
			tall = append(tall, s.String()+" "+t.String())
		}
	}
	if len(tall) > 0 {
		fmt.Fprintf(w, "Towers, top first (w/b man, W/B king): %s\n", strings.Join(tall, ", "))
	}
}

// towerCell is a three-character cell: " w " for a single man, " W3" for a
// king on top of three pieces, "w12" for twelve.
func towerCell(t rules.Tower) string {
	top := string(t.Top().Letter())
	switch h := t.Height(); {
	case h == 1:
		return " " + top + " "
	case h < 10:
		return fmt.Sprintf(" %s%d", top, h)
	default:
		return fmt.Sprintf("%s%d", top, h)
	}
}
