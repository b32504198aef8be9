package ai

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/bashni/bashni/rules"
)

const (
	// MaxPly bounds the search path, quiescence included.
	MaxPly = 128
	// MateScore is the score of a won position at the root; a win found n
	// plies ahead scores MateScore-n.
	MateScore = 30000
	// DefaultHashMB is the transposition table size when Options leave it 0.
	DefaultHashMB = 16

	infinity = 32000
)

// ErrNoMoves is returned by Search for a position whose side to move has no
// legal move: the game is over (that side has lost).
var ErrNoMoves = errors.New("ai: no legal moves: the side to move has lost")

// ErrBadLevel is returned for a level outside 1..len(Levels).
var ErrBadLevel = errors.New("ai: no such level")

// Limits bound one search. Zero fields are unlimited; when all are zero the
// request's level decides.
type Limits struct {
	Depth    int           // iterations of iterative deepening, in plies
	Nodes    uint64        // positions visited, quiescence included
	MoveTime time.Duration // wall-clock time for the whole search
}

// Request is one position to search and how.
type Request struct {
	Position rules.Position
	// History holds the hashes (Position.Hash) of the game's earlier
	// positions, oldest first, so the search sees repetitions. It may end
	// with Position's own hash (as rules.Game.History does).
	History []uint64
	// QuietPlies counts the plies in a row before Position that count
	// towards its variant's 15-move rule (rules.Game.QuietPlies).
	QuietPlies int
	// Limits, where non-zero, replace the level's.
	Limits Limits
	// Level is 1..len(Levels); 0 means full strength (the top level's
	// limits) when Limits are all zero, else exactly Limits with no
	// randomness.
	Level int
	// Noise, when non-zero, replaces the level's root randomness (see
	// Level.Noise); with Level 0 it adds randomness to exactly Limits.
	Noise int
	// Seed drives the randomness of the weaker levels; the same seed gives
	// the same choice.
	Seed int64
}

// Result is the engine's answer.
type Result struct {
	Move    rules.Move
	Score   int // for the side to move, hundredths of a man
	Depth   int // last iteration completed
	Nodes   uint64
	PV      []rules.Move // principal variation, starting with Move
	Elapsed time.Duration
}

// Options configure an Engine.
type Options struct {
	// HashMB is the transposition table size in megabytes (DefaultHashMB
	// when 0).
	HashMB int
	// Weights, when not nil, replaces the weights of every variant
	// (WeightsFor): a match or a tuning run plays exactly these.
	Weights *Weights
	// Threads is how many goroutines search each position (1 when 0, at
	// most MaxThreads): helpers search the same tree sharing the
	// transposition table (Lazy SMP), and the main one answers.
	Threads int
}

// MaxThreads bounds Options.Threads.
const MaxThreads = 64

// frame is one ply's reusable buffers.
type frame struct {
	moves   []rules.Move
	order   []int32
	killers [2]uint32
}

// rootMove is a legal move at the root with its latest score.
type rootMove struct {
	move  rules.Move
	score int // latest score, possibly a bound or from an unfinished iteration
	done  int // exact score of the last complete iteration (all-moves mode)
}

// Engine searches positions. It keeps a transposition table and history
// between searches, so a game's searches help each other; Reset forgets
// them. Search locks the Engine: one search runs at a time.
type Engine struct {
	mu sync.Mutex
	tt *table
	ev *evaluator // the search's: evs' entry for the root position's variant
	// evs holds an evaluator per variant, made once: the Engine is built
	// before it knows what it will be asked, and each search picks its
	// root position's (prepare), so the evaluation's hot path is the same
	// for every variant.
	evs *variantEvaluators

	frames  [MaxPly + 1]frame
	pos     [MaxPly + 1]rules.Position // the position at each ply of the path
	hashes  [MaxPly + 1]uint64         // position hash per ply of the current path
	quiet   [MaxPly + 1]int            // plies counting towards the 15-move rule (rules.Game.QuietPlies)
	rev     [MaxPly + 1]int            // plies since the last irreversible move
	history [2][rules.NumSquares][rules.NumSquares]int32
	pv      [MaxPly + 1][MaxPly + 1]rules.Move
	pvLen   [MaxPly + 1]int
	game    hashSet
	root    []rootMove

	nodes     uint64
	nodeLimit uint64
	deadline  time.Time
	timed     bool
	spendAll  bool // the deadline is a MoveTime to think for, not a bound to stop by
	done      <-chan struct{}
	stopped   bool
	rootDepth int
	newBest   bool // a root move other than the first beat it in this iteration
	start     time.Time
	exact     bool // no reductions or pruning (they make scores depend on move order)
	kingsOnly bool // the variant's 15-move count starts again at any man's move (rules.DrawRules)

	helpers []*Engine // Lazy SMP threads sharing tt, Options.Threads-1 of them
	skip    int       // a helper's first iteration is 1+skip: threads spread over depths
}

