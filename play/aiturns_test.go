package play

import (
	"context"
	"testing"
	"time"

	"github.com/bashni/bashni/ai"
)

// A process that owed the AI's move dies before making it: no player
// touches the game, yet once the claim has run out another process's
// clock claims it and its runner makes the move, exactly once.
func TestAIMoveOwedSurvivesTheProcessThatOwedIt(t *testing.T) {
	dead, clock, st := newTestService(t)
	ctx := t.Context()
	g, err := dead.NewAIGame(ctx, AIGameRequest{ChatID: alice.UserID, Human: alice, Level: 1, Color: ColorWhite})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := dead.Move(ctx, g.ID(), alice.UserID, 0, "c3-d4"); err != nil {
		t.Fatal(err)
	}
	// dead never runs its AI: the process is gone.
	rec, _ := st.Game(ctx, g.ID())
	if rec.AIAt.IsZero() {
		t.Fatalf("after the player's move the AI's move is not owed in the store")
	}

	heir := New(st, NewEnginePool(1, 1, ai.Limits{Nodes: 2000}), DefaultConfig, clock.Now)
	moved := make(chan *Outcome, 2)
	runCtx, stop := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		heir.RunAI(runCtx, 2, AIHooks{Moved: func(_ context.Context, out *Outcome) { moved <- out }})
	}()
	defer func() { stop(); <-done }()

	// While the claim lives, the heir's clock leaves it alone.
	if _, err := heir.Tick(ctx, 10); err != nil {
		t.Fatal(err)
	}
	clock.Advance(dead.aiClaim() + time.Second)
	if _, err := heir.Tick(ctx, 10); err != nil {
		t.Fatal(err)
	}
	out := <-moved
	if out.Mover.AILevel != 1 || out.Game.Ply() != 2 {
		t.Errorf("heir's move: mover %+v at ply %d, want the AI's at ply 2", out.Mover, out.Game.Ply())
	}
	rec, _ = st.Game(ctx, g.ID())
	if len(rec.Moves) != 2 || !rec.AIAt.IsZero() {
		t.Errorf("stored: moves %q, AI owed until %v; want two moves and nothing owed", rec.Moves, rec.AIAt)
	}
	// A second tick finds nothing owed.
	clock.Advance(dead.aiClaim() + time.Second)
	if _, err := heir.Tick(ctx, 10); err != nil {
		t.Fatal(err)
	}
	select {
	case out := <-moved:
		t.Errorf("a second AI move after nothing was owed: %v", out.Move)
	default:
	}
}

// The process that makes a write leaving the AI to move is the one that
// thinks, at once: no clock is involved. When the AI opens, it moves once
// the card is recorded.
func TestAIMoveMadeByTheWriter(t *testing.T) {
	s, _, _ := newTestService(t)
	ctx := t.Context()
	moved := make(chan *Outcome, 1)
	runCtx, stop := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		s.RunAI(runCtx, 1, AIHooks{Moved: func(_ context.Context, out *Outcome) { moved <- out }})
	}()
	defer func() { stop(); <-done }()
	// The AI has White: it is owed a move from the game's creation.
	g, err := s.NewAIGame(ctx, AIGameRequest{ChatID: alice.UserID, Human: alice, Level: 1, Color: ColorBlack})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.SetCard(ctx, g.ID(), alice.UserID, 7, ""); err != nil {
		t.Fatal(err)
	}
	if out := <-moved; out.Game.ID() != g.ID() || out.Game.Ply() != 1 {
		t.Errorf("AI's first move: game %s ply %d, want %s ply 1", out.Game.ID(), out.Game.Ply(), g.ID())
	}
}

