package training

import (
	_ "embed"
	"fmt"
	"strings"

	"github.com/bashni/bashni/rules"
)

// Lesson is one lesson of the course (/learn): a rule, and tasks that use
// it. The bot's texts give each its title, explanation and task prompt by
// Key ("lesson_<key>_title", "_text", "_task"), and each stage its name
// ("stage_<stage>").
type Lesson struct {
	Stage string
	Key   string
	Tasks []Task
}

// Task is a position and the move or moves that answer it, with the
// plausible wrong move the course is built to refuse (TestEveryTask).
type Task struct {
	Position rules.Position
	// Right lists the moves that answer the task, in notation.
	Right []string
	// Wrong is a plausible wrong move, and Why the reason it is refused:
	// a cause name of WhyCauses, WhyRefuted or WhyStillMoves.
	Wrong, Why string
	// Prompt is the key of the task's text: its lesson's
	// ("lesson_<key>_task") unless the line names its own after a fourth
	// "|".
	Prompt string
}

// The reasons a legal wrong move is refused: the engine answers it with a
// capture, or it leaves Black a move where the task is to leave none.
const (
	WhyRefuted    = "refuted"
	WhyStillMoves = "still_moves"
)

// WhyCauses names the rules' causes the data may give for an illegal
// wrong move.
var WhyCauses = map[string]rules.Cause{
	"must_capture":       rules.CauseMustCapture,
	"capture_unfinished": rules.CauseCaptureUnfinished,
	"cannot_go":          rules.CauseCannotGo,
	"not_yours":          rules.CauseNotYours,
}

//go:embed lessons.txt
var lessonsText string

// Lessons is the course, in order: each lesson uses only what the ones
// before it taught.
var Lessons = mustParseLessons(lessonsText)

// Stages lists the course's stages in order, each with the indexes of its
// lessons.
func Stages() []StageLessons {
	var out []StageLessons
	for i, l := range Lessons {
		if len(out) == 0 || out[len(out)-1].Key != l.Stage {
			out = append(out, StageLessons{Key: l.Stage})
		}
		out[len(out)-1].Lessons = append(out[len(out)-1].Lessons, i)
	}
	return out
}

// StageLessons is a stage and its lessons' indexes.
type StageLessons struct {
	Key     string
	Lessons []int
}

// Tasks counts the tasks of the whole course.
func Tasks() int {
	n := 0
	for _, l := range Lessons {
		n += len(l.Tasks)
	}
	return n
}

func mustParseLessons(text string) []Lesson {
	ls, err := parseLessons(text)
	if err != nil {
		panic(err)
	}
	return ls
}

// parseLessons reads lessons.txt.
func parseLessons(text string) ([]Lesson, error) {
	var out []Lesson
	stage := ""
	for n, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		switch {
		case line == "" || strings.HasPrefix(line, "#"):
		case strings.HasPrefix(line, "stage "):
			stage = strings.TrimPrefix(line, "stage ")
		case strings.HasPrefix(line, "lesson "):
			out = append(out, Lesson{Stage: stage, Key: strings.TrimPrefix(line, "lesson ")})
		default:
			t, err := parseTask(line)
			if err == nil && len(out) == 0 {
				err = fmt.Errorf("a task before any lesson")
			}
			if err != nil {
				return nil, fmt.Errorf("training: lessons.txt line %d: %q: %w", n+1, line, err)
			}
			if t.Prompt == "" {
				t.Prompt = "lesson_" + out[len(out)-1].Key + "_task"
			}
			out[len(out)-1].Tasks = append(out[len(out)-1].Tasks, t)
		}
	}
	return out, nil
}

func parseTask(line string) (Task, error) {
	f := strings.Split(line, "|")
	if len(f) != 3 && len(f) != 4 {
		return Task{}, fmt.Errorf("want position | right | wrong why [| prompt]")
	}
	p, err := rules.ParsePosition(strings.TrimSpace(f[0]))
	if err != nil {
		return Task{}, err
	}
	w := strings.Fields(f[2])
	if len(w) != 2 {
		return Task{}, fmt.Errorf("want a wrong move and its reason")
	}
	t := Task{Position: p, Right: strings.Fields(f[1]), Wrong: w[0], Why: w[1]}
	if len(f) == 4 {
		t.Prompt = strings.TrimSpace(f[3])
	}
	return t, nil
}
