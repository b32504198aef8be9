package mining

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/bashni/bashni/play"
	"github.com/bashni/bashni/puzzle"
	"github.com/bashni/bashni/rules"
	"github.com/bashni/bashni/storage"
)

// Options tune a Miner; zero fields take the defaults.
type Options struct {
	// Nodes is the judge's budget a move (10,000, the shipped set's);
	// each solver move must be the only win at it and at twice it, and a
	// puzzle kept passes the shipped set's check at twice it.
	Nodes uint64
	// MinLevel drops puzzles the AI's levels below it solve (2, as the
	// shipped set); MaxLevel is the strongest level tried when rating a
	// puzzle (16).
	MinLevel, MaxLevel int
	// Settle: a game finished less than this long ago waits for the next
	// run (2 min). A finishing write is logged by its writer's clock
	// before the write lands (storage.Mining), so the miner stays behind
	// the present by more than the replicas' clocks differ.
	Settle time.Duration
	// Lease: how long a run holds the mark without moving it before
	// another run may take it (10 min; a game's search takes seconds).
	Lease time.Duration
	// Holder names this run in the mark.
	Holder string
}

func (o Options) withDefaults() Options {
	if o.Nodes == 0 {
		o.Nodes = 10000
	}
	if o.MinLevel <= 0 {
		o.MinLevel = 2
	}
	if o.MaxLevel <= 0 {
		o.MaxLevel = 16
	}
	if o.Settle <= 0 {
		o.Settle = 2 * time.Minute
	}
	if o.Lease <= 0 {
		o.Lease = 10 * time.Minute
	}
	if o.Holder == "" {
		o.Holder = "miner"
	}
	return o
}

// ErrHeld: another run holds the mark (its lease is live), or took it
// over while this run was between games.
var ErrHeld = errors.New("mining: another run holds the mark")

// batch is how many log entries a run reads at a time.
const batch = 64

// Miner mines the finished games for puzzles. It is not safe for
// concurrent use: one run at a time in a process (the engine's search is
// its own), and the mark keeps runs of several processes apart.
type Miner struct {
	store   MineStore
	opts    Options
	now     func() time.Time
	log     *slog.Logger
	shipped map[string]bool
	finder  *puzzle.Finder
}

// New makes a Miner over store; shipped is the set built into the binary,
// whose puzzles are not kept again; now is the process's clock.
func New(store MineStore, shipped []puzzle.Puzzle, now func() time.Time, log *slog.Logger, opts Options) *Miner {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	opts = opts.withDefaults()
	m := &Miner{store: store, opts: opts, now: now, log: log, shipped: make(map[string]bool, len(shipped))}
	for _, p := range shipped {
		m.shipped[p.ID] = true
	}
	m.finder = puzzle.NewFinder(opts.Nodes)
	m.finder.MaxLevel = opts.MaxLevel
	return m
}

// Report is what a run did.
type Report struct {
	Games int // log entries gone through: the mark moved past them
	Mined int // of those, the games searched (finished, and of a kind mined)
	Found int // puzzles the finder found in them
	Kept  int // puzzles kept: new, hard enough, not shipped, checked
	Mark  storage.MineMark
}

// Run mines up to max games (0: every one) of those finished since the
// mark and before the settling time, moving the mark past each game as
// it is done, and gives the mark up at the end. It ends early, without
// an error, when ctx does (the game under way is mined again next time).
// ErrHeld: another run holds the mark.
func (m *Miner) Run(ctx context.Context, max int) (rep Report, err error) {
	mark, err := m.claim(ctx)
	if err != nil {
		return rep, err
	}
	defer func() {
		m.release(context.WithoutCancel(ctx), mark)
		rep.Mark = *mark
	}()
	for max <= 0 || rep.Games < max {
		before := m.now().Add(-m.opts.Settle)
		entries, err := m.store.FinishedGames(ctx, storage.FinishedGame{ID: mark.Game, At: mark.At}, before, batch)
		if err != nil {
			return rep, stopped(ctx, err)
		}
		if len(entries) == 0 {
			return rep, nil
		}
		for _, e := range entries {
			if max > 0 && rep.Games >= max {
				return rep, nil
			}
			if err := m.mine(ctx, e.ID, &rep); err != nil {
				return rep, stopped(ctx, err)
			}
			mark.At, mark.Game, mark.Until = e.At, e.ID, m.now().Add(m.opts.Lease)
			mark.Games++
			if err := m.store.PutMineMark(ctx, mark); err != nil {
				if errors.Is(err, storage.ErrConflict) {
					return rep, ErrHeld // taken over after the lease lapsed
				}
				return rep, stopped(ctx, err)
			}
			rep.Games++
		}
	}
	return rep, nil
}

