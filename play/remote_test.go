package play_test

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/bashni/bashni/ai"
	"github.com/bashni/bashni/aiqueue"
	"github.com/bashni/bashni/play"
	"github.com/bashni/bashni/rules"
	"github.com/bashni/bashni/storage/redis"
	"github.com/bashni/bashni/storage/redis/redistest"
)

// redisQueue is the Redis job queue as play sees it (cmd/bashni wires the
// same adapter).
type redisQueue struct{ q *aiqueue.Queue }

func (r redisQueue) Submit(ctx context.Context, j play.AIJob) error {
	pos, err := j.Position.MarshalText()
	if err != nil {
		return err
	}
	job := aiqueue.Job{
		ID: j.ID, Position: string(pos), Variant: j.Position.Variant().String(),
		History: j.History, QuietPlies: j.QuietPlies, Level: j.Level, Deadline: j.Deadline,
	}
	if j.Review() {
		job.Kind = aiqueue.KindReview
		job.Limits = &aiqueue.Limits{Depth: j.Limits.Depth, Nodes: j.Limits.Nodes, MoveTime: j.Limits.MoveTime}
	}
	return r.q.Submit(ctx, job)
}

func (r redisQueue) Await(ctx context.Context, id string) (play.AIReply, error) {
	res, err := r.q.Await(ctx, id)
	return play.AIReply{Move: res.Move, Score: res.Score, Depth: res.Depth, Nodes: res.Nodes, Err: res.Err}, err
}

// newRemote returns a RemoteThinker on a real Redis queue, and the queue a
// worker takes from.
func newRemote(t *testing.T) (*play.RemoteThinker, *aiqueue.Queue) {
	t.Helper()
	db := redistest.New(t)
	c, err := redis.NewClient(redis.Config{URL: db.URL})
	if err != nil {
		t.Fatalf("NewClient: %v", err)
	}
	t.Cleanup(func() { c.Close() })
	q := aiqueue.New(c, db.Prefix, time.Now, aiqueue.QueueOptions{})
	return play.NewRemoteThinker(redisQueue{q}, time.Now, play.RemoteOptions{}), q
}

// serve runs a worker loop in the test's process until the test ends;
// answer decides what it says to each job.
func serve(t *testing.T, q *aiqueue.Queue, answer func(aiqueue.Job) aiqueue.Result) {
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Go(func() {
		for ctx.Err() == nil {
			job, err := q.Take(ctx, time.Second)
			if err != nil {
				continue
			}
			if err := q.Complete(ctx, job, answer(job)); err != nil && ctx.Err() == nil {
				t.Errorf("Complete: %v", err)
			}
		}
	})
	t.Cleanup(func() { cancel(); wg.Wait() })
}

// engine answers with a real, small search, and remembers the jobs.
type engine struct {
	e    *ai.Engine
	mu   sync.Mutex
	jobs []aiqueue.Job
}

func (e *engine) answer(job aiqueue.Job) aiqueue.Result {
	e.mu.Lock()
	e.jobs = append(e.jobs, job)
	e.mu.Unlock()
	v, err := rules.ParseVariant(job.Variant)
	if err != nil {
		return aiqueue.Result{Err: err.Error()}
	}
	p, err := rules.ParsePosition(job.Position)
	if err != nil {
		return aiqueue.Result{Err: err.Error()}
	}
	res, err := e.e.Search(context.Background(), ai.Request{
		Position: p.WithVariant(v), History: job.History, QuietPlies: job.QuietPlies,
		Limits: ai.Limits{Nodes: 2000},
	})
	if err != nil {
		return aiqueue.Result{Err: err.Error()}
	}
	return aiqueue.Result{Move: res.Move.String(), Score: res.Score, Depth: res.Depth, Nodes: res.Nodes}
}

func (e *engine) last() aiqueue.Job {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.jobs[len(e.jobs)-1]
}

// Games played by the remote AI for both sides: every move is legal (Play
// would refuse it otherwise), and the worker sees the game's history.
func TestRemoteThinkerPlaysLegalMoves(t *testing.T) {
	t.Parallel()
	for _, v := range []rules.Variant{rules.Bashni, rules.Russian} {
		t.Run(v.String(), func(t *testing.T) {
			t.Parallel()
			remote, q := newRemote(t)
			eng := &engine{e: ai.New(ai.Options{HashMB: 1})}
			serve(t, q, eng.answer)

			g := rules.NewGame(rules.Start(v))
			for ply := 0; ply < 16 && !g.Over(); ply++ {
				ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
				m, err := remote.Think(ctx, g, 1+ply%len(ai.Levels))
				cancel()
				if err != nil {
					t.Fatalf("ply %d: Think: %v", ply, err)
				}
				if !slices.Contains(g.Legal(), m) {
					t.Fatalf("ply %d: %v is not among the legal moves %v", ply, m, g.Legal())
				}
				if len(g.Legal()) > 1 {
					job := eng.last()
					pos, _ := g.Position().MarshalText()
					if job.Position != string(pos) || job.Variant != v.String() ||
						!slices.Equal(job.History, g.History()) || job.QuietPlies != g.QuietPlies() {
						t.Fatalf("ply %d: the worker was asked %+v, not about the game's position %s", ply, job, pos)
					}
				}
				if err := g.Play(m); err != nil {
					t.Fatalf("ply %d: Play(%v): %v", ply, m, err)
				}
			}
		})
	}
}

