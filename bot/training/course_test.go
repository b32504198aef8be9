package training

import (
	"slices"
	"strconv"
	"testing"

	"github.com/bashni/bashni/bot"
	"github.com/bashni/bashni/play/training"
	"github.com/bashni/bashni/texts"
)

// TestTaskKeyboards: every task offers each legal move, and its wrong move
// once, and every button's data decodes back to its lesson, task and
// squares.
func TestTaskKeyboards(t *testing.T) {
	for li := range training.Lessons {
		l := &training.Lessons[li]
		for ti, task := range l.Tasks {
			kb := taskKeyboard(li, ti, l)
			var labels []string
			for _, row := range kb.InlineKeyboard {
				if len(row) > 4 {
					t.Errorf("lesson %s: a row of %d buttons", l.Key, len(row))
				}
				for _, b := range row {
					labels = append(labels, b.Text)
					cb, err := bot.ParseCallback(*b.CallbackData)
					if err != nil || cb.Kind != KindLesson || cb.Ply != li || cb.ID != strconv.Itoa(ti) {
						t.Fatalf("lesson %s: button %q data %q: %+v, %v", l.Key, b.Text, *b.CallbackData, cb, err)
					}
					sq, err := bot.DecodeSquares(cb.Arg)
					want, _ := notationSquares(b.Text)
					if err != nil || !slices.Equal(sq, want) {
						t.Errorf("lesson %s: button %q picks %v, want %v", l.Key, b.Text, sq, want)
					}
				}
			}
			if !slices.Contains(labels, task.Wrong) || !slices.Contains(labels, task.Right[0]) {
				t.Errorf("lesson %s task %d: %v lacks the wrong move %s or the right one", l.Key, ti, labels, task.Wrong)
			}
		}
	}
}

// TestEveryLessonWorded: every lesson and stage has its texts in English
// and Russian.
func TestEveryLessonWorded(t *testing.T) {
	c := texts.New()
	for _, lang := range []string{"en", "ru"} {
		for _, l := range training.Lessons {
			for _, part := range []string{"title", "text", "task"} {
				id := "lesson_" + l.Key + "_" + part
				if got := c.T(lang, id); got == "" || got == id {
					t.Errorf("%s: no text %s", lang, id)
				}
			}
		}
		for _, l := range training.Lessons {
			for _, task := range l.Tasks {
				if got := c.T(lang, task.Prompt); got == "" || got == task.Prompt {
					t.Errorf("%s: no text %s", lang, task.Prompt)
				}
			}
		}
		for _, s := range training.Stages() {
			if got := c.T(lang, "stage_"+s.Key); got == "" || got == "stage_"+s.Key {
				t.Errorf("%s: no text for stage %s", lang, s.Key)
			}
		}
	}
}

func TestNotationSquares(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int
		ok   bool
	}{
		{"c3-d4", 2, true}, {"d6:f8:h6", 3, true}, {"c3-d3", 0, false}, {"z9-a1", 0, false}, {"", 0, true},
	} {
		sq, err := notationSquares(tc.in)
		if (err == nil) != tc.ok || len(sq) != tc.want {
			t.Errorf("notationSquares(%q) = %v, %v", tc.in, sq, err)
		}
	}
}