// stopped is err, or nil when ctx ended: a run stopped is no failure.
func stopped(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return nil
	}
	return err
}

// claim takes the mark for this run, unless another run's lease is live.
func (m *Miner) claim(ctx context.Context) (*storage.MineMark, error) {
	for range 3 {
		mark, err := m.store.MineMark(ctx)
		if err != nil {
			return nil, err
		}
		now := m.now()
		if mark.Holder != "" && mark.Holder != m.opts.Holder && mark.Until.After(now) {
			return nil, fmt.Errorf("%w (%s, until %s)", ErrHeld, mark.Holder, mark.Until.Format(time.RFC3339))
		}
		mark.Holder, mark.Until = m.opts.Holder, now.Add(m.opts.Lease)
		err = m.store.PutMineMark(ctx, mark)
		if err == nil {
			return mark, nil
		}
		if !errors.Is(err, storage.ErrConflict) {
			return nil, err
		}
	}
	return nil, ErrHeld
}

// release gives the mark up, if this run still holds it.
func (m *Miner) release(ctx context.Context, mark *storage.MineMark) {
	if mark.Holder != m.opts.Holder {
		return
	}
	held := *mark
	held.Holder, held.Until = "", time.Time{}
	if err := m.store.PutMineMark(ctx, &held); err != nil {
		m.log.Warn("mining: giving the mark up", "err", err)
		return
	}
	*mark = held
}

// mine searches one finished game and keeps its new puzzles.
func (m *Miner) mine(ctx context.Context, id string, rep *Report) error {
	rec, err := m.store.Game(ctx, id)
	if errors.Is(err, storage.ErrNotFound) {
		return nil // expired since it finished
	}
	if err != nil {
		return err
	}
	if rec.Active() || !Minable(rec) {
		return nil // a finishing write that lost its compare-and-set, or not a game mined
	}
	g, err := play.LoadGame(rec)
	if err != nil {
		m.log.Warn("mining: a finished game does not load", "game", id, "err", err)
		return nil
	}
	rep.Mined++
	ps, err := m.finder.Find(ctx, puzzle.Game{Start: g.Rules().StartPosition(), Moves: g.Rules().Moves()})
	if err != nil {
		return fmt.Errorf("mining: game %s: %w", id, err)
	}
	for _, pz := range ps {
		rep.Found++
		ok, err := m.keep(ctx, rec, pz)
		if err != nil {
			return err
		}
		if ok {
			rep.Kept++
			m.log.Info("mining: puzzle found", "game", id, "puzzle", pz.ID, "rating", pz.Rating, "moves", len(pz.Solution))
		}
	}
	return nil
}

// keep stores pz, found in rec, if it is hard enough, not shipped, passes
// the shipped set's check and is not stored yet.
func (m *Miner) keep(ctx context.Context, rec *storage.GameRecord, pz puzzle.Puzzle) (bool, error) {
	if pz.Rating < puzzle.LevelRating(m.opts.MinLevel) || m.shipped[pz.ID] {
		return false, nil
	}
	if err := m.finder.Judge.Check(ctx, pz, 2*m.opts.Nodes); err != nil {
		if ctx.Err() != nil {
			return false, ctx.Err()
		}
		m.log.Info("mining: a puzzle failed the check", "game", rec.ID, "err", err)
		return false, nil
	}
	mp := &storage.MinedPuzzle{ID: pz.ID, Line: pz.String(), Game: rec.ID, White: rec.White.Name, Black: rec.Black.Name,
		Found: m.now(), Players: rec.HumanIDs()}
	err := m.store.AddMinedPuzzle(ctx, mp)
	if errors.Is(err, storage.ErrConflict) {
		return false, nil // kept by an earlier run, or found in another game
	}
	return err == nil, err
}

// Minable reports whether a finished game is one the miner searches: a
// game of Bashni (the set's ruleset) that was played out, either rated
// between two people or between a person and the AI, with no move taken
// back (a casual game counts nowhere).
func Minable(rec *storage.GameRecord) bool {
	v, err := rules.ParseVariant(rec.Variant)
	if err != nil || v != rules.Bashni || rec.Casual || rec.Team != nil || rec.Reason == rules.Aborted.String() {
		return false
	}
	humans := len(rec.HumanIDs())
	ai := rec.White.AILevel > 0 || rec.Black.AILevel > 0
	return humans == 2 && rec.Rated || humans == 1 && ai
}
