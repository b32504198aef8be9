package versus

import (
	"cmp"
	"context"
	"slices"
	"strings"
	"time"

	"github.com/bashni/bashni/play"
	"github.com/bashni/bashni/rating"
	"github.com/bashni/bashni/storage"
)

// Seasons: every group's rating (Glicko-2, package rating, lichess's
// way: each match a rating period of its own for each group, both from
// the ratings before it) goes on from
// season to season; its points (1 a win, ½ a draw) count within one,
// and a season's podium is its three groups with most points. A season
// is a fixed length of time counted from the config's epoch, so every
// replica agrees which one it is without storing it.

// startRating is a new group's rating.
const startRating = 1500

// historyKeep bounds a group's history of matches.
const historyKeep = 20

// Season is the number of the season at t (the first is 1).
func (s *Service) Season(t time.Time) int {
	return int(t.Sub(s.cfg.Epoch)/s.cfg.Season) + 1
}

// SeasonEnds is when season n ends.
func (s *Service) SeasonEnds(n int) time.Time {
	return s.cfg.Epoch.Add(time.Duration(n) * s.cfg.Season)
}

// GameOver counts the finished match g in both groups' records: ratings,
// season points, history. Each record is written once however often it
// is called (the game is marked in it), so the clock or a process that
// took over may call it again.
func (s *Service) GameOver(ctx context.Context, g *play.Game) error {
	if !Is(g) || g.Active() || g.Team() == nil || len(g.Team().Sides) != 2 {
		return nil
	}
	sides := g.Team().Sides
	white, err := s.Chat(ctx, sides[0].Chat)
	if err != nil {
		return err
	}
	black, err := s.Chat(ctx, sides[1].Chat)
	if err != nil {
		return err
	}
	var score float64
	switch g.Result() {
	case "1-0":
		score = 1
	case "1/2-1/2":
		score = 0.5
	}
	if g.Aborted() {
		return nil // not a match: a side never moved
	}
	now := s.core.Now()
	// Both from the ratings read before either is written: a count tried
	// again after one record was written reads that one's new rating,
	// but the mark keeps it from being counted twice.
	wr, br := rating.Game(ratingOf(white), ratingOf(black), score)
	if _, err := s.count(ctx, white.ID, g, [2]string{g.White().Name, g.Black().Name}, wr, score, now); err != nil {
		return err
	}
	_, err = s.count(ctx, black.ID, g, [2]string{g.Black().Name, g.White().Name}, br, 1-score, now)
	return err
}

// count adds one match to group id's record, after which its rating is
// r; names are the group's side's and the opponent's.
func (s *Service) count(ctx context.Context, id int64, g *play.Game, names [2]string, r rating.Rating, score float64, now time.Time) (*storage.VersusChat, error) {
	season := s.Season(now)
	return s.changeChat(ctx, id, func(c *storage.VersusChat) error {
		if !storage.Counted(&c.Counted, g.ID()) {
			return play.Unchanged
		}
		c.Playing = slices.DeleteFunc(c.Playing, func(id string) bool { return id == g.ID() })
		if c.Season != season {
			if c.Played > 0 {
				c.Last = &storage.VersusSeason{Season: c.Season, Points: c.Points, Played: c.Played, Rating: c.Rating}
			}
			c.Season, c.Points, c.Played = season, 0, 0
		}
		c.Title = strings.TrimPrefix(names[0], sidePrefix)
		c.Rating, c.RD, c.Vol = r.R, r.RD, r.Vol
		c.Points += score
		c.Played++
		c.History = append(c.History, storage.VersusMatch{Game: g.ID(), Opponent: names[1], Score: score, At: now})
		if len(c.History) > historyKeep {
			c.History = slices.Clone(c.History[len(c.History)-historyKeep:])
		}
		return nil
	})
}

// ratingOf is group c's rating, a newcomer's if it has none.
func ratingOf(c *storage.VersusChat) rating.Rating {
	if c.Rating == 0 {
		return rating.New(startRating)
	}
	return rating.Rating{R: c.Rating, RD: c.RD, Vol: c.Vol}
}

// Standing is one group's line in a season's table.
type Standing struct {
	Chat   int64
	Title  string
	Rating float64
	Points float64
	Played int
}

// Table is the season now running: the groups that played in it, highest
// rating first (then most points), at most n.
func (s *Service) Table(ctx context.Context, n int) ([]Standing, error) {
	season := s.Season(s.core.Now())
	return s.standings(ctx, n, func(c *storage.VersusChat) (Standing, bool) {
		return Standing{Chat: c.ID, Title: c.Title, Rating: c.Rating, Points: c.Points, Played: c.Played}, c.Season == season && c.Played > 0
	}, func(a, b Standing) int {
		return cmp.Or(cmp.Compare(b.Rating, a.Rating), cmp.Compare(b.Points, a.Points))
	})
}

// Podium is the last season's podium: its three groups with most points
// (then the higher rating at its end).
func (s *Service) Podium(ctx context.Context) (season int, top []Standing, err error) {
	season = s.Season(s.core.Now()) - 1
	top, err = s.standings(ctx, 3, func(c *storage.VersusChat) (Standing, bool) {
		switch {
		case c.Season == season && c.Played > 0:
			return Standing{Chat: c.ID, Title: c.Title, Rating: c.Rating, Points: c.Points, Played: c.Played}, true
		case c.Last != nil && c.Last.Season == season:
			return Standing{Chat: c.ID, Title: c.Title, Rating: c.Last.Rating, Points: c.Last.Points, Played: c.Last.Played}, true
		}
		return Standing{}, false
	}, func(a, b Standing) int {
		return cmp.Or(cmp.Compare(b.Points, a.Points), cmp.Compare(b.Rating, a.Rating))
	})
	return season, top, err
}

// standings lists the groups line picks, sorted by order, at most n.
func (s *Service) standings(ctx context.Context, n int, line func(c *storage.VersusChat) (Standing, bool), order func(a, b Standing) int) ([]Standing, error) {
	chats, err := s.store.VersusChats(ctx)
	if err != nil {
		return nil, err
	}
	var out []Standing
	for _, c := range chats {
		if st, ok := line(c); ok {
			out = append(out, st)
		}
	}
	slices.SortStableFunc(out, func(a, b Standing) int { return cmp.Or(order(a, b), cmp.Compare(a.Chat, b.Chat)) })
	if len(out) > n {
		out = out[:n]
	}
	return out, nil
}

// History is group chat's latest matches, newest first.
func (s *Service) History(ctx context.Context, chat int64) ([]storage.VersusMatch, error) {
	c, err := s.Chat(ctx, chat)
	if err != nil {
		return nil, err
	}
	h := slices.Clone(c.History)
	slices.Reverse(h)
	return h, nil
}
