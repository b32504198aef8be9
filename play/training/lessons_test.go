package training

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bashni/bashni/rules"
	"github.com/bashni/bashni/storage"
	"github.com/bashni/bashni/storage/bolt"
)

// TestEveryTask: the course has at least 20 lessons in stages, each of 3
// to 5 tasks; in every task the right moves are legal and answer it, and
// the wrong one is refused with the reason the data names: the rules'
// cause for an illegal one, the engine's capture (or Black's move left)
// for a legal one.
func TestEveryTask(t *testing.T) {
	if len(Lessons) < 20 || len(Stages()) < 6 {
		t.Errorf("%d lessons in %d stages, want at least 20 in 6", len(Lessons), len(Stages()))
	}
	for _, l := range Lessons {
		if len(l.Tasks) < 3 || len(l.Tasks) > 5 {
			t.Errorf("lesson %s: %d tasks, want 3 to 5", l.Key, len(l.Tasks))
		}
		for i, task := range l.Tasks {
			name := l.Key + "/" + task.Position.String()
			if task.Position.SideToMove() != rules.White || len(task.Right) == 0 {
				t.Errorf("%s (task %d): not White to move with a right move", name, i)
			}
			for _, r := range task.Right {
				if m, err := task.Answer(r); err != nil || m.String() != r {
					t.Errorf("%s: right move %s refused: %v", name, r, err)
				}
			}
			_, err := task.Answer(task.Wrong)
			if cause, ok := WhyCauses[task.Why]; ok {
				if me, ok := errors.AsType[*rules.MoveError](err); !ok || me.Cause != cause {
					t.Errorf("%s: wrong move %s: %v, want the rules' cause %s", name, task.Wrong, err, task.Why)
				}
				continue
			}
			w, ok := errors.AsType[*WrongMove](err)
			switch {
			case !ok || !errors.Is(err, ErrNotTheTask):
				t.Errorf("%s: wrong move %s: %v, want a legal wrong move refuted", name, task.Wrong, err)
			case task.Why == WhyRefuted && (w.Taken == 0 || !w.Reply.IsCapture()):
				t.Errorf("%s: wrong move %s answered by %s, want a capture", name, task.Wrong, w.Reply)
			case task.Why == WhyStillMoves && !w.StillMoves && w.Taken == 0:
				t.Errorf("%s: wrong move %s leaves Black no move", name, task.Wrong)
			case task.Why != WhyRefuted && task.Why != WhyStillMoves:
				t.Errorf("%s: unknown reason %q", name, task.Why)
			}
		}
	}
}

// TestCaptureUnfinishedTask: the task whose wrong answer stops a capture
// early is refused as unfinished, not as "capturing is compulsory" (issue
// 41: the old course answered its decoy so).
func TestCaptureUnfinishedTask(t *testing.T) {
	p := rules.MustParsePosition("w:d6w,e7b,g7b,a1w,h4b")
	task := Task{Position: p, Right: []string{"d6:f8:h6"}, Wrong: "d6:f8", Why: "capture_unfinished"}
	_, err := task.Answer("d6:f8")
	if me, ok := errors.AsType[*rules.MoveError](err); !ok || me.Cause != rules.CauseCaptureUnfinished {
		t.Errorf("d6:f8: %v, want CauseCaptureUnfinished", err)
	}
}

// TestRefuteIsTheEngines: a legal wrong move is answered by the engine's
// capture, the same every time.
func TestRefuteIsTheEngines(t *testing.T) {
	p := rules.MustParsePosition("w:a1w,b2b,d6b,f6b,e7w,g7w")
	task := Task{Position: p, Right: []string{"e7:g5"}}
	var first string
	for range 2 {
		_, err := task.Answer("a1:c3")
		w, ok := errors.AsType[*WrongMove](err)
		if !ok || !w.Reply.IsCapture() || w.Taken < 1 {
			t.Fatalf("a1:c3: %v, want the engine's capture", err)
		}
		if first == "" {
			first = w.Reply.String()
		} else if w.Reply.String() != first {
			t.Errorf("the reply changed: %s then %s", first, w.Reply)
		}
	}
}

func openCourse(t *testing.T) (*Course, *bolt.Store) {
	st, err := bolt.Open(filepath.Join(t.TempDir(), "bashni.db"), time.Now)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return NewCourse(st), st
}

