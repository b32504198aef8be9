package versus

import (
	"cmp"
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/bashni/bashni/play"
	"github.com/bashni/bashni/rules"
	"github.com/bashni/bashni/storage"
)

// Pairing: a group that sends /versus is paired at once with the waiting
// group of closest rating, if one within pairWindow waits; otherwise it
// waits itself (its challenge's link goes out meanwhile), until another
// group's /versus pairs with it, its link is accepted, or its wait ends.

// pairWindow is how far apart two groups' ratings may be to be paired:
// about one deviation of a group that has played a few matches.
const pairWindow = 300

// pairPace is the time a move of a paired match: nobody chose one, and a
// day suits groups that look in once a day.
const pairPace = 24 * time.Hour

// Seek pairs group side with the waiting group of closest rating and
// starts their match (Bashni, a day a move, colours by lot); nil when
// none waits close enough: side waits from now on.
func (s *Service) Seek(ctx context.Context, side storage.VersusSide) (*play.Game, error) {
	if side.Chat >= 0 {
		return nil, ErrNotGroup
	}
	if err := s.mayPlay(ctx, side.Chat); err != nil {
		return nil, err
	}
	self, err := s.Chat(ctx, side.Chat)
	if err != nil {
		return nil, err
	}
	chats, err := s.store.VersusChats(ctx)
	if err != nil {
		return nil, err
	}
	now := s.core.Now()
	mine := ratingOf(self).R
	var waiting []*storage.VersusChat
	for _, c := range chats {
		if c.ID != side.Chat && !c.Off && !c.Waiting.IsZero() && now.Sub(c.Waiting) < challengeTTL &&
			math.Abs(ratingOf(c).R-mine) <= pairWindow {
			waiting = append(waiting, c)
		}
	}
	slices.SortFunc(waiting, func(a, b *storage.VersusChat) int {
		return cmp.Or(cmp.Compare(math.Abs(ratingOf(a).R-mine), math.Abs(ratingOf(b).R-mine)), a.Waiting.Compare(b.Waiting))
	})
	for _, c := range waiting {
		if g, err := s.pairWith(ctx, side, c.ID); g != nil || err != nil {
			return g, err
		}
	}
	_, err = s.changeChat(ctx, side.Chat, func(c *storage.VersusChat) error {
		c.Waiting, c.Title, c.Lang = now, side.Title, side.Lang
		return nil
	})
	return nil, err
}

// pairWith takes the waiting group other (nil, nil when another group
// took it first) and starts its match with side.
func (s *Service) pairWith(ctx context.Context, side storage.VersusSide, other int64) (*play.Game, error) {
	var took *storage.VersusChat
	_, err := s.changeChat(ctx, other, func(c *storage.VersusChat) error {
		took = nil
		if c.Waiting.IsZero() || c.Off {
			return play.Unchanged
		}
		c.Waiting = time.Time{}
		took = c
		return nil
	})
	if err != nil || took == nil {
		return nil, err
	}
	white, black := side, storage.VersusSide{Chat: took.ID, Title: took.Title, Lang: took.Lang}
	if rand.IntN(2) == 0 {
		white, black = black, white
	}
	spec, err := s.spec(ctx, "vs"+newCode(), white, black, rules.Bashni, pairPace)
	if err != nil {
		return nil, err
	}
	g, err := s.core.StartGame(ctx, spec)
	if err != nil {
		return nil, err
	}
	return g, s.playing(ctx, g, white.Chat, black.Chat)
}
