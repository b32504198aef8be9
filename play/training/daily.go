package training

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/bashni/bashni/play"
	"github.com/bashni/bashni/puzzle"
	"github.com/bashni/bashni/rules"
	"github.com/bashni/bashni/storage"
)

// DailyNamed is how many of the first correct solvers the card names.
// Each name is one edit of the card, and edits count against a group's
// 20 messages a minute: so at most this many edits a day, whatever the
// group's size.
const DailyNamed = 5

// DailyMaxMoves bounds the legal moves of a daily puzzle's position: each
// is one button on the card (every move whole, so a member's one tap is
// their one try, and nobody's half-picked move shows on the shared card).
const DailyMaxMoves = 16

// Daily serves the groups' daily puzzles: one card a day in each group
// that turned it on, the same puzzle in every group, chosen by the UTC
// date; anyone in the group has one try, and the first correct solvers are
// named. The day is claimed in the store before the card is posted, so of
// any number of replicas only one posts it. It is safe for concurrent use.
type Daily struct {
	store DailyStore
	set   []*puzzle.Puzzle
	byID  map[string]*puzzle.Puzzle
	now   func() time.Time

	mu sync.Mutex
	// done remembers the chats whose day this process has already seen
	// claimed (by itself or another replica), so that a tick reads the
	// store only for chats that may still need today's card.
	done map[int64]string
}

// NewDaily serves the puzzles of set that one tap solves: a one-move
// solution in a position of at most DailyMaxMoves legal moves. now is the
// service's clock.
func NewDaily(store DailyStore, set []puzzle.Puzzle, now func() time.Time) *Daily {
	d := &Daily{store: store, now: now, byID: map[string]*puzzle.Puzzle{}, done: map[int64]string{}}
	for i := range set {
		p := &set[i]
		if len(p.Solution) == 1 && len(p.Position.Legal()) <= DailyMaxMoves {
			d.set = append(d.set, p)
			d.byID[p.ID] = p
		}
	}
	return d
}

// DailyDate is the day of t: the UTC date, the same for every group.
func DailyDate(t time.Time) string { return t.UTC().Format(time.DateOnly) }

// Today is the day by the service's clock.
func (d *Daily) Today() string { return DailyDate(d.now()) }

// Enabled reports whether chatID has the daily puzzle on.
func (d *Daily) Enabled(ctx context.Context, chatID int64) (bool, error) {
	chats, err := d.store.DailyChats(ctx)
	if err != nil {
		return false, err
	}
	return slices.ContainsFunc(chats, func(c storage.DailyChat) bool { return c.ChatID == chatID }), nil
}

// Set turns chatID's daily puzzle on (its cards in lang) or off. A group
// that turns it on gets today's card at the next tick.
func (d *Daily) Set(ctx context.Context, chatID int64, lang string, on bool) error {
	if chatID >= 0 {
		return fmt.Errorf("training: the daily puzzle is for groups, not chat %d", chatID)
	}
	return d.store.SetDailyChat(ctx, storage.DailyChat{ChatID: chatID, Lang: lang}, on)
}

// DailyCard is a day's puzzle in one chat.
type DailyCard struct {
	Record *storage.DailyPuzzle
	Puzzle *puzzle.Puzzle
	// Won is true when this caller claimed the day, and so must post the
	// card; false when another replica claimed it first.
	Won bool
}

// pick is the puzzle of a day: the set in turn, one a day.
func (d *Daily) pick(date string) *puzzle.Puzzle {
	t, err := time.Parse(time.DateOnly, date)
	if err != nil {
		return d.set[0]
	}
	day := t.Unix() / 86400
	return d.set[int(day%int64(len(d.set)))]
}

// Due claims today's puzzle for each chat that has it on and has no card
// today, and returns each chat's claim once a day: Won, the cards this
// caller must post; the others were claimed first by another replica (or
// by this one before a restart), and are that claimer's to post.
func (d *Daily) Due(ctx context.Context) ([]DailyCard, error) {
	if len(d.set) == 0 {
		return nil, ErrNoDaily
	}
	chats, err := d.store.DailyChats(ctx)
	if err != nil {
		return nil, err
	}
	today := d.Today()
	var out []DailyCard
	for _, c := range chats {
		d.mu.Lock()
		seen := d.done[c.ChatID] == today
		d.mu.Unlock()
		if seen {
			continue
		}
		pz := d.pick(today)
		rec := &storage.DailyPuzzle{ChatID: c.ChatID, Date: today, PuzzleID: pz.ID, Lang: c.Lang}
		err := d.store.ClaimDaily(ctx, rec)
		switch {
		case err == nil:
			out = append(out, DailyCard{Record: rec, Puzzle: pz, Won: true})
		case errors.Is(err, storage.ErrConflict):
			out = append(out, DailyCard{Record: rec, Puzzle: pz})
		default:
			return out, err
		}
		d.mu.Lock()
		d.done[c.ChatID] = today
		d.mu.Unlock()
	}
	return out, nil
}

// DailyTry is what a member's tap did.
type DailyTry struct {
	DailyCard
	Move    rules.Move
	Correct bool
	// Rank is the member's place among the correct solvers (1-based);
	// Named says they are among the first DailyNamed, so the card shows
	// a new name.
	Rank  int
	Named bool
}

// Try is a member's one try at chatID's puzzle of date, a move in
// notation. A day other than today is ErrDailyClosed; a second try is
// ErrDailyTried; a move that is not legal is the rules' own error. None
// of these changes anything.
func (d *Daily) Try(ctx context.Context, chatID int64, date string, who storage.DailySolver, text string) (*DailyTry, error) {
	if date != d.Today() {
		return nil, ErrDailyClosed
	}
	for range maxAttempts {
		rec, err := d.store.DailyPuzzle(ctx, chatID, date)
		if errors.Is(err, storage.ErrNotFound) {
			return nil, ErrDailyClosed
		}
		if err != nil {
			return nil, err
		}
		pz, ok := d.byID[rec.PuzzleID]
		if !ok {
			return nil, ErrDailyClosed // a puzzle dropped from the set since it was posted
		}
		if slices.Contains(rec.Tried, who.UserID) {
			return nil, ErrDailyTried
		}
		pos := pz.Position
		m, err := rules.ParseMove(&pos, text)
		if err != nil {
			return nil, err
		}
		res := &DailyTry{DailyCard: DailyCard{Record: rec, Puzzle: pz}, Move: m, Correct: m == pz.Solution[0]}
		rec.Tried = append(rec.Tried, who.UserID)
		if res.Correct {
			rec.Solved++
			res.Rank = rec.Solved
			if len(rec.Solvers) < DailyNamed {
				rec.Solvers = append(rec.Solvers, who)
				res.Named = true
			}
		}
		err = d.store.UpdateDaily(ctx, rec)
		if err == nil {
			return res, nil
		}
		if !errors.Is(err, storage.ErrConflict) {
			return nil, err
		}
	}
	return nil, fmt.Errorf("training: daily puzzle of chat %d: %w", chatID, play.ErrBusy)
}
