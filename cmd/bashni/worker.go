package main

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"log/slog"
	mrand "math/rand/v2"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/bashni/bashni/ai"
	"github.com/bashni/bashni/aiqueue"
	"github.com/bashni/bashni/play"
	"github.com/bashni/bashni/rules"
	redisstore "github.com/bashni/bashni/storage/redis"
)

// cmdWorker serves the AI job queue: cfg.AI.Workers engines, each taking
// one job at a time. On a signal it takes no more jobs, finishes the ones
// in hand (each bounded by its lease) and stops.
func cmdWorker(ctx context.Context, e env) error {
	fs := newFlags(e, "worker", "[-config FILE]")
	configPath := fs.String("config", e.getenv("BASHNI_CONFIG"), "YAML config file (env BASHNI_CONFIG); every setting also reads from the environment")
	if err := parseFlags(fs, e.args); err != nil {
		return err
	}
	cfg, err := loadConfigEnv(*configPath, e)
	if err != nil {
		return err
	}
	if storeKind(cfg) != "redis" {
		return usageError("worker: no Redis to take AI jobs from: set REDIS_URL (or redis.url in the config file) to the bot's Redis")
	}
	logger := newLogger(cfg, e.stderr)
	store, err := openStore(ctx, cfg, e.now, logger)
	if err != nil {
		return err
	}
	defer store.Close()
	rs, ok := store.(*redisstore.Store)
	if !ok {
		return fmt.Errorf("worker: the store is a %T, not Redis", store)
	}
	host, _ := os.Hostname()
	consumer := fmt.Sprintf("%s-%d-%s", host, os.Getpid(), rand.Text()[:6])
	w := &worker{
		q:       aiqueue.New(rs.Client(), rs.Prefix(), e.now, aiqueue.QueueOptions{Consumer: consumer}),
		logger:  logger,
		hashMB:  cfg.AI.HashMB,
		threads: cfg.aiThreads(),
	}
	if cfg.AI.MaxNodes > 0 {
		w.limits.Nodes = uint64(cfg.AI.MaxNodes)
	}
	logger.Info("worker started", "engines", cfg.AI.Workers, "consumer", consumer,
		"max_nodes", cfg.AI.MaxNodes, "visibility_timeout", w.q.VisibilityTimeout())

	var wg sync.WaitGroup
	for range cfg.AI.Workers {
		wg.Go(func() { w.serve(ctx) })
	}
	// The AI moves owed in games whose bot replica died: claimed here as
	// well as by the bots' clocks, thought by the queue (these engines),
	// and stored with their event, which the bot replicas are woken to
	// show (wake.go).
	svc := play.New(newLiveBoard(cfg, store, logger).store(store),
		play.NewRemoteThinker(aiQueue{aiqueue.New(rs.Client(), rs.Prefix(), e.now, aiqueue.QueueOptions{})}, e.now, play.RemoteOptions{}),
		playConfig(cfg), e.now, play.WithLogger(logger), wakeReplicas(rs, logger))
	wg.Go(func() { svc.RunAI(ctx, max(cfg.AI.Workers, 1), play.AIHooks{}) })
	wg.Go(func() { claimOwedAI(ctx, svc, cfg.Game.ClockInterval, logger) })
	wg.Wait()

	lctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 3*time.Second)
	defer cancel()
	if err := w.q.Leave(lctx); err != nil {
		logger.Warn("could not leave the consumer group", "err", err)
	}
	logger.Info("worker stopped", "jobs", w.jobs.Load())
	return nil
}

