package ai

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/bashni/bashni/rules"
)

// TestThreadsAnswerLegallyUnderEveryLimit searches with helper threads
// sharing the table, under a move time, a node limit, a depth and a
// cancelled context: each search returns, with a legal move and a line of
// legal moves. Under -race it also checks the table's sharing.
func TestThreadsAnswerLegallyUnderEveryLimit(t *testing.T) {
	positions := randomPositions(t, 12, 5)
	for _, text := range benchPositions {
		positions = append(positions, rules.MustParsePosition(text))
	}
	e := New(Options{HashMB: 2, Threads: 3})
	limits := []Limits{{MoveTime: 20 * time.Millisecond}, {Nodes: 20_000}, {Depth: 5}}
	for i, p := range positions {
		req := Request{Position: p, Limits: limits[i%len(limits)], Seed: int64(i)}
		if i%4 == 3 {
			req.Limits, req.Level = Limits{}, 1+i%len(Levels) // levels, noisy ones included
			req.Limits.MoveTime = 20 * time.Millisecond
		}
		res, err := e.Search(context.Background(), req)
		if err != nil {
			t.Fatalf("position %s, %+v: %v", p, req.Limits, err)
		}
		checkLine(t, p, res.PV)
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	p := rules.Start(rules.Bashni)
	res, err := e.Search(ctx, Request{Position: p, Limits: Limits{Depth: 60}})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: err = %v, want context.Canceled", err)
	}
	checkLine(t, p, []rules.Move{res.Move})
}

// TestThreadsFindTheShots: the helpers must not spoil the main thread's
// answer.
func TestThreadsFindTheShots(t *testing.T) {
	e := New(Options{HashMB: 4, Threads: 2})
	for _, tc := range tactics {
		e.Reset()
		p := rules.MustParsePosition(tc.pos)
		res, err := e.Search(context.Background(), Request{Position: p, Limits: Limits{Depth: 10}})
		if err != nil {
			t.Fatal(err)
		}
		if res.Move.String() != tc.shot {
			t.Errorf("%s: played %s (score %d), want %s", tc.name, res.Move, res.Score, tc.shot)
		}
	}
}
