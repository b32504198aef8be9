package versus

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	mrand "math/rand/v2"
	"slices"
	"strings"
	"time"

	"github.com/bashni/bashni/play"
	"github.com/bashni/bashni/rules"
	"github.com/bashni/bashni/storage"
)

// Challenge makes group from's challenge, made by member by: a code its
// link carries to another group.
func (s *Service) Challenge(ctx context.Context, from storage.VersusSide, by int64) (*storage.VersusChallenge, error) {
	if from.Chat >= 0 {
		return nil, ErrNotGroup
	}
	if err := s.mayPlay(ctx, from.Chat); err != nil {
		return nil, err
	}
	now := s.core.Now()
	c := &storage.VersusChallenge{Code: newCode(), From: from, By: by, CreatedAt: now, ExpiresAt: now.Add(challengeTTL)}
	if err := s.store.PutVersusChallenge(ctx, c); err != nil {
		return nil, err
	}
	return c, nil
}

// newCode is a challenge's code: 12 letters and digits of
// crypto/rand.Text (60 bits), short enough for a /start link's payload
// and a button's data, too many to guess.
func newCode() string { return strings.ToLower(rand.Text()[:12]) }

// mayPlay refuses a group whose administrators turned matches off.
func (s *Service) mayPlay(ctx context.Context, chat int64) error {
	c, err := s.Chat(ctx, chat)
	if err != nil {
		return err
	}
	if c.Off {
		return ErrOff
	}
	return nil
}

// Open returns the challenge code names, while it may be accepted.
func (s *Service) Open(ctx context.Context, code string) (*storage.VersusChallenge, error) {
	c, err := s.store.VersusChallenge(ctx, code)
	if errors.Is(err, storage.ErrNotFound) || err == nil && !s.core.Now().Before(c.ExpiresAt) {
		return nil, ErrNoChallenge
	}
	return c, err
}

// Accept is group to's acceptance of the challenge code, with the ruleset
// and the pace its administrator chose: the game starts, the colours by
// lot. The challenge is claimed first (with the rules and the lot), then
// the game is made under an id the code gives, so an accept tried again
// (a crash between the two) makes the same game, and another group's is
// ErrTaken.
func (s *Service) Accept(ctx context.Context, code string, to storage.VersusSide, variant rules.Variant, pace time.Duration) (*play.Game, error) {
	if !slices.Contains(Paces, pace) {
		return nil, fmt.Errorf("%w: %v", ErrBadPace, pace)
	}
	c, err := s.claim(ctx, code, to, variant, pace)
	if err != nil {
		return nil, err
	}
	return s.start(ctx, c)
}

// claim takes the challenge for group to, or finds it taken by to already.
func (s *Service) claim(ctx context.Context, code string, to storage.VersusSide, variant rules.Variant, pace time.Duration) (*storage.VersusChallenge, error) {
	for range maxAttempts {
		c, err := s.store.VersusChallenge(ctx, code)
		if errors.Is(err, storage.ErrNotFound) {
			return nil, ErrNoChallenge
		}
		if err != nil {
			return nil, err
		}
		switch {
		case c.Game != "" && c.To.Chat == to.Chat:
			return c, nil // accepted already: the game again
		case c.Game != "":
			return nil, ErrTaken
		case !s.core.Now().Before(c.ExpiresAt):
			return nil, ErrNoChallenge
		case c.From.Chat == to.Chat:
			return nil, ErrSameChat
		case to.Chat >= 0:
			return nil, ErrNotGroup
		}
		for _, chat := range []int64{c.From.Chat, to.Chat} {
			if err := s.mayPlay(ctx, chat); err != nil {
				return nil, err
			}
		}
		c.Game, c.To, c.Variant, c.Pace, c.FromWhite = "vs"+code, to, variant.String(), pace, mrand.IntN(2) == 0
		err = s.store.PutVersusChallenge(ctx, c)
		if errors.Is(err, storage.ErrConflict) {
			continue
		}
		return c, err
	}
	return nil, play.ErrBusy
}

// start makes the game of the claimed challenge c (once: its id is c's).
func (s *Service) start(ctx context.Context, c *storage.VersusChallenge) (*play.Game, error) {
	variant, err := rules.ParseVariant(c.Variant)
	if err != nil {
		return nil, fmt.Errorf("versus: challenge %s: %w", c.Code, err)
	}
	white, black := c.From, c.To
	if !c.FromWhite {
		white, black = c.To, c.From
	}
	spec, err := s.spec(ctx, c.Game, white, black, variant, c.Pace)
	if err != nil {
		return nil, err
	}
	g, err := s.core.StartGame(ctx, spec)
	if errors.Is(err, storage.ErrConflict) {
		g, err = s.core.Game(ctx, c.Game) // made by the first try
	}
	if err != nil {
		return nil, err
	}
	return g, s.playing(ctx, g, white.Chat, black.Chat)
}

// playing lists game g among both groups' matches under way (so that a
// group that leaves finds it), and neither waits for a pairing any more.
func (s *Service) playing(ctx context.Context, g *play.Game, chats ...int64) error {
	for _, chat := range chats {
		_, err := s.changeChat(ctx, chat, func(c *storage.VersusChat) error {
			if slices.Contains(c.Playing, g.ID()) && c.Waiting.IsZero() {
				return play.Unchanged
			}
			if !slices.Contains(c.Playing, g.ID()) {
				c.Playing = append(c.Playing, g.ID())
			}
			c.Waiting = time.Time{}
			return nil
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// spec is the game between white's and black's groups: White's card in
// White's chat, its mirror in Black's, each in its group's language, each
// side voting in its own chat with its own quorum.
func (s *Service) spec(ctx context.Context, id string, white, black storage.VersusSide, variant rules.Variant, pace time.Duration) (play.GameSpec, error) {
	sides := make([]storage.TeamSide, 2)
	for i, side := range []storage.VersusSide{white, black} {
		rec, err := s.Chat(ctx, side.Chat)
		if err != nil {
			return play.GameSpec{}, err
		}
		sides[i] = storage.TeamSide{Chat: side.Chat, Quorum: quorum(rec)}
	}
	days := 0
	if pace%(24*time.Hour) == 0 {
		// The core's own pace (days per move): its timeout is the side's
		// time, not the server's, and the card says the pace.
		days = int(pace / (24 * time.Hour))
	}
	return play.GameSpec{
		ID: id, Variant: variant, ChatID: white.Chat, Lang: white.Lang, DaysPerMove: days,
		White: storage.Player{Name: SideName(white.Title)}, Black: storage.Player{Name: SideName(black.Title)},
		Team: &storage.TeamGame{Window: pace, Pace: pace, Sides: sides, ClosesAt: s.core.Now().Add(pace)},
		Link: &storage.GameLink{ChatID: white.Chat, ID: id, Feature: Feature, MirrorChat: black.Chat, MirrorLang: black.Lang},
	}, nil
}

// Feature names the matches in the links of their games.
const Feature = "versus"

// sideNameMax bounds a group's title as its side is named on the cards.
const sideNameMax = 40

// SideName names a group's side after its title.
func SideName(title string) string {
	if r := []rune(title); len(r) > sideNameMax {
		title = string(r[:sideNameMax-1]) + "…"
	}
	return sidePrefix + title
}

// sidePrefix marks a group's side on the cards.
const sidePrefix = "👥 "

// Is reports whether g is a match between two groups.
func Is(g *play.Game) bool {
	l := g.Link()
	return l != nil && l.Feature == Feature
}
