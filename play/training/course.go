package training

import (
	"context"
	"errors"
	"math/bits"
	"slices"

	"github.com/bashni/bashni/play"
	"github.com/bashni/bashni/rules"
	"github.com/bashni/bashni/storage"
)

// Course keeps each player's place in the lessons and the stars they
// earned. It is safe for concurrent use.
type Course struct {
	store CourseStore
}

// NewCourse makes a course on store.
func NewCourse(store CourseStore) *Course { return &Course{store: store} }

// Place is where a player is in the course.
type Place struct {
	Lesson, Task int
	// Missed says the current task has had a wrong try: no star for it.
	Missed bool
	// Stars has, by lesson key, a bit for each task ever answered at the
	// first try (storage.Training.Stars); StarsIn counts them.
	Stars map[string]int
}

// StarsIn counts the stars earned in the lesson key.
func (p Place) StarsIn(key string) int { return bits.OnesCount(uint(p.Stars[key])) }

// Place returns userID's place; Lesson is len(Lessons) once the course is
// done.
func (c *Course) Place(ctx context.Context, userID int64) (Place, error) {
	u, err := c.user(ctx, userID)
	if err != nil {
		return Place{}, err
	}
	return placeOf(&u.Training), nil
}

func placeOf(t *storage.Training) Place {
	p := Place{Lesson: t.Lesson, Task: t.Task, Missed: t.Missed, Stars: t.Stars}
	if p.Lesson < 0 || p.Lesson >= len(Lessons) {
		p.Lesson, p.Task = len(Lessons), 0
	} else if p.Task < 0 || p.Task >= len(Lessons[p.Lesson].Tasks) {
		p.Task = 0
	}
	return p
}

// Lesson returns userID's current lesson and its index, or ErrCourseDone.
func (c *Course) Lesson(ctx context.Context, userID int64) (int, *Lesson, error) {
	p, err := c.Place(ctx, userID)
	if err != nil {
		return 0, nil, err
	}
	if p.Lesson >= len(Lessons) {
		return len(Lessons), nil, ErrCourseDone
	}
	return p.Lesson, &Lessons[p.Lesson], nil
}

// TaskResult is what a right answer did.
type TaskResult struct {
	Lesson, Task int // the task answered
	Move         rules.Move
	// After is the board after the move, to show what it did.
	After rules.Position
	// Star says the task was answered at the first try.
	Star bool
	// Next is the place after it: Lesson is len(Lessons) when the course
	// is complete.
	Next Place
}

// Try plays text in task of lesson for userID. An illegal move is the
// rules' own *rules.MoveError; a legal wrong one is a *WrongMove with the
// engine's answer. Either marks the task missed (no star) and the player
// tries again; the right move earns a star if nothing was missed and
// moves the player on.
func (c *Course) Try(ctx context.Context, userID int64, lesson, task int, text string) (*TaskResult, error) {
	var res *TaskResult
	var wrong error
	_, err := play.ChangeUser(ctx, c.store, userID, func(u *storage.User) error {
		res, wrong = nil, nil
		tr := &u.Training
		p := placeOf(tr)
		if p.Lesson >= len(Lessons) {
			return ErrCourseDone
		}
		if p.Lesson != lesson || p.Task != task {
			return ErrStaleLesson
		}
		l := &Lessons[lesson]
		t := &l.Tasks[task]
		m, err := t.Answer(text)
		if err != nil {
			wrong = err
			if tr.Missed {
				return errUnchanged
			}
			tr.Missed = true
			return nil
		}
		res = &TaskResult{Lesson: lesson, Task: task, Move: m, After: t.Position.Play(m), Star: !tr.Missed}
		if res.Star {
			if tr.Stars == nil {
				tr.Stars = map[string]int{}
			}
			tr.Stars[l.Key] |= 1 << task
		}
		tr.Lesson, tr.Task, tr.Missed = lesson, task+1, false
		if tr.Task >= len(l.Tasks) {
			tr.Lesson, tr.Task = lesson+1, 0
		}
		res.Next = placeOf(tr)
		return nil
	})
	switch {
	case errors.Is(err, errUnchanged):
		return nil, wrong
	case err != nil:
		return nil, err
	case wrong != nil:
		return nil, wrong
	}
	return res, nil
}

// errUnchanged ends a change that has nothing to store.
var errUnchanged = errors.New("training: unchanged")

// Answer reads text as an answer to t: the move, or why it is wrong.
func (t *Task) Answer(text string) (rules.Move, error) {
	pos := t.Position
	m, err := rules.ParseMove(&pos, text)
	if err != nil {
		return rules.Move{}, err
	}
	if !slices.Contains(t.Right, m.String()) {
		return rules.Move{}, refute(pos, m)
	}
	return m, nil
}

// Restart puts userID back at the first lesson; the stars earned stay,
// and a task missed this time keeps the star it earned before.
func (c *Course) Restart(ctx context.Context, userID int64) error {
	_, err := play.ChangeUser(ctx, c.store, userID, func(u *storage.User) error {
		u.Training.Lesson, u.Training.Task, u.Training.Missed = 0, 0, false
		return nil
	})
	return err
}

// Started reports whether userID has begun the course or played a game:
// the challenge card offers the course to someone who has done neither.
func (c *Course) Started(ctx context.Context, userID int64) (bool, error) {
	u, err := c.store.User(ctx, userID)
	if errors.Is(err, storage.ErrNotFound) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	t := u.Training
	return t.Lesson > 0 || t.Task > 0 || u.Stats.Games > 0, nil
}

func (c *Course) user(ctx context.Context, id int64) (*storage.User, error) {
	u, err := c.store.User(ctx, id)
	if errors.Is(err, storage.ErrNotFound) {
		return play.Newcomer(id), nil
	}
	return u, err
}
