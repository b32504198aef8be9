package training

import (
	"context"
	"fmt"

	"github.com/bashni/bashni/ai"
	"github.com/bashni/bashni/rules"
)

// refuteNodes is the engine's budget for answering a wrong move: small, so
// that the answer is quick, and fixed (one thread, a fresh table), so that
// the same wrong move gets the same answer every time.
const refuteNodes = 20000

// WrongMove is a legal move that does not answer the task, with the
// engine's answer to it: Reply, and Taken, the pieces it captures; or,
// when Black has no capture, StillMoves for a task that asks to leave
// Black no move. It is a refusal of ErrNotTheTask's kind.
type WrongMove struct {
	Move       rules.Move
	Reply      rules.Move
	Taken      int
	StillMoves bool
}

func (w *WrongMove) Error() string {
	return fmt.Sprintf("training: %s is legal but wrong: then %s", w.Move, w.Reply)
}

// Unwrap lets errors.Is(err, ErrNotTheTask) hold, and the doors answer it
// by ErrNotTheTask's kind.
func (w *WrongMove) Unwrap() error { return ErrNotTheTask }

// refute plays m in p and lets the engine find the best reply.
func refute(p rules.Position, m rules.Move) *WrongMove {
	w := &WrongMove{Move: m}
	q := p.Play(m)
	if len(q.Legal()) == 0 {
		return w // the wrong move wins too; the doors still refuse it
	}
	e := ai.New(ai.Options{HashMB: 1})
	r, err := e.Search(context.Background(), ai.Request{Position: q, Limits: ai.Limits{Nodes: refuteNodes}})
	if err != nil {
		return w
	}
	w.Reply = r.Move
	if r.Move.IsCapture() {
		w.Taken = r.Move.Len()
	} else {
		w.StillMoves = true
	}
	return w
}
