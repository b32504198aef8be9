package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bashni/bashni/ai"
	"github.com/bashni/bashni/aiqueue"
	"github.com/bashni/bashni/internal/telegramtest"
	"github.com/bashni/bashni/internal/testkit"
	"github.com/bashni/bashni/play"
	"github.com/bashni/bashni/play/review"
	"github.com/bashni/bashni/rules"
	redisstore "github.com/bashni/bashni/storage/redis"
	"github.com/bashni/bashni/storage/redis/redistest"
)

// plantedGame is testkit.PlantedBlunder: the game and its blunder.
func plantedGame(t *testing.T, blunderAt, plies int) (*rules.Game, rules.Move) {
	return testkit.PlantedBlunder(t, plies, blunderAt)
}

// checkBlunderFound fails unless the planted blunder at ply at is among
// the mistakes of Black that an analysis lists. (Not necessarily the
// worst: node-bounded searches on engines whose tables other jobs warmed
// differ a little from run to run, and the depth-4 game has other weak
// moves that a deeper look may rate about as bad.)
func checkBlunderFound(t *testing.T, g *rules.Game, rv ai.Review, at int, blunder rules.Move) {
	t.Helper()
	if len(rv.Scores) != g.Ply()+1 || len(rv.Moves) != g.Ply() {
		t.Fatalf("%d scores and %d move reviews for %d moves", len(rv.Scores), len(rv.Moves), g.Ply())
	}
	listed := rv.Mistakes(review.MistakeThreshold, review.MaxMistakes, rules.Black)
	for _, m := range listed {
		if m.Ply == at {
			if m.Move != blunder || m.Best == blunder {
				t.Errorf("ply %d reviewed as %s (best %s); want the planted %s and another best move", at, m.Move, m.Best, blunder)
			}
			return
		}
	}
	t.Errorf("the planted %s at ply %d is not among Black's mistakes %+v; scores %v", blunder, at, listed, rv.Scores)
}

const (
	blunderAt   = 9 // Black's fifth move
	plantedPlys = 24
)

// A finished game analysed by the bot (newThinker with ai.queue redis,
// behind the measuring wrapper botcmd puts around it) through `bashni
// worker`: the review finds the planted blunder, and the worker logs the
// positions it searched.
func TestWorkerAnalysesAGame(t *testing.T) {
	srv := redistest.Start(t)
	env := workerEnv(srv.URL())
	env["BASHNI_AI_MAX_NODES"] = "20000" // enough to see a man lost
	_, logs := startWorker(t, env)

	botEnv := map[string]string{"REDIS_URL": srv.URL(), "BASHNI_AI_QUEUE": "redis"}
	cfg, err := loadConfig("", func(k string) string { return botEnv[k] })
	if err != nil {
		t.Fatalf("loadConfig: %v", err)
	}
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	clock := testkit.NewClock(time.Now())
	store, err := openStore(t.Context(), cfg, clock.Now, logger)
	if err != nil {
		t.Fatalf("openStore: %v", err)
	}
	defer store.Close()
	thinker := timedThinker{Thinker: newThinker(cfg, store, clock.Now, logger), observe: func(time.Duration) {}}

	g, blunder := plantedGame(t, blunderAt, plantedPlys)
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute) // a hang guard
	defer cancel()
	rv, err := thinker.Review(ctx, g)
	if err != nil {
		t.Fatalf("Review: %v\nworker logs:\n%s", err, logs)
	}
	checkBlunderFound(t, g, rv, blunderAt, blunder)
	if !strings.Contains(logs.String(), `"msg":"analysis position"`) || !strings.Contains(logs.String(), `"kind":"review"`) {
		t.Errorf("worker logs show no analysis positions:\n%s", logs)
	}
}

