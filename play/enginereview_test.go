package play

import (
	"context"
	"runtime"
	"testing"

	"github.com/bashni/bashni/ai"
)

// The pool gives an engine back to a waiting AI move before any waiting
// review position, whichever waited longer.
func TestPoolServesMovesBeforeReviews(t *testing.T) {
	p := NewEnginePool(1, 1, ai.Limits{Nodes: 100})
	ctx := context.Background()
	held, err := p.borrow(ctx, forReview)
	if err != nil {
		t.Fatal(err)
	}
	order := make(chan string, 2)
	wait := func(class int, name string) {
		e, err := p.borrow(ctx, class)
		if err != nil {
			t.Error(err)
			return
		}
		order <- name
		p.giveBack(e)
	}
	go wait(forReview, "review")
	waiting(p, forReview, 1)
	go wait(forMove, "move")
	waiting(p, forMove, 1)
	p.giveBack(held)
	if got := <-order; got != "move" {
		t.Errorf("the engine went first to the %s; want the move", got)
	}
	if got := <-order; got != "review" {
		t.Errorf("then to the %s; want the review", got)
	}
}

// waiting returns once n searches of class wait for p's engines.
func waiting(p *EnginePool, class, n int) {
	for {
		p.mu.Lock()
		k := len(p.waiting[class])
		p.mu.Unlock()
		if k >= n {
			return
		}
		runtime.Gosched()
	}
}
