package versus

import (
	"context"
	"errors"
	"time"

	"github.com/bashni/bashni/play"
	"github.com/bashni/bashni/storage"
)

// LeaveGrace is how long a group that says it leaves its matches has to
// change its mind: then it resigns them. A day, so that an administrator
// who did not mean it, or a group that disagrees, has time to say so.
const LeaveGrace = 24 * time.Hour

// Leave says that group chat leaves its matches under way (stay: it
// stays after all). It returns when it resigns them (zero when it stays)
// and how many matches it left.
func (s *Service) Leave(ctx context.Context, chat int64, stay bool) (at time.Time, n int, err error) {
	c, err := s.Chat(ctx, chat)
	if err != nil {
		return time.Time{}, 0, err
	}
	if !stay {
		at = s.core.Now().Add(LeaveGrace)
	}
	for _, id := range c.Playing {
		_, err := s.votes.SetLeave(ctx, id, chat, at)
		if errors.Is(err, play.ErrGameOver) || errors.Is(err, storage.ErrNotFound) {
			continue // over: counted when its end is shown
		}
		if err != nil {
			return time.Time{}, n, err
		}
		n++
	}
	if n == 0 {
		return time.Time{}, 0, ErrNoMatch
	}
	return at, n, nil
}