// New makes an Engine. Its transposition table is allocated here, once.
func New(opts Options) *Engine {
	mb := opts.HashMB
	if mb <= 0 {
		mb = DefaultHashMB
	}
	evs := newVariantEvaluators(opts.Weights)
	e := newEngine(newTable(mb), evs)
	for range min(max(opts.Threads, 1), MaxThreads) - 1 {
		e.helpers = append(e.helpers, newEngine(e.tt, evs))
	}
	return e
}

// newEngine makes an Engine, or a helper of one, on the table tt.
func newEngine(tt *table, evs *variantEvaluators) *Engine {
	e := &Engine{tt: tt, evs: evs, ev: evs.of(rules.Bashni)}
	for i := range e.frames {
		e.frames[i].moves = make([]rules.Move, 0, 64)
		e.frames[i].order = make([]int32, 64)
	}
	return e
}

// Reset forgets everything learned in earlier searches (transposition
// table, history, killers), so the next search behaves as a new Engine's.
func (e *Engine) Reset() {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.tt.clear()
	e.history = [2][rules.NumSquares][rules.NumSquares]int32{}
	for _, h := range e.helpers {
		h.history = e.history
	}
}

// Evaluate returns the static evaluation of p for the side to move, without
// search, with the weights of p's variant.
func (e *Engine) Evaluate(p rules.Position) int {
	s, _ := e.evs.of(p.Variant()).evaluate(&p)
	return s
}

// Search finds a move for req.Position. It always returns a legal move when
// one exists; a single legal move is returned at once. When ctx ends the
// search it returns the best move found so far together with ctx.Err().
// A position without legal moves gives ErrNoMoves.
func (e *Engine) Search(ctx context.Context, req Request) (Result, error) {
	start := time.Now()
	e.mu.Lock()
	defer e.mu.Unlock()

	limits, noise, err := resolve(req)
	if err != nil {
		return Result{}, err
	}
	p := req.Position
	e.root = e.root[:0]
	legal := p.LegalMoves(e.frames[0].moves[:0])
	e.frames[0].moves = legal[:0]
	if len(legal) == 0 {
		return Result{}, ErrNoMoves
	}
	for _, m := range legal {
		e.root = append(e.root, rootMove{move: m})
	}
	if len(legal) == 1 {
		m := legal[0]
		return Result{Move: m, PV: []rules.Move{m}, Elapsed: time.Since(start)}, nil
	}

	e.tt.newSearch()
	e.prepare(ctx, req, limits, start)
	var res Result
	switch {
	case noise > 0:
		// Noisy searches stay on one thread: they are weak on purpose,
		// and one thread keeps a seed's choice reproducible.
		res = e.iterate(&p, limits.Depth, true)
		res = e.pickNoisy(res, noise, req.Seed)
		res.Nodes = e.nodes
	case limits.Nodes > 0:
		// A node budget is a fixed amount of search, which is what the
		// levels are: searched on one thread, a level plays the same on
		// any machine and whatever the threads setting, as measured.
		res = e.iterate(&p, limits.Depth, false)
		res.Nodes = e.nodes
	default:
		wait := e.startHelpers(ctx, req, limits, start, legal)
		res = e.iterate(&p, limits.Depth, false)
		res.Nodes = e.nodes + wait()
	}
	res.Elapsed = time.Since(start)
	if ctx.Err() != nil {
		return res, fmt.Errorf("ai: search stopped: %w", ctx.Err())
	}
	return res, nil
}

