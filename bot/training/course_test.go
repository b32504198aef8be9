package training

import (
	"slices"
	"testing"

	"github.com/bashni/bashni/bot"
	"github.com/bashni/bashni/play/training"
)

// TestLessonKeyboards: every lesson offers each legal move and each decoy
// once, and every button's data decodes back to its squares.
func TestLessonKeyboards(t *testing.T) {
	for i := range training.Lessons {
		l := &training.Lessons[i]
		kb := lessonKeyboard(i, l)
		var labels []string
		for _, row := range kb.InlineKeyboard {
			if len(row) > 4 {
				t.Errorf("lesson %s: a row of %d buttons", l.Key, len(row))
			}
			for _, b := range row {
				labels = append(labels, b.Text)
				cb, err := bot.ParseCallback(*b.CallbackData)
				if err != nil || cb.Kind != KindLesson || cb.Ply != i {
					t.Fatalf("lesson %s: button %q data %q: %+v, %v", l.Key, b.Text, *b.CallbackData, cb, err)
				}
				sq, err := bot.DecodeSquares(cb.Arg)
				want, _ := notationSquares(b.Text)
				if err != nil || !slices.Equal(sq, want) {
					t.Errorf("lesson %s: button %q picks %v, want %v", l.Key, b.Text, sq, want)
				}
			}
		}
		want := len(l.Position.Legal()) + len(l.Decoys)
		if len(labels) != want {
			t.Errorf("lesson %s: %d buttons %v, want %d", l.Key, len(labels), labels, want)
		}
		for _, d := range l.Decoys {
			if !slices.Contains(labels, d) {
				t.Errorf("lesson %s: decoy %s not offered", l.Key, d)
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
