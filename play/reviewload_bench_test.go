package play_test

import (
	"context"
	"math/rand/v2"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/bashni/bashni/ai"
	"github.com/bashni/bashni/aiqueue"
	"github.com/bashni/bashni/internal/testkit"
	"github.com/bashni/bashni/play"
	"github.com/bashni/bashni/play/review"
	"github.com/bashni/bashni/rules"
	"github.com/bashni/bashni/storage"
	"github.com/bashni/bashni/storage/bolt"
	"github.com/bashni/bashni/storage/redis"
	"github.com/bashni/bashni/storage/redis/redistest"
)

// The review queue under load: 30 reviews of 20-ply games queued at once,
// searched with the real per-position limits, while a player plays AI
// moves (level 4) in another game. Reported: positions reviewed a second
// (of the reviews that finished), reviews that failed, and the AI's reply
// time meanwhile. Run alone, once:
//
//	go test -run NONE -bench ReviewsUnderLoad -benchtime 1x ./play

// BenchmarkReviewsUnderLoadLocal reviews on a pool of two engines.
func BenchmarkReviewsUnderLoadLocal(b *testing.B) {
	for range b.N {
		clock := testkit.NewClock(time.Now())
		st, err := bolt.Open(filepath.Join(b.TempDir(), "bench.db"), clock.Now)
		if err != nil {
			b.Fatal(err)
		}
		reviewLoad(b, st, play.NewEnginePool(2, 16, ai.Limits{}), clock.Now, 2)
		st.Close()
	}
}

// BenchmarkReviewsUnderLoadWorker reviews, and plays the AI's moves, on
// one remote worker with one engine, through the Redis job queue: with one
// review runner (one bot replica with one engine), whose positions go to
// the worker one at a time, and with four (two replicas with two engines
// each), which keep four positions queued for the worker at once.
func BenchmarkReviewsUnderLoadWorker(b *testing.B) {
	for _, runners := range []int{1, 4} {
		b.Run("runners="+strconv.Itoa(runners), func(b *testing.B) { reviewsOnWorker(b, runners) })
	}
}

func reviewsOnWorker(b *testing.B, runners int) {
	for range b.N {
		db := redistest.New(b)
		c, err := redis.NewClient(redis.Config{URL: db.URL})
		if err != nil {
			b.Fatal(err)
		}
		st := redis.New(c, time.Now, redis.WithPrefix(db.Prefix))
		q := aiqueue.New(c, db.Prefix, time.Now, aiqueue.QueueOptions{})
		ctx, stop := context.WithCancel(context.Background())
		var wg sync.WaitGroup
		wg.Go(func() { work(ctx, q) })
		reviewLoad(b, st, play.NewRemoteThinker(redisQueue{q}, time.Now, play.RemoteOptions{}), time.Now, runners)
		stop()
		wg.Wait()
		c.Close()
	}
}

// work is one worker with one engine, as `bashni worker` runs it: a job's
// level for a move, its limits for a review position.
func work(ctx context.Context, q *aiqueue.Queue) {
	e := ai.New(ai.Options{HashMB: 16})
	for ctx.Err() == nil {
		job, err := q.Take(ctx, time.Second)
		if err != nil {
			continue
		}
		p, err := rules.ParsePosition(job.Position)
		res := aiqueue.Result{}
		if err == nil {
			req := ai.Request{Position: p, History: job.History, QuietPlies: job.QuietPlies, Level: job.Level, Seed: 1}
			if job.Limits != nil {
				req.Level, req.Limits = 0, ai.Limits{Depth: job.Limits.Depth, Nodes: job.Limits.Nodes, MoveTime: job.Limits.MoveTime}
			}
			var r ai.Result
			r, err = e.Search(ctx, req)
			res = aiqueue.Result{Move: r.Move.String(), Score: r.Score, Depth: r.Depth, Nodes: r.Nodes}
		}
		if err != nil {
			res = aiqueue.Result{Err: err.Error()}
		}
		_ = q.Complete(ctx, job, res)
	}
}

// reviewStore is what the load needs of a store: games and the queue.
type reviewStore interface {
	play.Store
	storage.ReviewQueue
}

// loadEngine plays the AI's moves and reviews games.
type loadEngine interface {
	play.Thinker
	review.Reviewer
}

