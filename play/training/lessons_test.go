package training

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/bashni/bashni/rules"
	"github.com/bashni/bashni/storage"
	"github.com/bashni/bashni/storage/bolt"
)

// TestLessons: every lesson's position is White to move with a choice the
// task names, and each accepted move is legal there; the lessons that
// teach a result show it.
func TestLessons(t *testing.T) {
	if len(Lessons) < 8 {
		t.Errorf("%d lessons, want the eight of the course", len(Lessons))
	}
	for _, l := range Lessons {
		legal := l.Position.Legal()
		if len(legal) == 0 || l.Position.SideToMove() != rules.White {
			t.Errorf("lesson %s: %d legal moves, %v to move", l.Key, len(legal), l.Position.SideToMove())
		}
		for _, d := range l.Decoys {
			if _, err := rules.ParseMove(&l.Position, d); err == nil {
				t.Errorf("lesson %s: decoy %s is legal", l.Key, d)
			}
		}
		for _, a := range l.Accept {
			m, err := rules.ParseMove(&l.Position, a)
			if err != nil || m.String() != a {
				t.Errorf("lesson %s: accepted move %s: %v", l.Key, a, err)
			}
		}
	}
	// What each lesson shows, checked on its board.
	after := func(key string) rules.Position {
		i := slices.IndexFunc(Lessons, func(l Lesson) bool { return l.Key == key })
		l := Lessons[i]
		m, err := rules.ParseMove(&l.Position, l.Accept[0])
		if err != nil {
			t.Fatal(err)
		}
		return l.Position.Play(m)
	}
	if p := after("tower_top"); p.String() != "b:d4w,e5wb,h8b" {
		t.Errorf("after the tower lesson: %s, want the white man on d4 freed", p)
	}
	h6, _ := rules.ParseSquare("h6")
	if p := after("crown"); p.Tower(h6).String() != "Wbb" {
		t.Errorf("after the crowning lesson: %s, want a king with two prisoners on h6", p)
	}
	if p := after("win"); len(p.Legal()) != 0 {
		t.Errorf("after the winning lesson Black can still move: %s", p)
	}
	must := Lessons[1]
	if _, err := rules.ParseMove(&must.Position, "g3-h4"); err == nil {
		t.Error("the compulsory-capture lesson allows the quiet move")
	}
}

// TestCourse: a wrong try gets the rules' error and changes nothing; a
// legal move that is not the task is refused; the right one moves the
// player on, and their place is kept.
func TestCourse(t *testing.T) {
	ctx := context.Background()
	st, err := bolt.Open(filepath.Join(t.TempDir(), "bashni.db"), time.Now)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	c := NewCourse(st)
	const user = 11
	if started, err := c.Started(ctx, user); err != nil || started {
		t.Errorf("Started before anything: %v, %v", started, err)
	}
	if _, err := c.Try(ctx, user, 0, "c3-d4"); err != nil {
		t.Fatal(err)
	}
	i, l, err := c.Lesson(ctx, user)
	if err != nil || i != 1 || l.Key != "must_capture" {
		t.Fatalf("after lesson 1: %d %v %v", i, l, err)
	}
	_, err = c.Try(ctx, user, 1, "g3-h4")
	if me, ok := errors.AsType[*rules.MoveError](err); !ok || me.Cause != rules.CauseMustCapture {
		t.Fatalf("quiet move in the capture lesson: %v, want the rules' compulsory-capture error", err)
	}
	if _, err := c.Try(ctx, user, 0, "c3-d4"); !errors.Is(err, ErrStaleLesson) {
		t.Errorf("tap on the first lesson's board: %v, want ErrStaleLesson", err)
	}
	for i := 1; i < len(Lessons); i++ {
		l := Lessons[i]
		text := l.Position.Legal()[0].String()
		if len(l.Accept) > 0 {
			text = l.Accept[0]
			for _, m := range l.Position.Legal() {
				if !slices.Contains(l.Accept, m.String()) {
					if _, err := c.Try(ctx, user, i, m.String()); !errors.Is(err, ErrNotTheTask) {
						t.Errorf("lesson %s, %s: %v, want ErrNotTheTask", l.Key, m, err)
					}
					break
				}
			}
		}
		res, err := c.Try(ctx, user, i, text)
		if err != nil || res.Next != i+1 {
			t.Fatalf("lesson %s, %s: %+v, %v", l.Key, text, res, err)
		}
	}
	if _, _, err := c.Lesson(ctx, user); !errors.Is(err, ErrCourseDone) {
		t.Errorf("after the last lesson: %v, want ErrCourseDone", err)
	}
	if started, _ := c.Started(ctx, user); !started {
		t.Error("Started is false after the course")
	}
	// A player who has finished a game is no newcomer either.
	if err := st.PutUser(ctx, &storage.User{ID: 12, Stats: storage.Stats{Games: 1}}); err != nil {
		t.Fatal(err)
	}
	if started, err := c.Started(ctx, 12); err != nil || !started {
		t.Errorf("Started for a player with a game: %v, %v", started, err)
	}
	if err := c.Restart(ctx, user); err != nil {
		t.Fatal(err)
	}
	if i, _, err := c.Lesson(ctx, user); i != 0 || err != nil {
		t.Errorf("after Restart: lesson %d, %v", i, err)
	}
}
