package play

import (
	"context"
	"errors"
	"sync"
	"time"
)

// The AI's move is owed, not running: a write that leaves the AI to move
// also stores GameRecord.AIAt, the end of a claim on thinking about it.
// The process that wrote it thinks at once (its runner is kicked); if it
// dies first, the claim runs out, the game is due, and the clock's Tick on
// any process claims it again by the same compare-and-set that handles
// every other deadline, and hands it to that process's runner. Whoever
// thinks, the move goes through PlayAI's compare-and-set, so of two
// thinkers one move lands.

// aiClaim is how long a claim on the AI's move lasts: its longest think
// and a margin. After a crash, the move comes this long after the claim.
func (s *Service) aiClaim() time.Duration { return s.cfg.AITimeout + 5*time.Second }

// AIHooks are told about the AI's moves that a runner makes. Either may be
// nil.
type AIHooks struct {
	// Thinking is called as the AI starts thinking in g.
	Thinking func(ctx context.Context, g *Game)
	// Moved is called with each move the AI played.
	Moved func(ctx context.Context, out *Outcome)
	// Failed is called when the AI's move was refused: a *TimeUpError
	// then may carry the loss on time that the attempt settled.
	Failed func(ctx context.Context, err error)
}

// aiTurns is the queue of AI moves this process has claimed, for RunAI.
type aiTurns struct {
	kick chan string
	mu   sync.Mutex
	busy map[string]bool // games being thought about here
}

func newAITurns() *aiTurns {
	return &aiTurns{kick: make(chan string, 1024), busy: make(map[string]bool)}
}

// owe hands a game whose AI move this process has just claimed to the
// runner. A full queue drops it: the claim runs out and Tick claims it
// again.
func (s *Service) oweAI(id string) {
	select {
	case s.aiTurns.kick <- id:
	default:
		s.log.Warn("play: AI turns queue full; the move waits for its claim to run out", "game", id)
	}
}

// claimedAI reports whether a write changed rec's claim on the AI's move
// to a new one: then the writer is the one to think.
func claimedAI(before, after time.Time) bool { return !after.IsZero() && !after.Equal(before) }

// RunAI makes the AI's moves this process has claimed, up to workers at
// once, until ctx ends, then waits for the moves under way. Run it in
// every process that serves players; without it the claims of this
// process run out and other processes (or this one's Tick) claim them.
func (s *Service) RunAI(ctx context.Context, workers int, hooks AIHooks) {
	sem := make(chan struct{}, max(workers, 1))
	var wg sync.WaitGroup
	defer wg.Wait()
	t := s.aiTurns
	for {
		var id string
		select {
		case <-ctx.Done():
			return
		case id = <-t.kick:
		}
		t.mu.Lock()
		if t.busy[id] {
			t.mu.Unlock()
			continue
		}
		t.busy[id] = true
		t.mu.Unlock()
		select {
		case sem <- struct{}{}:
		case <-ctx.Done():
			return
		}
		wg.Go(func() {
			defer func() {
				<-sem
				t.mu.Lock()
				delete(t.busy, id)
				t.mu.Unlock()
			}()
			// A move under way is made even if ctx ends meanwhile
			// (PlayAI bounds it by AITimeout).
			s.thinkOwed(context.WithoutCancel(ctx), id, hooks)
		})
	}
}

// thinkOwed plays the AI's move in game id, if it is still owed.
//
// The move is stored with its event under a receipt of its own, which the
// hooks find in their ctx (ReceiptOf) and commit what they show with.
// Without a Moved hook (`bashni worker`) nobody here shows the move: it is
// a detached change (Detached), handed to the bot replicas at once.
func (s *Service) thinkOwed(ctx context.Context, id string, hooks AIHooks) {
	if hooks.Moved == nil {
		ctx = Detached(ctx)
	} else {
		ctx = withNewReceipt(ctx)
	}
	g, err := s.Game(ctx, id)
	if err != nil || !g.IsAITurn() {
		return
	}
	if hooks.Thinking != nil {
		hooks.Thinking(ctx, g)
	}
	out, err := s.PlayAI(ctx, id)
	if err != nil {
		if hooks.Failed != nil {
			hooks.Failed(ctx, err)
		}
		if !errors.Is(err, ErrStale) && !errors.Is(err, ErrAITurn) && !errors.Is(err, ErrTimeUp) && ctx.Err() == nil {
			// The claim runs out and the move is tried again.
			s.log.Error("play: AI move failed", "game", id, "err", err)
		}
		return
	}
	if hooks.Moved != nil {
		hooks.Moved(ctx, out)
	}
}

// ClaimAI claims the AI moves owed whose claim has run out (their writer
// died), as Tick does, and hands them to this process's runner (RunAI):
// for a process that serves the AI but not the players (`bashni worker`),
// which runs no Tick. The move is stored with its event under a receipt of
// its own, due at once, and the bot replicas are woken to show it
// (WithWake; if the wake-up is lost, a replica's tick shows it). It
// returns how many it claimed.
func (s *Service) ClaimAI(ctx context.Context, limit int) (int, error) {
	now := s.now()
	ids, err := s.store.DueGames(ctx, now, limit)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, id := range ids {
		claimed := false
		_, err := s.update(ctx, id, func(g *Game) error {
			claimed = false
			if !g.rec.Active() || g.rec.AIAt.IsZero() || now.Before(g.rec.AIAt) || !g.IsAITurn() {
				return errUnchanged
			}
			g.rec.AIAt = now.Add(s.aiClaim()) // update hands it to the runner
			claimed = true
			return nil
		})
		if err != nil && !errors.Is(err, ErrBusy) && !isNotFound(err) {
			return n, err
		}
		if err == nil && claimed {
			n++
		}
	}
	return n, nil
}