// A worker (no players, no Tick) claims an AI move whose claim ran out,
// makes it showing nothing (no bot), and stores it with its event: the first bot
// tick after ShowAt finds it owed, and nothing of it was shown.
func TestWorkerClaimsAnOwedAIMove(t *testing.T) {
	dead, clock, st := newTestService(t)
	ctx := t.Context()
	g, err := dead.NewAIGame(ctx, AIGameRequest{ChatID: alice.UserID, Human: alice, Level: 1, Color: ColorWhite})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := dead.Move(ctx, g.ID(), alice.UserID, 0, "c3-d4"); err != nil {
		t.Fatal(err)
	}
	worker := New(st, NewEnginePool(1, 1, ai.Limits{Nodes: 2000}), DefaultConfig, clock.Now)
	if n, err := worker.ClaimAI(ctx, 10); err != nil || n != 0 {
		t.Fatalf("ClaimAI while the writer's claim lives: %d, %v; want 0", n, err)
	}
	clock.Advance(dead.aiClaim() + time.Second)
	if n, err := worker.ClaimAI(ctx, 10); err != nil || n != 1 {
		t.Fatalf("ClaimAI after the claim ran out: %d, %v; want 1", n, err)
	}
	if n, err := worker.ClaimAI(ctx, 10); err != nil || n != 0 {
		t.Fatalf("ClaimAI again: %d, %v; want 0 (claimed already)", n, err)
	}
	runCtx, stop := context.WithCancel(ctx)
	done := make(chan struct{})
	moved := make(chan struct{})
	go func() {
		defer close(done)
		worker.RunAI(runCtx, 1, AIHooks{Moved: func(context.Context, *Outcome) { close(moved) }})
	}()
	<-moved
	stop()
	<-done
	rec, _ := st.Game(ctx, g.ID())
	if len(rec.Moves) != 2 || len(rec.Owed) != 1 || rec.Owed[0].Kind != "moved" || rec.Owed[0].Receipt >= 0 {
		t.Fatalf("stored: moves %q, owed %+v; want the AI's move owed under a receipt of its own", rec.Moves, rec.Owed)
	}
	clock.Advance(time.Minute)
	evs, err := dead.Tick(ctx, 10)
	if err != nil || len(evs) != 1 || len(evs[0].Owed) != 1 || evs[0].Owed[0].Version != rec.Version {
		t.Fatalf("a bot's tick after ShowAt: %+v, %v; want the AI's move owed", evs, err)
	}
}

// A worker's AI move (a runner without a Moved hook: nobody there shows
// it) is stored due at once and wakes the bot replicas (WithWake); of two
// replicas woken, one claims what it owes, without waiting for ShowAt or
// a tick.
func TestWorkerMoveWakesTheReplicas(t *testing.T) {
	dead, clock, st := newTestService(t)
	ctx := t.Context()
	g, err := dead.NewAIGame(ctx, AIGameRequest{ChatID: alice.UserID, Human: alice, Level: 1, Color: ColorWhite})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := dead.Move(ctx, g.ID(), alice.UserID, 0, "c3-d4"); err != nil {
		t.Fatal(err)
	}
	woken := make(chan string, 4)
	worker := New(st, NewEnginePool(1, 1, ai.Limits{Nodes: 2000}), DefaultConfig, clock.Now,
		WithWake(func(_ context.Context, id string) { woken <- id }))
	clock.Advance(dead.aiClaim() + time.Second)
	if n, err := worker.ClaimAI(ctx, 10); err != nil || n != 1 {
		t.Fatalf("ClaimAI after the claim ran out: %d, %v; want 1", n, err)
	}
	runCtx, stop := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		worker.RunAI(runCtx, 1, AIHooks{})
	}()
	if id := <-woken; id != g.ID() {
		t.Fatalf("woken for game %q, want %q", id, g.ID())
	}
	stop()
	<-done
	rec, _ := st.Game(ctx, g.ID())
	if len(rec.Moves) != 2 || len(rec.Owed) != 1 || !rec.ShowAt.Equal(rec.UpdatedAt) {
		t.Fatalf("stored: moves %q, owed %+v, show at %v (written %v); want the AI's move owed, due at once",
			rec.Moves, rec.Owed, rec.ShowAt, rec.UpdatedAt)
	}
	a := New(st, NewEnginePool(1, 1, ai.Limits{Nodes: 2000}), DefaultConfig, clock.Now)
	b := New(st, NewEnginePool(1, 1, ai.Limits{Nodes: 2000}), DefaultConfig, clock.Now)
	evA, errA := a.Wake(ctx, g.ID())
	evB, errB := b.Wake(ctx, g.ID())
	if errA != nil || errB != nil {
		t.Fatalf("Wake: %v, %v", errA, errB)
	}
	if len(evA.Owed) != 1 || evA.Owed[0].Version != rec.Version || evA.Game.Ply() != 2 {
		t.Errorf("the first replica woken got %+v, want the AI's move to show", evA)
	}
	if len(evB.Owed) != 0 || evB.Game != nil {
		t.Errorf("the second replica woken got %+v, want nothing: the first claimed it", evB)
	}
	select {
	case id := <-woken:
		t.Errorf("woken again for %q by the replicas' claims", id)
	default:
	}
}
