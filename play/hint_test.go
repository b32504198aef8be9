package play

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bashni/bashni/ai"
	"github.com/bashni/bashni/rules"
	"github.com/bashni/bashni/storage"
)

// gatedThinker searches only when let, counting the searches begun; with
// fail set, a search fails.
type gatedThinker struct {
	calls   atomic.Int32
	started chan struct{}
	release chan struct{}
	fail    atomic.Bool
}

func (th *gatedThinker) Think(ctx context.Context, g *rules.Game, _ int) (rules.Move, error) {
	th.calls.Add(1)
	th.started <- struct{}{}
	select {
	case <-th.release:
	case <-ctx.Done():
		return rules.Move{}, ctx.Err()
	}
	if th.fail.Load() {
		return rules.Move{}, errors.New("engine failed")
	}
	return g.Legal()[0], nil
}

// 30 hint requests at once across two replicas run one search: the hint
// is counted and the game's search leased in the store before it starts,
// and the others are refused at once. A failed search gives the hint
// back.
func TestOneHintSearchAtATime(t *testing.T) {
	_, clock, st := newTestService(t)
	th := &gatedThinker{started: make(chan struct{}, 64), release: make(chan struct{})}
	replicas := []*Service{New(st, th, DefaultConfig, clock.Now), New(st, th, DefaultConfig, clock.Now)}
	ctx := context.Background()
	g := aiGame(t, replicas[0])
	type result struct {
		h   *Hint
		err error
	}
	const asks = 30
	results := make(chan result, asks)
	for i := range asks {
		go func() {
			h, err := replicas[i%2].Hint(ctx, g.ID(), alice.UserID, AnyPly)
			results <- result{h, err}
		}()
	}
	bound := time.After(30 * time.Second) // a bound for a broken service, not a measurement
	refused := 0
	for refused < asks-1 {
		select {
		case r := <-results:
			if !errors.Is(r.err, ErrHintRunning) {
				t.Fatalf("a hint beside a running search: %+v; want ErrHintRunning", r)
			}
			refused++
		case <-bound:
			t.Fatalf("%d of %d requests answered while one search runs; %d searches begun", refused, asks-1, th.calls.Load())
		}
	}
	<-th.started
	stored, err := replicas[1].Game(ctx, g.ID())
	if err != nil {
		t.Fatal(err)
	}
	if stored.rec.Hints != 1 || stored.rec.HintUntil.IsZero() {
		t.Errorf("during the search: %d hints counted, lease %v; want 1, set", stored.rec.Hints, stored.rec.HintUntil)
	}
	close(th.release)
	var first result
	select {
	case first = <-results:
	case <-bound:
		t.Fatal("the search never answered")
	}
	if first.err != nil || first.h.Left != HintsPerGame-1 {
		t.Fatalf("the hint: %+v; want a move, %d left", first, HintsPerGame-1)
	}
	if n := th.calls.Load(); n != 1 {
		t.Errorf("%d searches for %d requests; want 1", n, asks)
	}
	g = moveAndAnswerWith(t, replicas[0], g.ID(), first.h.Move.String())
	th.fail.Store(true)
	if _, err := replicas[0].Hint(ctx, g.ID(), alice.UserID, AnyPly); err == nil {
		t.Fatal("a failed search gave a hint")
	}
	<-th.started
	stored, err = replicas[0].Game(ctx, g.ID())
	if err != nil {
		t.Fatal(err)
	}
	if stored.rec.Hints != 1 || !stored.rec.HintUntil.IsZero() {
		t.Errorf("after a failed search: %d hints counted, lease %v; want 1 (given back), none", stored.rec.Hints, stored.rec.HintUntil)
	}
}

// moveAndAnswerWith plays text for alice and the AI's answer, with a
// service whose thinker is gated: the AI's move is played from the
// position's first legal move.
func moveAndAnswerWith(t *testing.T, s *Service, id, text string) *Game {
	t.Helper()
	ctx := context.Background()
	out, err := s.Move(ctx, id, alice.UserID, AnyPly, text)
	if err != nil {
		t.Fatal(err)
	}
	reply := out.Game.Rules().Legal()[0]
	g, err := s.act(ctx, id, func(g *Game) error {
		if err := g.rules.Play(reply); err != nil {
			return err
		}
		s.syncRecord(g)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// countingThinker counts its searches and answers the first legal move.
type countingThinker struct{ calls atomic.Int32 }

func (th *countingThinker) Think(_ context.Context, g *rules.Game, _ int) (rules.Move, error) {
	th.calls.Add(1)
	return g.Legal()[0], nil
}

// A hint on a position with one legal move is that move, told without a
// search and counted as nothing, however often it is asked.
func TestForcedMoveCostsNoHint(t *testing.T) {
	_, clock, st := newTestService(t)
	th := &countingThinker{}
	s := New(st, th, DefaultConfig, clock.Now)
	ctx := context.Background()
	var start rules.Position
	if err := start.UnmarshalText([]byte("w:a1w,h8b")); err != nil {
		t.Fatal(err)
	}
	g, err := s.newGame(ctx, newGameSpec{variant: rules.Bashni, start: &start, white: alice,
		black: storage.Player{Name: AIName(2), AILevel: 2}, chatID: alice.UserID})
	if err != nil {
		t.Fatal(err)
	}
	if legal := g.Rules().Legal(); len(legal) != 1 {
		t.Fatalf("the position has %d legal moves, want 1", len(legal))
	}
	for i := range HintsPerGame + 2 {
		h, err := s.Hint(ctx, g.ID(), alice.UserID, g.Ply())
		if err != nil {
			t.Fatalf("hint %d: %v", i+1, err)
		}
		if h.Move.String() != g.Rules().Legal()[0].String() || h.Left != HintsPerGame {
			t.Errorf("hint %d: %s with %d left; want the forced move with %d left", i+1, h.Move, h.Left, HintsPerGame)
		}
	}
	stored, err := s.Game(ctx, g.ID())
	if err != nil {
		t.Fatal(err)
	}
	if stored.rec.Hints != 0 || !stored.rec.HintUntil.IsZero() || th.calls.Load() != 0 {
		t.Errorf("after hints on a forced move: %d counted, lease %v, %d searches; want none", stored.rec.Hints, stored.rec.HintUntil, th.calls.Load())
	}
	if _, err := s.Hint(ctx, g.ID(), bob.UserID, AnyPly); !errors.Is(err, ErrNotAPlayer) {
		t.Errorf("a stranger's hint on a forced move: err = %v, want ErrNotAPlayer", err)
	}
}

// levelThinker answers with the first legal move and notes the level asked.
type levelThinker struct{ level atomic.Int32 }

func (th *levelThinker) Think(_ context.Context, g *rules.Game, level int) (rules.Move, error) {
	th.level.Store(int32(level))
	return g.Legal()[0], nil
}

// A hint is the ladder's top level's move, not the timed level above it,
// which would spend its whole time and every core on each hint.
func TestHintAtTheLadderTop(t *testing.T) {
	_, clock, st := newTestService(t)
	th := &levelThinker{}
	cfg := DefaultConfig
	cfg.MaxLevel = len(ai.Levels)
	svc := New(st, th, cfg, clock.Now)
	g := aiGame(t, svc)
	if _, err := svc.Hint(context.Background(), g.ID(), alice.UserID, AnyPly); err != nil {
		t.Fatal(err)
	}
	if got := int(th.level.Load()); got != ai.LadderTop {
		t.Errorf("hint searched at level %d, want the ladder's top %d (of %d levels)", got, ai.LadderTop, len(ai.Levels))
	}
}
