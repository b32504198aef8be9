package training

import (
	"context"
	"errors"
	"slices"

	"github.com/bashni/bashni/play"
	"github.com/bashni/bashni/rules"
	"github.com/bashni/bashni/storage"
)

// Lesson is one step of the course (/learn): a position, and the move or
// moves that complete its task. The bot's texts give each its title, two
// lines of explanation and the task, by Key.
type Lesson struct {
	Key      string
	Position rules.Position
	// Accept lists the moves that complete the task, in notation; empty:
	// any legal move does.
	Accept []string
	// Decoys are illegal moves offered beside the legal ones, so that the
	// rule the lesson teaches can be run into with taps alone: the picker
	// of a game offers only legal moves.
	Decoys []string
}

// Lessons is the course, in order: each lesson uses only what the ones
// before it taught. TestLessons checks every position and accepted move.
var Lessons = []Lesson{
	// A man steps one square diagonally forward.
	{Key: "move", Position: rules.MustParsePosition("w:c3w,f6b")},
	// Capturing is compulsory: the quiet move g3-h4 is refused.
	{Key: "must_capture", Position: rules.MustParsePosition("w:c3w,d4b,g3w,h8b"), Accept: []string{"c3:e5"}, Decoys: []string{"g3-h4"}},
	// The jumped man goes under the capturer: e5 becomes a tower.
	{Key: "prisoner", Position: rules.MustParsePosition("w:e3w,f4b,c7b")},
	// Jumping a tower takes only its top: the white man under it is freed.
	{Key: "tower_top", Position: rules.MustParsePosition("w:c3w,d4bw,h8b"), Accept: []string{"c3:e5"}},
	// A man crowned mid-capture goes on capturing as a king.
	{Key: "crown", Position: rules.MustParsePosition("w:d6w,e7b,g7b,a1w,h4b"), Accept: []string{"d6:f8:h6"}, Decoys: []string{"d6:f8"}},
	// A king flies: it captures from afar and lands anywhere beyond.
	{Key: "king", Position: rules.MustParsePosition("w:a1W,f6b,c7b")},
	// A tower moves as its top piece: this one, a king on two prisoners,
	// flies the whole diagonal.
	{Key: "tower_moves", Position: rules.MustParsePosition("w:c3Wbb,a7b"), Accept: []string{"c3-h8"}},
	// You win when the opponent cannot move: a5-b6 walls in the man on a7.
	{Key: "win", Position: rules.MustParsePosition("w:a5w,b4w,c5w,a7b"), Accept: []string{"a5-b6"}},
}

// Course keeps each player's place in the lessons. It is safe for
// concurrent use.
type Course struct {
	store CourseStore
}

// NewCourse makes a course on store.
func NewCourse(store CourseStore) *Course { return &Course{store: store} }

// Lesson returns userID's current lesson and its index, or ErrCourseDone.
func (c *Course) Lesson(ctx context.Context, userID int64) (int, *Lesson, error) {
	u, err := c.user(ctx, userID)
	if err != nil {
		return 0, nil, err
	}
	i := u.Training.Lesson
	if i < 0 || i >= len(Lessons) {
		return len(Lessons), nil, ErrCourseDone
	}
	return i, &Lessons[i], nil
}

// LessonResult is what a correct move did.
type LessonResult struct {
	Index int // the lesson completed
	Move  rules.Move
	// After is the board after the move, to show what it did.
	After rules.Position
	// Next is the index of the next lesson; len(Lessons) when the course
	// is complete.
	Next int
}

// Try plays text in userID's lesson index. An illegal move is the rules'
// own error (the player tries again); a legal move that is not the task is
// ErrNotTheTask; the right one completes the lesson and stores the
// player's progress.
func (c *Course) Try(ctx context.Context, userID int64, index int, text string) (*LessonResult, error) {
	var res *LessonResult
	_, err := play.ChangeUser(ctx, c.store, userID, func(u *storage.User) error {
		cur := u.Training.Lesson
		if cur >= len(Lessons) {
			return ErrCourseDone
		}
		if cur != index {
			return ErrStaleLesson
		}
		l := &Lessons[index]
		pos := l.Position
		m, err := rules.ParseMove(&pos, text)
		if err != nil {
			return err
		}
		if len(l.Accept) > 0 && !slices.Contains(l.Accept, m.String()) {
			return ErrNotTheTask
		}
		u.Training.Lesson = index + 1
		res = &LessonResult{Index: index, Move: m, After: pos.Play(m), Next: index + 1}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}

// Restart puts userID back at the first lesson.
func (c *Course) Restart(ctx context.Context, userID int64) error {
	_, err := play.ChangeUser(ctx, c.store, userID, func(u *storage.User) error {
		u.Training.Lesson = 0
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
	return u.Training.Lesson > 0 || u.Stats.Games > 0, nil
}

func (c *Course) user(ctx context.Context, id int64) (*storage.User, error) {
	u, err := c.store.User(ctx, id)
	if errors.Is(err, storage.ErrNotFound) {
		return play.Newcomer(id), nil
	}
	return u, err
}