// claimOwedAI claims the AI moves whose claim ran out, every interval
// until ctx ends.
func claimOwedAI(ctx context.Context, svc *play.Service, interval time.Duration, logger *slog.Logger) {
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		if n, err := svc.ClaimAI(ctx, 100); err != nil && ctx.Err() == nil {
			logger.Warn("claiming owed AI moves failed", "err", err)
		} else if n > 0 {
			logger.Info("claimed AI moves a bot left owed", "count", n)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// worker is what the engine goroutines of `bashni worker` share.
type worker struct {
	q       *aiqueue.Queue
	logger  *slog.Logger
	hashMB  int
	threads int
	limits  ai.Limits // non-zero: replace every level's (max_nodes)
	down    atomic.Bool
	jobs    atomic.Int64
}

// serve is one engine's loop: take a job, think, answer, until ctx ends.
// Redis going away is logged once and waited out.
func (w *worker) serve(ctx context.Context) {
	engine := ai.New(ai.Options{HashMB: w.hashMB, Threads: w.threads})
	for {
		job, err := w.q.Take(ctx, 2*time.Second)
		switch {
		case ctx.Err() != nil:
			return
		case errors.Is(err, aiqueue.ErrNoJob):
			continue
		case err != nil:
			if !w.down.Swap(true) {
				w.logger.Warn("AI queue unavailable; retrying", "err", err)
			}
			select {
			case <-ctx.Done():
				return
			case <-time.After(time.Second):
			}
			continue
		}
		if w.down.Swap(false) {
			w.logger.Info("AI queue available again")
		}
		w.handle(ctx, engine, job)
	}
}

// handle answers one job. A job in hand is finished even when ctx ends:
// its search is bounded by the job's deadline and lease, and the bot is
// waiting for it.
func (w *worker) handle(ctx context.Context, engine *ai.Engine, job aiqueue.Job) {
	start := time.Now()
	ctx = context.WithoutCancel(ctx)
	res := w.think(ctx, engine, job)
	cctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	w.jobs.Add(1)
	log := w.logger.With("job", job.ID, "game", job.GameID, "level", job.Level)
	if job.Kind != aiqueue.KindMove {
		log = log.With("kind", job.Kind)
	}
	if err := w.q.Complete(cctx, job, res); err != nil {
		// It stays pending; a worker takes it again after the lease.
		log.Warn("could not deliver an AI answer", "err", err)
		return
	}
	if res.Err != "" {
		log.Warn("AI job refused", "reason", res.Err)
		return
	}
	msg := "AI move"
	if job.Kind == aiqueue.KindReview {
		msg = "analysis position"
		log = log.With("score", res.Score)
	}
	log.Debug(msg, "move", res.Move, "depth", res.Depth, "nodes", res.Nodes, "took", time.Since(start))
}

// think searches the job's position. The search ends by the job's
// deadline and before its lease runs out, so no other worker takes the job
// meanwhile; what is best by then is the answer.
func (w *worker) think(ctx context.Context, engine *ai.Engine, job aiqueue.Job) aiqueue.Result {
	req, err := searchRequest(job, w.limits)
	if err != nil {
		return aiqueue.Result{Err: err.Error()}
	}
	end := job.LeaseEnds().Add(-w.q.VisibilityTimeout() / 10) // a tenth kept for answering
	if !job.Deadline.IsZero() && job.Deadline.Before(end) {
		end = job.Deadline
	}
	sctx, cancel := context.WithDeadline(ctx, end)
	defer cancel()
	res, err := engine.Search(sctx, req)
	if err != nil && !(errors.Is(err, context.DeadlineExceeded) && res.Move.Len() > 0) {
		return aiqueue.Result{Err: err.Error()}
	}
	out := aiqueue.Result{Move: res.Move.String(), Depth: res.Depth, Nodes: res.Nodes}
	if job.Kind == aiqueue.KindReview {
		out.Score = res.Score
	}
	return out
}

// searchRequest reads a job as the engine's request, as play's local
// engine pool would make it: non-zero limits replace the level's, and a
// review's own limits. A job it cannot read gets an error that says why.
func searchRequest(job aiqueue.Job, limits ai.Limits) (ai.Request, error) {
	v, err := rules.ParseVariant(job.Variant)
	if err != nil {
		return ai.Request{}, err
	}
	p, err := rules.ParsePosition(job.Position)
	if err != nil {
		return ai.Request{}, err
	}
	req := ai.Request{
		Position:   p.WithVariant(v),
		History:    job.History,
		QuietPlies: job.QuietPlies,
	}
	switch job.Kind {
	case aiqueue.KindMove:
		if job.Level < 1 || job.Level > len(ai.Levels) {
			return ai.Request{}, fmt.Errorf("%w: %d", ai.ErrBadLevel, job.Level)
		}
		req.Level, req.Seed = job.Level, mrand.Int64()
	case aiqueue.KindReview:
		// Level 0 with limits: exactly those, no randomness.
		l := job.Limits
		if l == nil || *l == (aiqueue.Limits{}) || l.Depth < 0 || l.MoveTime < 0 {
			return ai.Request{}, fmt.Errorf("aiqueue: review job %s: bad limits %+v", job.ID, l)
		}
		req.Limits = ai.Limits{Depth: l.Depth, Nodes: l.Nodes, MoveTime: l.MoveTime}
	default:
		return ai.Request{}, fmt.Errorf("%w %q (this worker is older than the bot that sent it)", aiqueue.ErrUnknownKind, job.Kind)
	}
	if limits != (ai.Limits{}) {
		req.Level, req.Limits = 0, limits
	}
	return req, nil
}

// newThinker picks where the bot's AI moves are computed: by this
// process's engine pool, or by `bashni worker` processes through the Redis
// queue (ai.queue: redis, which the config allows only with Redis).
func newThinker(cfg Config, store Store, now func() time.Time, logger *slog.Logger) play.Thinker {
	if cfg.AI.Queue == "redis" {
		if rs, ok := store.(*redisstore.Store); ok {
			return play.NewRemoteThinker(aiQueue{aiqueue.New(rs.Client(), rs.Prefix(), now, aiqueue.QueueOptions{})}, now, play.RemoteOptions{})
		}
		logger.Warn("ai.queue is redis but the store is not; the AI thinks in this process")
	}
	return newEnginePool(cfg)
}

// aiQueue is the Redis job queue as play wants it.
type aiQueue struct{ q *aiqueue.Queue }

var _ play.AIQueue = aiQueue{}

func (a aiQueue) Submit(ctx context.Context, j play.AIJob) error {
	pos, err := j.Position.MarshalText()
	if err != nil {
		return err
	}
	return a.q.Submit(ctx, queueJob(j, string(pos)))
}

func (a aiQueue) Await(ctx context.Context, jobID string) (play.AIReply, error) {
	res, err := a.q.Await(ctx, jobID)
	return play.AIReply{Move: res.Move, Score: res.Score, Depth: res.Depth, Nodes: res.Nodes, Err: res.Err}, err
}

// queueJob is play's job on the wire, pos its position as text.
func queueJob(j play.AIJob, pos string) aiqueue.Job {
	job := aiqueue.Job{
		ID:         j.ID,
		Position:   pos,
		Variant:    j.Position.Variant().String(),
		History:    j.History,
		QuietPlies: j.QuietPlies,
		Level:      j.Level,
		Deadline:   j.Deadline,
	}
	if j.Review() {
		job.Kind, job.Level = aiqueue.KindReview, 0
		job.Limits = &aiqueue.Limits{Depth: j.Limits.Depth, Nodes: j.Limits.Nodes, MoveTime: j.Limits.MoveTime}
	}
	return job
}
