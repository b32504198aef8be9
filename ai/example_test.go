package ai_test

import (
	"context"
	"fmt"

	"github.com/bashni/bashni/ai"
	"github.com/bashni/bashni/rules"
)

func ExampleEngine_Search() {
	// White gives a man on b4 so that b2 can take two towers after a5:c3.
	p := rules.MustParsePosition("w:a1w,g1w,b2w,c3w,e3b,h4b,a5b,h6b,c7w")
	e := ai.New(ai.Options{HashMB: 1})
	res, err := e.Search(context.Background(), ai.Request{Position: p, Limits: ai.Limits{Depth: 6}})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Move, rules.JoinMoves(res.PV[:3], " "))
	// Output: c3-b4 c3-b4 a5:c3 b2:d4:f2
}

func ExampleLevels() {
	for _, lv := range ai.Levels {
		fmt.Println(lv.Number, lv.Name)
	}
	// Output:
	// 1 Novice
	// 2 Beginner
	// 3 Learner
	// 4 Weekend player
	// 5 Amateur
	// 6 Park player
	// 7 Club player
	// 8 Club regular
	// 9 Junior III
	// 10 Junior II
	// 11 Junior I
	// 12 Category III
	// 13 Category II
	// 14 Category I
	// 15 Candidate master
	// 16 Master
	// 17 International master
	// 18 Grandmaster
	// 19 Champion
}