// queueRig is a bot's RemoteThinker and workers on one Redis queue, all in
// the test's process, with a short visibility timeout so that a dead
// worker's job comes back soon (Redis measures a job's idle time by its
// own clock, which no test clock moves; the tests wait for the event, not
// for the time).
type queueRig struct {
	t     *testing.T
	db    *redistest.DB
	clock *testkit.Clock
	opts  aiqueue.QueueOptions
	logs  testkit.Buffer
}

func newQueueRig(t *testing.T) *queueRig {
	return &queueRig{
		t: t, db: redistest.New(t), clock: testkit.NewClock(time.Now()),
		opts: aiqueue.QueueOptions{VisibilityTimeout: 500 * time.Millisecond},
	}
}

// queue is a new Queue on its own client; now is its clock.
func (r *queueRig) queue(now func() time.Time) *aiqueue.Queue {
	r.t.Helper()
	c, err := redisstore.NewClient(redisstore.Config{URL: r.db.URL})
	if err != nil {
		r.t.Fatalf("NewClient: %v", err)
	}
	r.t.Cleanup(func() { c.Close() })
	return aiqueue.New(c, r.db.Prefix, now, r.opts)
}

// thinker is the bot's side, on the test's clock, sending through wrap.
func (r *queueRig) thinker(wrap func(play.AIQueue) play.AIQueue) *play.RemoteThinker {
	var q play.AIQueue = aiQueue{r.queue(r.clock.Now)}
	if wrap != nil {
		q = wrap(q)
	}
	return play.NewRemoteThinker(q, r.clock.Now, play.RemoteOptions{})
}

// startWorker runs the worker loop of `bashni worker` with one engine; stop
// ends it and waits for it. Workers take the wall clock, as in
// production: their searches end by their leases, which contexts measure.
func (r *queueRig) startWorker() (stop func()) {
	w := &worker{
		q:      r.queue(time.Now),
		logger: slog.New(slog.NewJSONHandler(&r.logs, &slog.HandlerOptions{Level: slog.LevelDebug})),
		hashMB: 1, threads: 1,
		limits: ai.Limits{Nodes: 20000},
	}
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Go(func() { w.serve(ctx) })
	var once sync.Once
	stop = func() { once.Do(func() { cancel(); wg.Wait() }) }
	r.t.Cleanup(stop)
	return stop
}

// hookedQueue calls its hooks around a queue's Submit.
type hookedQueue struct {
	play.AIQueue
	beforeSubmit, afterSubmit func(play.AIJob)
}

func (h hookedQueue) Submit(ctx context.Context, j play.AIJob) error {
	if h.beforeSubmit != nil {
		h.beforeSubmit(j)
	}
	err := h.AIQueue.Submit(ctx, j)
	if err == nil && h.afterSubmit != nil {
		h.afterSubmit(j)
	}
	return err
}

// A worker takes a position of an analysis under way and dies with it:
// once its lease runs out another worker takes the job up, and the
// analysis finishes with the planted blunder found.
func TestAnalysisSurvivesADeadWorker(t *testing.T) {
	t.Parallel()
	r := newQueueRig(t)
	stopFirst := r.startWorker()
	dead := r.queue(time.Now)
	const dieAt = 5 // the fifth position sent
	var (
		sent    int // the analysis's calls come one after another: no lock
		orphan  string
		errTake error
	)
	thinker := r.thinker(func(q play.AIQueue) play.AIQueue {
		return hookedQueue{AIQueue: q,
			beforeSubmit: func(play.AIJob) {
				// The first worker stops between two positions, holding
				// nothing (the position before is answered) ...
				if sent++; sent == dieAt {
					stopFirst()
				}
			},
			afterSubmit: func(play.AIJob) {
				if sent != dieAt {
					return
				}
				// ... the dying one takes the next and never answers, and
				// a fresh worker starts.
				var job aiqueue.Job
				job, errTake = dead.Take(t.Context(), 10*time.Second)
				orphan = job.ID
				r.startWorker()
			},
		}
	})

	g, blunder := plantedGame(t, blunderAt, plantedPlys)
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute) // a hang guard
	defer cancel()
	rv, err := thinker.Review(ctx, g)
	if errTake != nil {
		t.Fatalf("the dying worker's Take: %v", errTake)
	}
	if err != nil {
		t.Fatalf("Review: %v\nworker logs:\n%s", err, r.logs.String())
	}
	if sent <= dieAt {
		t.Fatalf("%d positions sent: the analysis ended before a worker died", sent)
	}
	checkBlunderFound(t, g, rv, blunderAt, blunder)
	if !strings.Contains(r.logs.String(), `"job":"`+orphan+`"`) {
		t.Errorf("no worker logs the dead worker's job %s:\n%s", orphan, r.logs.String())
	}
}