// resolve turns a request's level and limits into the limits to search with
// and the root randomness.
func resolve(req Request) (Limits, int, error) {
	lim := req.Limits
	if req.Noise < 0 {
		return Limits{}, 0, fmt.Errorf("ai: noise %d: want 0 or more", req.Noise)
	}
	if req.Level == 0 {
		if lim != (Limits{}) {
			return lim, req.Noise, nil
		}
		return Levels[len(Levels)-1].Limits, req.Noise, nil
	}
	if req.Level < 1 || req.Level > len(Levels) {
		return Limits{}, 0, fmt.Errorf("%w: %d (want 1 to %d)", ErrBadLevel, req.Level, len(Levels))
	}
	lv := Levels[req.Level-1]
	out := lv.Limits
	if lim.Depth != 0 {
		out.Depth = lim.Depth
	}
	if lim.Nodes != 0 {
		out.Nodes = lim.Nodes
	}
	if lim.MoveTime != 0 {
		out.MoveTime = lim.MoveTime
	}
	noise := lv.Noise
	if req.Noise != 0 {
		noise = req.Noise
	}
	return out, noise, nil
}

// prepare resets the per-search state.
func (e *Engine) prepare(ctx context.Context, req Request, lim Limits, start time.Time) {
	e.ev = e.evs.of(req.Position.Variant())
	e.kingsOnly = req.Position.Variant().DrawRules().KingMovesOnly
	e.nodes = 0
	e.start = start
	e.nodeLimit = lim.Nodes
	e.stopped = false
	e.done = ctx.Done()
	e.timed, e.spendAll = false, false
	if lim.MoveTime > 0 {
		e.deadline, e.timed, e.spendAll = start.Add(lim.MoveTime), true, true
	}
	if d, ok := ctx.Deadline(); ok && (!e.timed || d.Before(e.deadline)) {
		e.deadline, e.timed, e.spendAll = d, true, false
	}
	for c := range e.history {
		for f := range e.history[c] {
			for t := range e.history[c][f] {
				e.history[c][f][t] /= 8
			}
		}
	}
	for i := range e.frames {
		e.frames[i].killers = [2]uint32{}
	}
	h := req.Position.Hash()
	hist := req.History
	if n := len(hist); n > 0 && hist[n-1] == h {
		hist = hist[:n-1]
	}
	e.game.reset(hist)
	e.hashes[0] = h
	e.quiet[0] = req.QuietPlies
	e.rev[0] = 0
}

// poll checks the clock and the context; it runs every 1024 nodes.
func (e *Engine) poll() {
	select {
	case <-e.done:
		e.stopped = true
		return
	default:
	}
	if e.timed && !time.Now().Before(e.deadline) {
		e.stopped = true
	}
}

// iterate runs iterative deepening up to maxDepth (0: until a limit stops
// it). With all set, every root move gets an exact score (for the levels
// that choose among near-best moves).
func (e *Engine) iterate(p *rules.Position, maxDepth int, all bool) Result {
	if maxDepth <= 0 || maxDepth > MaxPly-8 {
		maxDepth = MaxPly - 8
	}
	var res Result
	e.orderRoot(p)
	res.Move = e.root[0].move
	prev := 0
	for depth := 1 + e.skip; depth <= maxDepth; depth++ {
		e.rootDepth = depth
		e.newBest = false
		var score int
		var ok bool
		if all {
			score, ok = e.searchRootAll(p, depth)
		} else {
			score, ok = e.aspirate(p, depth, prev)
		}
		if !ok {
			// Stopped mid-iteration: a move that beat the previous best
			// at this depth is the better move; take it.
			if !all && e.newBest && e.root[0].move != res.Move && depth > 1 {
				res.Move, res.Score = e.root[0].move, e.root[0].score
				res.PV = append(res.PV[:0], e.pv[0][:e.pvLen[0]]...)
			}
			break
		}
		prev = score
		res.Move, res.Score, res.Depth = e.root[0].move, score, depth
		res.PV = append(res.PV[:0], e.pv[0][:e.pvLen[0]]...)
		if score > MateScore-MaxPly && MateScore-score <= depth {
			break // a forced win within the horizon: deeper cannot improve it
		}
		if score < -MateScore+MaxPly && MateScore+score <= depth {
			break
		}
		// A MoveTime is time given to think, so it is spent to its end: an
		// iteration cut short still answers with its best completed root
		// move. Stopping once half had passed, as the engine did before,
		// left 43% of a second unused on average. A context's deadline
		// is a bound, not a gift: there the search stops when the next
		// iteration would not finish in time.
		if e.timed && !e.spendAll && time.Since(e.start)*2 > e.deadline.Sub(e.start) {
			break
		}
	}
	if len(res.PV) == 0 || res.PV[0] != res.Move {
		res.PV = append(res.PV[:0], res.Move)
	}
	return res
}