func reviewLoad(b *testing.B, st reviewStore, th loadEngine, now func() time.Time, runners int) {
	b.Helper()
	games := play.New(st, th, play.DefaultConfig, now)
	s := review.New(games, st, th, review.WithQueue(review.Limits{Max: 64, PerUser: 64, Runners: runners}))
	ids, size := randomFinishedGames(b, st, now(), 30, 20)
	ctx, stop := context.WithCancel(context.Background())
	start := time.Now()
	var failed sync.Map
	var wg sync.WaitGroup
	for i, id := range ids {
		wg.Go(func() {
			if _, err := s.Analyse(ctx, id, int64(100+i)); err != nil {
				failed.Store(id, err)
			}
		})
	}
	runDone := make(chan struct{})
	go func() { defer close(runDone); s.Run(ctx) }()
	reviewed := make(chan struct{})
	go func() { wg.Wait(); close(reviewed) }()
	times := aiRepliesUntil(b, games, reviewed)
	elapsed := time.Since(start)
	stop()
	<-runDone
	report(b, ids, size, &failed, elapsed, times)
}

// players of the load's games.
var (
	loadWhite = storage.Player{UserID: 1, Name: "White"}
	loadBlack = storage.Player{UserID: 2, Name: "Black"}
)

// randomFinishedGames stores n finished games of up to plies random moves
// each (seeded: the same games every run), and returns their ids and
// their positions' count.
func randomFinishedGames(tb testing.TB, st play.Store, now time.Time, n, plies int) ([]string, map[string]int) {
	tb.Helper()
	rng := rand.New(rand.NewPCG(1, 2))
	ids, size := make([]string, n), map[string]int{}
	for i := range ids {
		g := rules.NewGame(rules.Start(rules.Bashni))
		var moves []string
		for range plies {
			legal := g.Legal()
			if r, _ := g.Result(); r != rules.Ongoing || len(legal) == 0 {
				break
			}
			m := legal[rng.IntN(len(legal))]
			if err := g.Play(m); err != nil {
				tb.Fatal(err)
			}
			moves = append(moves, m.String())
		}
		rec := &storage.GameRecord{ID: "load" + strconv.Itoa(i), White: loadWhite, Black: loadBlack, Start: rules.Start(rules.Bashni).String(),
			Position: g.Position().String(), Moves: moves, Status: storage.GameFinished, Result: "0-1", Reason: "resign",
			CreatedAt: now, UpdatedAt: now}
		if err := st.CreateGame(context.Background(), rec); err != nil {
			tb.Fatal(err)
		}
		ids[i], size[rec.ID] = rec.ID, len(moves)+1
	}
	return ids, size
}

// aiRepliesUntil plays AI moves (level 4) in a game of its own, a random
// legal move for the person each time, until done is closed, and returns
// how long each AI move took.
func aiRepliesUntil(b *testing.B, s *play.Service, done <-chan struct{}) []time.Duration {
	ctx := context.Background()
	var times []time.Duration
	var g *play.Game
	rng := rand.New(rand.NewPCG(3, 4))
	for {
		select {
		case <-done:
			return times
		default:
		}
		if g == nil || !g.Active() {
			var err error
			g, err = s.NewAIGame(ctx, play.AIGameRequest{ChatID: 1, Human: loadWhite, Level: 4, Color: play.ColorWhite})
			if err != nil {
				b.Fatal(err)
			}
		}
		legal := g.Rules().Legal()
		out, err := s.Move(ctx, g.ID(), loadWhite.UserID, play.AnyPly, legal[rng.IntN(len(legal))].String())
		if err != nil {
			b.Fatal(err)
		}
		g = out.Game
		if !g.Active() {
			continue
		}
		t0 := time.Now()
		out, err = s.PlayAI(ctx, g.ID())
		if err != nil {
			b.Fatal(err)
		}
		times = append(times, time.Since(t0))
		g = out.Game
	}
}

// report reports the positions of the reviews that finished a second, the
// reviews that failed, and the mean and longest AI reply.
func report(b *testing.B, ids []string, size map[string]int, failed *sync.Map, elapsed time.Duration, times []time.Duration) {
	nFailed, positions := 0, 0
	for _, id := range ids {
		if _, bad := failed.Load(id); bad {
			nFailed++
		} else {
			positions += size[id]
		}
	}
	b.ReportMetric(float64(positions)/elapsed.Seconds(), "positions/s")
	b.ReportMetric(float64(nFailed), "reviews-failed")
	b.ReportMetric(elapsed.Seconds(), "s-all-done")
	if len(times) == 0 {
		return
	}
	var sum, longest time.Duration
	for _, d := range times {
		sum += d
		longest = max(longest, d)
	}
	b.ReportMetric(float64(sum.Milliseconds())/float64(len(times)), "ai-ms-mean")
	b.ReportMetric(float64(longest.Milliseconds()), "ai-ms-max")
	b.ReportMetric(float64(len(times)), "ai-moves")
}