// An AI move asked for while an analysis runs on the only worker is
// answered before the analysis's next position, not after the whole
// analysis: an analysis has one job in the queue at a time, so moves wait
// behind one position at most. The analysis still finishes.
func TestAIMovesServedDuringAnalysis(t *testing.T) {
	t.Parallel()
	r := newQueueRig(t)
	r.startWorker()

	const askAt = 3 // the move is asked for once this position is queued
	var (
		mu      sync.Mutex
		reviews []string // review job ids, as sent
		moveJob string
		asked   = make(chan struct{})
		moved   = make(chan error, 1)
	)
	game := rules.NewGame(rules.Start(rules.Bashni))
	var thinker *play.RemoteThinker
	thinker = r.thinker(func(q play.AIQueue) play.AIQueue {
		return hookedQueue{AIQueue: q, afterSubmit: func(j play.AIJob) {
			mu.Lock()
			if !j.Review() {
				moveJob = j.ID
				mu.Unlock()
				close(asked)
				return
			}
			reviews = append(reviews, j.ID)
			n := len(reviews)
			mu.Unlock()
			if n != askAt {
				return
			}
			go func() {
				ctx, cancel := context.WithTimeout(context.Background(), time.Minute) // a hang guard
				defer cancel()
				m, err := thinker.Think(ctx, game, 3)
				if err == nil && !slices.Contains(game.Legal(), m) {
					err = fmt.Errorf("%v is not a legal move", m)
				}
				moved <- err
			}()
			<-asked // the move's job is queued before the next position's
		}}
	})

	g, blunder := plantedGame(t, blunderAt, plantedPlys)
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute) // a hang guard
	defer cancel()
	rv, err := thinker.Review(ctx, g)
	if err != nil {
		t.Fatalf("Review: %v\nworker logs:\n%s", err, r.logs.String())
	}
	checkBlunderFound(t, g, rv, blunderAt, blunder)
	if err := <-moved; err != nil {
		t.Fatalf("Think during the analysis: %v", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(reviews) <= askAt+1 {
		t.Fatalf("%d positions sent; the test needs more than %d", len(reviews), askAt+1)
	}
	// One engine: the worker's log is the order it served jobs in.
	logs := r.logs.String()
	move, next := strings.Index(logs, `"job":"`+moveJob+`"`), strings.Index(logs, `"job":"`+reviews[askAt]+`"`)
	if move < 0 || next < 0 || move > next {
		t.Errorf("the move (job %s) was not served before the analysis's next position (job %s):\n%s", moveJob, reviews[askAt], logs)
	}
}

// The whole way: a Telegram user resigns a game against the AI on a bot
// with ai.queue redis, taps Analyse, and gets the graph, its positions
// searched by `bashni worker`.
func TestE2EAnalysisFromWorker(t *testing.T) {
	redis := redistest.Start(t)
	_, workerLogs := startWorker(t, workerEnv(redis.URL()))
	srv := telegramtest.New(t)
	startBot(t, srv, map[string]string{"REDIS_URL": redis.URL(), "BASHNI_AI_QUEUE": "redis"})
	alice := newUser(301, "Alice", "en")
	chat := alice.chat

	say(srv, chat, alice, "/play 2 white")
	c := waitMessage(t, srv, chat.ID, "board card", func(m telegramtest.Msg) bool { return m.Kind == "photo" })
	for range 2 {
		pickFirstMove(t, srv, chat, alice, c.ID)
		waitTurn(t, srv, chat.ID, c.ID)
	}
	resign(t, srv, chat, alice)
	final := waitMessage(t, srv, chat.ID, "finished card", func(m telegramtest.Msg) bool { return m.ID == c.ID && gameOver(m) })
	tap(t, srv, chat, alice, c.ID, analyseButton(t, final))
	a := waitMessage(t, srv, chat.ID, "analysis", func(m telegramtest.Msg) bool {
		return m.Kind == "photo" && strings.Contains(m.Text, "Analysis") || strings.Contains(m.Text, "not available")
	})
	if a.Kind != "photo" || !strings.Contains(a.Text, "Analysis: Alice vs") {
		t.Fatalf("answer to Analyse: %s %q, want the analysis graph", a.Kind, a.Text)
	}
	checkPNG(t, a.Data)
	if !workerLogs.WaitFor(`"msg":"analysis position"`, 10*time.Second) {
		t.Errorf("the analysis came, but not through the worker; worker logs:\n%s", workerLogs)
	}
}

// How the worker reads jobs: a move at its level with randomness, a
// review within exactly its limits, the worker's max_nodes over either;
// what it cannot read is refused with a reason, never a panic.
func TestSearchRequest(t *testing.T) {
	const pos = "w:a1w,c3w,h8b"
	move := aiqueue.Job{ID: "m", Position: pos, Level: 3}
	review := aiqueue.Job{ID: "r", Kind: aiqueue.KindReview, Position: pos, Limits: &aiqueue.Limits{MoveTime: 200 * time.Millisecond}}
	for _, tc := range []struct {
		name    string
		job     aiqueue.Job
		limits  ai.Limits
		level   int
		want    ai.Limits
		wantErr string
	}{
		{"a move", move, ai.Limits{}, 3, ai.Limits{}, ""},
		{"a move on a capped worker", move, ai.Limits{Nodes: 500}, 0, ai.Limits{Nodes: 500}, ""},
		{"a review", review, ai.Limits{}, 0, ai.Limits{MoveTime: 200 * time.Millisecond}, ""},
		{"a review on a capped worker", review, ai.Limits{Nodes: 500}, 0, ai.Limits{Nodes: 500}, ""},
		{"a review without limits", aiqueue.Job{ID: "r", Kind: aiqueue.KindReview, Position: pos}, ai.Limits{}, 0, ai.Limits{}, "bad limits"},
		{"a review with negative limits", aiqueue.Job{ID: "r", Kind: aiqueue.KindReview, Position: pos, Limits: &aiqueue.Limits{Depth: -1}}, ai.Limits{}, 0, ai.Limits{}, "bad limits"},
		{"a kind from a later version", aiqueue.Job{ID: "k", Kind: "tablebase", Position: pos, Level: 3}, ai.Limits{}, 0, ai.Limits{}, "unknown job kind"},
		{"a move without a level", aiqueue.Job{ID: "l", Position: pos}, ai.Limits{}, 0, ai.Limits{}, "level"},
		{"not a position", aiqueue.Job{ID: "p", Position: "w:z9w", Level: 3}, ai.Limits{}, 0, ai.Limits{}, "position"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req, err := searchRequest(tc.job, tc.limits)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Errorf("got %+v, %v; want an error about %q", req, err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("searchRequest: %v", err)
			}
			if req.Level != tc.level || req.Limits != tc.want || req.Position.String() != rules.MustParsePosition(pos).String() {
				t.Errorf("request: level %d, limits %+v, position %s; want %d, %+v, %s", req.Level, req.Limits, req.Position, tc.level, tc.want, pos)
			}
			if tc.job.Kind == aiqueue.KindReview && req.Seed != 0 {
				t.Errorf("a review with a seed, %d: reviews have no randomness", req.Seed)
			}
		})
	}
}
