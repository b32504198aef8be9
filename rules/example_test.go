package rules_test

import (
	"fmt"

	"github.com/bashni/bashni/rules"
)

// A capture puts the jumped piece under the capturer: here White's man takes
// the top of a black tower and frees the white man beneath it.
func Example() {
	p := rules.MustParsePosition("w:c3w,d4bw")
	m, err := rules.ParseMove(&p, "c3:e5")
	if err != nil {
		fmt.Println(err)
		return
	}
	p = p.Play(m)
	fmt.Println(p)
	fmt.Println("d4 is now", p.Tower(mustSquare("d4")).Owner())
	// Output:
	// b:d4w,e5wb
	// d4 is now white
}

func mustSquare(name string) rules.Square {
	s, err := rules.ParseSquare(name)
	if err != nil {
		panic(err)
	}
	return s
}

func ExampleParseMove() {
	p := rules.Start(rules.Bashni)
	_, err := rules.ParseMove(&p, "c3-c5")
	fmt.Println(err)
	// Output:
	// rules: illegal move "c3-c5": the tower on c3 cannot go there; legal: a3-b4, c3-b4, c3-d4, e3-d4, e3-f4, g3-f4, g3-h4
}

func ExamplePerft() {
	for depth := 1; depth <= 5; depth++ {
		fmt.Print(rules.Perft(rules.Start(rules.Bashni), depth), " ")
	}
	fmt.Println()
	// Output: 7 49 302 1469 7482
}

func ExampleGame_Record() {
	g := rules.NewGame(rules.Start(rules.Bashni))
	for _, m := range []string{"c3-b4", "b6-c5", "b4-a5", "a7-b6", "b2-c3", "c5-b4", "a3:c5:a7"} {
		if _, err := g.PlayText(m); err != nil {
			fmt.Println(err)
			return
		}
	}
	fmt.Println(g.Record())
	// Output: 1. c3-b4 b6-c5 2. b4-a5 a7-b6 3. b2-c3 c5-b4 4. a3:c5:a7
}

func ExampleParsePosition() {
	p, err := rules.ParsePosition("White: c1 – 1/0000; Black: a7 – 00")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(p)
	_, err = rules.ParsePosition("w:c3w,d3b")
	fmt.Println(err)
	// Output:
	// w:c1Wbbbb,a7bb
	// rules: invalid position entry "d3b": d3 is a light square; play is on the dark squares only
}

// The same capture under each ruleset: in the other school of Bashni each
// jump takes its piece at once, so the king may come back over the squares
// it emptied and take the tower on b2 after all.
func ExampleVariant() {
	for _, v := range rules.Variants {
		p := rules.MustParsePosition("w:b2b,c3W,g7b").WithVariant(v)
		fmt.Printf("%-9s %s\n", v, rules.JoinMoves(rules.SortedMoves(p.Legal()), " "))
	}
	// Output:
	// bashni    c3:a1 c3:h8
	// bashni-mp c3:a1:h8 c3:h8:a1
	// russian   c3:a1 c3:h8
}