// TestCourseStars: a task answered at the first try earns a star, one
// answered after a wrong try does not; a wrong try changes nothing else,
// a stale board is refused, and the place and stars are kept to the end.
func TestCourseStars(t *testing.T) {
	ctx := context.Background()
	c, st := openCourse(t)
	const user = 11
	if started, err := c.Started(ctx, user); err != nil || started {
		t.Errorf("Started before anything: %v, %v", started, err)
	}
	first := Lessons[0]
	// Task 0: a wrong try, then right: no star.
	if _, err := c.Try(ctx, user, 0, 0, first.Tasks[0].Wrong); err == nil {
		t.Fatal("the wrong move was accepted")
	}
	if _, err := c.Try(ctx, user, 0, 0, first.Tasks[0].Wrong); err == nil {
		t.Fatal("the wrong move was accepted the second time")
	}
	res, err := c.Try(ctx, user, 0, 0, first.Tasks[0].Right[0])
	if err != nil || res.Star || res.Next.Lesson != 0 || res.Next.Task != 1 {
		t.Fatalf("right after wrong: %+v, %v", res, err)
	}
	if _, err := c.Try(ctx, user, 0, 0, first.Tasks[0].Right[0]); !errors.Is(err, ErrStaleLesson) {
		t.Errorf("the answered task's board again: %v, want ErrStaleLesson", err)
	}
	stars := 0
	for li, l := range Lessons {
		for ti, task := range l.Tasks {
			if li == 0 && ti == 0 {
				continue
			}
			res, err := c.Try(ctx, user, li, ti, task.Right[0])
			if err != nil || !res.Star {
				t.Fatalf("%s task %d: %+v, %v", l.Key, ti, res, err)
			}
			stars++
		}
	}
	if stars != Tasks()-1 {
		t.Errorf("%d stars counted, want %d", stars, Tasks()-1)
	}
	p, err := c.Place(ctx, user)
	if err != nil || p.Lesson != len(Lessons) || p.StarsIn(first.Key) != len(first.Tasks)-1 || p.StarsIn(Lessons[1].Key) != len(Lessons[1].Tasks) {
		t.Errorf("place after the course: %+v, %v", p, err)
	}
	if _, _, err := c.Lesson(ctx, user); !errors.Is(err, ErrCourseDone) {
		t.Errorf("after the last lesson: %v, want ErrCourseDone", err)
	}
	if started, _ := c.Started(ctx, user); !started {
		t.Error("Started is false after the course")
	}
	if err := st.PutUser(ctx, &storage.User{ID: 12, Stats: storage.Stats{Games: 1}}); err != nil {
		t.Fatal(err)
	}
	if started, err := c.Started(ctx, 12); err != nil || !started {
		t.Errorf("Started for a player with a game: %v, %v", started, err)
	}
	if err := c.Restart(ctx, user); err != nil {
		t.Fatal(err)
	}
	if p, err := c.Place(ctx, user); p.Lesson != 0 || p.Task != 0 || p.StarsIn(first.Key) != len(first.Tasks)-1 || err != nil {
		t.Errorf("after Restart: %+v, %v; want the first lesson, the stars kept", p, err)
	}
	// Again: the first task answered at the first try now earns its star;
	// the second, missed this time, keeps the one it earned before.
	if res, err := c.Try(ctx, user, 0, 0, first.Tasks[0].Right[0]); err != nil || !res.Star {
		t.Fatalf("the first task again: %+v, %v", res, err)
	}
	if _, err := c.Try(ctx, user, 0, 1, first.Tasks[1].Wrong); err == nil {
		t.Fatal("the wrong move was accepted")
	}
	if res, err := c.Try(ctx, user, 0, 1, first.Tasks[1].Right[0]); err != nil || res.Star {
		t.Fatalf("the second task after a miss: %+v, %v", res, err)
	}
	if p, _ := c.Place(ctx, user); p.StarsIn(first.Key) != len(first.Tasks) {
		t.Errorf("stars in the first lesson after the second run: %d, want all %d", p.StarsIn(first.Key), len(first.Tasks))
	}
}

// TestParseLessons: a task may name its own prompt; a line that is not a
// task is an error naming it.
func TestParseLessons(t *testing.T) {
	ls, err := parseLessons("stage s\nlesson l\nw:c3w,f6b | c3-d4 | c3-b2 cannot_go\nw:c3w,f6b | c3-d4 | c3-b2 cannot_go | own_prompt\n")
	if err != nil || len(ls) != 1 || ls[0].Tasks[0].Prompt != "lesson_l_task" || ls[0].Tasks[1].Prompt != "own_prompt" {
		t.Errorf("parsed %+v, %v", ls, err)
	}
	for _, bad := range []string{"w:c3w | c3-d4 | c3-b2 cannot_go", "lesson l\nw:c3w | c3-d4", "lesson l\nw:z9w | c3-d4 | c3-b2 x", "lesson l\nw:c3w | c3-d4 | c3-b2"} {
		if _, err := parseLessons(bad); err == nil || !strings.Contains(err.Error(), "line") {
			t.Errorf("parseLessons(%q): %v, want an error naming the line", bad, err)
		}
	}
}