// A rogue or broken worker's answer is never played.
func TestRemoteThinkerRejectsBadAnswers(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		answer aiqueue.Result
	}{
		{"onto an occupied square", aiqueue.Result{Move: "a1-b2"}},
		{"the other side's move", aiqueue.Result{Move: "f6-e5"}},
		{"no move at all", aiqueue.Result{}},
		{"not notation", aiqueue.Result{Move: "resign; DROP TABLE games"}},
		{"the worker's own error", aiqueue.Result{Err: "ai: out of memory"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			remote, q := newRemote(t)
			serve(t, q, func(aiqueue.Job) aiqueue.Result { return tc.answer })
			ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
			defer cancel()
			m, err := remote.Think(ctx, rules.NewGame(rules.Start(rules.Bashni)), 3)
			if !errors.Is(err, play.ErrBadAnswer) {
				t.Errorf("answer %+v: got move %v, error %v; want play.ErrBadAnswer", tc.answer, m, err)
			}
		})
	}
}

// With no worker running, Think gives up when its context does.
func TestRemoteThinkerWithoutWorkers(t *testing.T) {
	t.Parallel()
	remote, _ := newRemote(t)
	ctx, cancel := context.WithTimeout(t.Context(), 300*time.Millisecond)
	defer cancel()
	_, err := remote.Think(ctx, rules.NewGame(rules.Start(rules.Bashni)), 2)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Think with no worker: got %v, want context.DeadlineExceeded", err)
	}
}

// refusingQueue fails the test if anything is sent.
type refusingQueue struct{ t *testing.T }

func (r refusingQueue) Submit(context.Context, play.AIJob) error {
	r.t.Errorf("a job was sent")
	return errors.New("refused")
}

func (r refusingQueue) Await(context.Context, string) (play.AIReply, error) {
	r.t.Errorf("an answer was awaited")
	return play.AIReply{}, errors.New("refused")
}

// What needs no search is answered without asking a worker.
func TestRemoteThinkerAnswersAtHome(t *testing.T) {
	t.Parallel()
	remote := play.NewRemoteThinker(refusingQueue{t}, time.Now, play.RemoteOptions{})
	forced := rules.NewGame(rules.MustParsePosition("w:c3w,d4b,h8b"))
	if n := len(forced.Legal()); n != 1 {
		t.Fatalf("test position has %d legal moves, want 1", n)
	}
	m, err := remote.Think(t.Context(), forced, 3)
	if err != nil || m != forced.Legal()[0] {
		t.Errorf("forced move: got %v, %v; want %v", m, err, forced.Legal()[0])
	}
	if _, err := remote.Think(t.Context(), rules.NewGame(rules.MustParsePosition("w:h8b")), 3); !errors.Is(err, ai.ErrNoMoves) {
		t.Errorf("no legal moves: got %v, want ai.ErrNoMoves", err)
	}
	if _, err := remote.Think(t.Context(), rules.NewGame(rules.Start(rules.Bashni)), 99); !errors.Is(err, ai.ErrBadLevel) {
		t.Errorf("level 99: got %v, want ai.ErrBadLevel", err)
	}
}

// An analysis through the queue: every position that needs a search is
// asked about once, as a review job with the game's history and limits
// and no level; the review covers the whole game.
func TestRemoteThinkerReviews(t *testing.T) {
	t.Parallel()
	remote, q := newRemote(t)
	eng := &engine{e: ai.New(ai.Options{HashMB: 1})}
	serve(t, q, eng.answer)

	g := rules.NewGame(rules.Start(rules.Russian))
	searched := map[string]bool{}
	for ply := 0; ply < 12 && !g.Over(); ply++ {
		if len(g.Legal()) > 1 {
			pos, _ := g.Position().MarshalText()
			searched[string(pos)] = true
		}
		if err := g.Play(g.Legal()[len(g.Legal())-1]); err != nil {
			t.Fatal(err)
		}
	}
	if len(g.Legal()) > 1 {
		pos, _ := g.Position().MarshalText()
		searched[string(pos)] = true
	}
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute) // a hang guard
	defer cancel()
	rv, err := remote.Review(ctx, g)
	if err != nil {
		t.Fatalf("Review: %v", err)
	}
	if len(rv.Scores) != g.Ply()+1 || len(rv.Moves) != g.Ply() {
		t.Fatalf("%d scores and %d move reviews for %d moves", len(rv.Scores), len(rv.Moves), g.Ply())
	}
	eng.mu.Lock()
	defer eng.mu.Unlock()
	if len(eng.jobs) != len(searched) {
		t.Errorf("%d jobs for %d positions to search", len(eng.jobs), len(searched))
	}
	for _, job := range eng.jobs {
		if job.Kind != aiqueue.KindReview || job.Level != 0 || job.Limits == nil || job.Limits.MoveTime <= 0 {
			t.Errorf("job %+v: want a review with a move time and no level", job)
		}
		if !searched[job.Position] {
			t.Errorf("job about %s, not a position of the game that needs a search", job.Position)
		}
		if len(job.History) == 0 {
			t.Errorf("job about %s without the game's history", job.Position)
		}
	}
}

// A worker's bad answer to a position ends the analysis with
// ErrBadAnswer, never with a review built on it.
func TestRemoteReviewRejectsBadAnswers(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		answer aiqueue.Result
	}{
		{"an illegal move", aiqueue.Result{Move: "a1-b2", Score: 10}},
		{"no move", aiqueue.Result{Score: 10}},
		{"a worker that does not know reviews", aiqueue.Result{Err: "ai: bad level: 0"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			remote, q := newRemote(t)
			serve(t, q, func(aiqueue.Job) aiqueue.Result { return tc.answer })
			g := rules.NewGame(rules.Start(rules.Bashni))
			if err := g.Play(g.Legal()[0]); err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(t.Context(), time.Minute) // a hang guard
			defer cancel()
			if _, err := remote.Review(ctx, g); !errors.Is(err, play.ErrBadAnswer) {
				t.Errorf("answer %+v: got %v, want play.ErrBadAnswer", tc.answer, err)
			}
		})
	}
}
