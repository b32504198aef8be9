package ai

import (
	"context"
	"testing"

	"github.com/bashni/bashni/rules"
)

// tactics are positions with one winning move, each checked by hand (the
// comment walks the line; "forced" means the only legal move) and by a
// deep search. Squares: White moves up the board, Black down.
var tactics = []struct {
	name, pos, shot string
}{
	{
		// 1. c3-b4! gives a man: a5:c3 is forced and stops on c3 (b2 and
		// a1 are both White, nothing else to jump). 2. b2:d4:f2 (forced)
		// then takes the c3 tower's black top, freeing the given man, and
		// goes on over e3, the black man about to crown. White is two men
		// up and Black's runner is gone.
		name: "sacrifice for a double capture",
		pos:  "w:a1w,g1w,b2w,c3w,e3b,h4b,a5b,h6b,c7w",
		shot: "c3-b4",
	},
	{
		// The same shot with a black tower on e3 holding two white
		// prisoners: b2:d4:f2 now also frees them (e3 becomes a white
		// tower of two).
		name: "the shot frees prisoners too",
		pos:  "w:a1w,g1w,b2w,c3w,e3bww,h4b,a5b,h6b,c7w",
		shot: "c3-b4",
	},
	{
		// 1. b6-c7! d8:b6 (forced: it stops on b6, as a7 is White and on
		// the edge). 2. a7:c5:a3 (forced) takes the b6 top back, freeing
		// the given man, and b4 after it. Black keeps only h8 and loses.
		name: "back-rank decoy",
		pos:  "w:c1w,b4b,h4w,b6w,a7w,d8b,h8b",
		shot: "b6-c7",
	},
	{
		// 1. b4-c5! d6:b4 (forced; a5 is White on the edge, so it stops).
		// 2. a5:c3:a1 (forced) takes b4's top, freeing the man, then b2,
		// the black man one step from crowning. Only b8 is left to Black.
		name: "sacrifice that also catches a runner",
		pos:  "w:b2b,f2w,b4w,a5w,d6b,f6w,g7w,b8b",
		shot: "b4-c5",
	},
	{
		// A deeper one (a depth-4 search plays g1-f2 instead).
		// 1. h2-g3! f4:h2 (forced) lands on h2 behind White's g1, where the
		// tower can never move again (its only step, g1, stays occupied).
		// 2. h6:f4 (forced) takes g5. Black has only the h8 man left to
		// move and runs out of moves.
		name: "sacrifice that buries the capturer",
		pos:  "w:c1w,g1w,h2w,c3w,f4b,g5b,h6w,h8b",
		shot: "h2-g3",
	},
	{
		// Capturing is compulsory but the choice is free: c3:e5 takes a
		// lone man, c3:a5 takes the top of the b4 tower and frees the three
		// white men under it as a tower of three. Freeing wins.
		name: "free the prisoners rather than take a man",
		pos:  "w:c3w,d4b,b4bwww,h8b",
		shot: "c3:a5",
	},
}

func TestTacticsFindTheShot(t *testing.T) {
	for _, tc := range tactics {
		t.Run(tc.name, func(t *testing.T) {
			p := rules.MustParsePosition(tc.pos)
			res, err := New(Options{HashMB: 4}).Search(context.Background(), Request{Position: p, Limits: Limits{Nodes: 50_000}})
			if err != nil {
				t.Fatal(err)
			}
			if res.Move.String() != tc.shot {
				t.Errorf("played %s (score %d, pv %s), want %s", res.Move, res.Score, rules.JoinMoves(res.PV, " "), tc.shot)
			}
			// The deep search confirms the shot wins: at least a man up.
			deep, _ := New(Options{HashMB: 4}).Search(context.Background(), Request{Position: p, Limits: Limits{Depth: 12}})
			if deep.Move.String() != tc.shot || deep.Score < 100 {
				t.Errorf("depth 12 plays %s scoring %d, want %s winning", deep.Move, deep.Score, tc.shot)
			}
		})
	}
}
