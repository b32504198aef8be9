package play

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"time"

	"github.com/bashni/bashni/ai"
	"github.com/bashni/bashni/rules"
)

// AIJob is one search for a remote worker: the position and what the
// engine must know of the game before it, nothing else of the game.
//
// It is either an AI player's move (Level set, Limits zero) or one
// position of a game's analysis (Limits set, Level 0): then the worker
// searches within exactly those limits, with no randomness, and answers
// with the score too.
type AIJob struct {
	ID         string
	Position   rules.Position
	History    []uint64 // hashes of the game's positions, oldest first
	QuietPlies int
	Level      int
	Limits     ai.Limits // non-zero: an analysis search
	Deadline   time.Time // the worker should answer by then
}

// Review reports whether the job is a position of an analysis.
func (j AIJob) Review() bool { return j.Limits != (ai.Limits{}) }

// AIReply is a worker's answer to an AIJob.
type AIReply struct {
	Move  string // in notation; checked against the position before use
	Score int    // an analysis search's, for the side to move
	Depth int
	Nodes uint64
	Err   string // why the worker could not answer, if it could not
}

// AIQueue carries jobs to remote AI workers and their answers back; the
// Redis job queue provides it (wired in cmd/bashni).
type AIQueue interface {
	Submit(ctx context.Context, job AIJob) error
	// Await returns the answer to a job submitted through the same queue,
	// or an error once ctx ends.
	Await(ctx context.Context, jobID string) (AIReply, error)
}

// ErrBadAnswer is returned when a remote worker answered with something
// that is not a legal move, or with an error of its own.
var ErrBadAnswer = errors.New("play: the AI worker gave no usable answer")

// RemoteThinker is a Thinker that has the searching done by other
// processes through a queue, so that AI games cost a bot no CPU and
// scale with the number of workers. The answer is checked: a worker's
// move is played only if it is legal in the position asked about.
type RemoteThinker struct {
	q       AIQueue
	newID   func() string
	now     func() time.Time
	maxWait time.Duration
}

var _ Thinker = (*RemoteThinker)(nil)

// RemoteOptions tune a RemoteThinker; zero fields take the defaults.
type RemoteOptions struct {
	NewID func() string // job ids (default: random)
	// MaxWait bounds a search whose context has no deadline (default the
	// service's AITimeout default, 10s). The service always sets one.
	MaxWait time.Duration
}

// NewRemoteThinker returns a Thinker asking the workers behind q.
// now is the caller's clock (the service's), which sets the jobs' deadlines.
func NewRemoteThinker(q AIQueue, now func() time.Time, o RemoteOptions) *RemoteThinker {
	r := &RemoteThinker{q: q, newID: o.NewID, now: now, maxWait: o.MaxWait}
	if r.newID == nil {
		r.newID = rand.Text
	}
	if r.now == nil {
		panic("play: NewRemoteThinker without a clock")
	}
	if r.maxWait <= 0 {
		r.maxWait = DefaultConfig.AITimeout
	}
	return r
}

// Think sends the position to a worker and waits for its move until ctx
// ends. The worker is asked to answer a little before ctx's deadline, so
// that its answer still has time to travel back.
func (r *RemoteThinker) Think(ctx context.Context, g *rules.Game, level int) (rules.Move, error) {
	if level < 1 || level > len(ai.Levels) {
		return rules.Move{}, fmt.Errorf("play: remote AI: %w: %d", ai.ErrBadLevel, level)
	}
	switch legal := g.Legal(); len(legal) {
	case 0:
		return rules.Move{}, fmt.Errorf("play: remote AI: %w", ai.ErrNoMoves)
	case 1:
		return legal[0], nil // nothing to think about, nothing to send
	}
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, r.maxWait)
		defer cancel()
	}
	m, _, err := r.ask(ctx, AIJob{
		Position:   g.Position(),
		History:    g.History(),
		QuietPlies: g.QuietPlies(),
		Level:      level,
	})
	return m, err
}

// ask sends one job to a worker and waits for its answer until ctx, which
// has a deadline, ends. The worker is asked to answer a little before
// that deadline, so that its answer still has time to travel back. The
// answer is checked: its move must be legal in the job's position.
func (r *RemoteThinker) ask(ctx context.Context, job AIJob) (rules.Move, AIReply, error) {
	deadline, _ := ctx.Deadline()
	margin := min(deadline.Sub(r.now())/10, 500*time.Millisecond)
	job.ID = r.newID()
	job.Deadline = deadline.Add(-max(margin, 0))
	if err := r.q.Submit(ctx, job); err != nil {
		return rules.Move{}, AIReply{}, fmt.Errorf("play: remote AI: %w", err)
	}
	reply, err := r.q.Await(ctx, job.ID)
	if err != nil {
		return rules.Move{}, AIReply{}, fmt.Errorf("play: remote AI: %w", err)
	}
	if reply.Err != "" {
		return rules.Move{}, reply, fmt.Errorf("%w: the worker says: %s", ErrBadAnswer, reply.Err)
	}
	// Never trust a worker blindly: it may run other code, or have been
	// asked about another position.
	pos := job.Position
	m, err := rules.ParseMove(&pos, reply.Move)
	if err != nil {
		return rules.Move{}, reply, fmt.Errorf("%w: %q: %w", ErrBadAnswer, reply.Move, err)
	}
	return m, reply, nil
}
