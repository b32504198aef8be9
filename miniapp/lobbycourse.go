package miniapp

import (
	"context"

	"github.com/bashni/bashni/play/training"
)

// courseItem is the viewer's progress in the course (/learn, played in the
// bot's private chat), shown in the lobby: where they are, and the stars
// earned of each stage (a star is a task answered at the first try).
type courseItem struct {
	Line    string      `json:"line"` // the whole, in the viewer's language
	Lesson  int         `json:"lesson"`
	Lessons int         `json:"lessons"`
	Stars   int         `json:"stars"`
	Tasks   int         `json:"tasks"`
	Stages  []stageItem `json:"stages"`
}

// stageItem is one stage of the course with the viewer's stars in it.
type stageItem struct {
	Name  string `json:"name"`
	Stars int    `json:"stars"`
	Tasks int    `json:"tasks"`
}

// courseOf is userID's progress, or nil when the app serves no course.
func (s *Server) courseOf(ctx context.Context, userID int64, lang string) (*courseItem, error) {
	if s.opts.Course == nil {
		return nil, nil
	}
	p, err := s.opts.Course.Place(ctx, userID)
	if err != nil {
		return nil, err
	}
	c := &courseItem{Lesson: min(p.Lesson+1, len(training.Lessons)), Lessons: len(training.Lessons), Tasks: training.Tasks(), Stages: []stageItem{}}
	for _, st := range training.Stages() {
		it := stageItem{Name: s.texts.T(lang, "stage_"+st.Key)}
		for _, i := range st.Lessons {
			l := &training.Lessons[i]
			it.Stars += p.StarsIn(l.Key)
			it.Tasks += len(l.Tasks)
		}
		c.Stars += it.Stars
		c.Stages = append(c.Stages, it)
	}
	c.Line = s.texts.T(lang, "app_lobby_course", "N", c.Lesson, "Total", c.Lessons, "Stars", c.Stars, "Tasks", c.Tasks)
	return c, nil
}
