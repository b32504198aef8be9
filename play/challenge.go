package play

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"

	"github.com/bashni/bashni/rules"
	"github.com/bashni/bashni/storage"
)

// Colours a challenger may ask for.
const (
	ColorWhite  = "white"
	ColorBlack  = "black"
	ColorRandom = "random"
)

// ChallengeRequest asks for a game against another person.
type ChallengeRequest struct {
	ChatID  int64
	From    storage.Player
	To      *storage.Player // nil: open to anyone (or to ToName)
	ToName  string          // @username when the id is not known
	Color   string          // the challenger's colour: white, black or random
	Variant rules.Variant
	// TimeControl makes it a live game, e.g. "5+3" (see ParseTimeControl);
	// empty for correspondence.
	TimeControl string
	// DaysPerMove makes it a correspondence game at that pace (pace.go);
	// zero: the server's one timeout. Not with a TimeControl.
	DaysPerMove int
	// Lang is the challenger's language: the game's group card is written
	// in it unless the group chose one (chatlang.go).
	Lang string
}

// Challenge opens a challenge. The bot posts it and records the message with
// AttachChallenge.
func (s *Service) Challenge(ctx context.Context, r ChallengeRequest) (*storage.Challenge, error) {
	if r.Color == "" {
		r.Color = ColorRandom
	}
	if r.Color != ColorWhite && r.Color != ColorBlack && r.Color != ColorRandom {
		return nil, fmt.Errorf("%w: %q", ErrBadColour, r.Color)
	}
	if r.To != nil && r.To.UserID == r.From.UserID {
		return nil, ErrOwnChallenge
	}
	if r.TimeControl != "" {
		if _, _, err := ParseTimeControl(r.TimeControl); err != nil {
			return nil, err
		}
	}
	if err := checkPace(r.DaysPerMove); err != nil {
		return nil, err
	}
	if r.TimeControl != "" && r.DaysPerMove > 0 {
		return nil, ErrBadPace // a live clock or a pace, not both
	}
	now := s.now()
	c := &storage.Challenge{
		ID: s.newID(), ChatID: r.ChatID, From: r.From, To: r.To, ToName: storage.UsernameKey(r.ToName),
		Variant: r.Variant.String(), FromColor: r.Color, CreatedAt: now, ExpiresAt: now.Add(s.cfg.ChallengeTTL),
		TimeControl: r.TimeControl, DaysPerMove: r.DaysPerMove, Lang: r.Lang,
	}
	if err := s.store.PutChallenge(ctx, c); err != nil {
		return nil, err
	}
	return c, nil
}

// AttachChallenge records the message that shows a challenge.
func (s *Service) AttachChallenge(ctx context.Context, id string, messageID int, inlineID string) error {
	c, err := s.store.Challenge(ctx, id)
	if err != nil {
		return err
	}
	c.MessageID, c.InlineMessageID = messageID, inlineID
	return s.store.PutChallenge(ctx, c)
}

// ChallengeByID returns an open challenge.
func (s *Service) ChallengeByID(ctx context.Context, id string) (*storage.Challenge, error) {
	c, err := s.store.Challenge(ctx, id)
	if isNotFound(err) {
		return nil, ErrNoChallenge
	}
	return c, err
}

// mayAnswer checks that by is the one a challenge waits for.
func mayAnswer(c *storage.Challenge, by storage.Player, username string) error {
	if by.UserID == c.From.UserID {
		return ErrOwnChallenge
	}
	switch {
	case c.To != nil && c.To.UserID != by.UserID:
		return ErrNotForYou
	case c.To == nil && c.ToName != "" && c.ToName != storage.UsernameKey(username):
		return ErrNotForYou
	}
	return nil
}

// Accept turns a challenge into a game. Of several people accepting an open
// challenge at once, exactly one gets the game; the others get
// ErrNoChallenge.
func (s *Service) Accept(ctx context.Context, id string, by storage.Player, username string) (*Game, error) {
	return s.accept(ctx, id, by, username, inlineCard{})
}

// AcceptInline is Accept of a challenge shown on inline message inlineID
// (inline mode): the game is made with that message as its card, in the
// same write, so that whoever shows the card it owes (EventStarted: the
// tap's process, or after a crash the tap delivered again or the clock)
// draws the board there. asText says the challenge was offered as text
// (the offer's button tells): the game is made knowing its card is text
// (InlineText), so no edit of it is ever tried as a photo.
func (s *Service) AcceptInline(ctx context.Context, id string, by storage.Player, username, inlineID string, asText bool) (*Game, error) {
	return s.accept(ctx, id, by, username, inlineCard{id: inlineID, text: asText && inlineID != ""})
}

// inlineCard is the inline message a game is made on: its id ("" for
// none) and whether it is text.
type inlineCard struct {
	id   string
	text bool
}

func (s *Service) accept(ctx context.Context, id string, by storage.Player, username string, inline inlineCard) (*Game, error) {
	c, err := s.ChallengeByID(ctx, id)
	if errors.Is(err, ErrNoChallenge) {
		return nil, s.acceptedAlready(ctx, id)
	}
	if err != nil {
		return nil, err
	}
	if err := mayAnswer(c, by, username); err != nil {
		return nil, err
	}
	c, err = s.store.TakeChallenge(ctx, id)
	if isNotFound(err) {
		return nil, s.acceptedAlready(ctx, id)
	}
	if err != nil {
		return nil, err
	}
	white, black := c.From, by
	switch c.FromColor {
	case ColorBlack:
		white, black = by, c.From
	case ColorRandom:
		if rand.IntN(2) == 0 {
			white, black = by, c.From
		}
	}
	v, err := rules.ParseVariant(c.Variant)
	if err != nil {
		return nil, err
	}
	// The game gets its own card (the bot posts it and calls SetCard); the
	// challenge's message only says it was accepted.
	// The game takes the challenge's id, so that an accept Telegram
	// delivers again after a crash finds the game it made (acceptedAlready).
	g, err := s.newGame(ctx, newGameSpec{id: c.ID, variant: v, white: white, black: black, chatID: c.ChatID, rated: true, timeControl: c.TimeControl,
		daysPerMove: c.DaysPerMove, lang: s.groupLang(ctx, c.ChatID, c.Lang), inline: inline, owesCard: true})
	if err != nil {
		// Put the challenge back so nobody loses it to a store hiccup.
		if perr := s.store.PutChallenge(context.WithoutCancel(ctx), c); perr != nil {
			s.log.Warn("challenge lost after failed accept", "challenge", id, "err", perr)
		}
		return nil, err
	}
	return g, nil
}

// acceptedAlready is the answer to an accept whose challenge is gone: if
// this very update (its receipt) made the game, before a crash cut its
// replies off, the game is applied (*AppliedError: the bot shows the card
// it owes); otherwise the challenge was taken by someone else, cancelled
// or expired.
func (s *Service) acceptedAlready(ctx context.Context, id string) error {
	r := receiptOf(ctx)
	if r == nil {
		return ErrNoChallenge
	}
	rec, err := s.store.Game(ctx, id)
	if err != nil || !r.applied(rec) {
		return ErrNoChallenge
	}
	g, err := s.replays.load(rec)
	if err != nil {
		return ErrNoChallenge
	}
	return &AppliedError{Game: g}
}

// Decline refuses a challenge addressed to by; Cancel withdraws one's own.
// Both return the challenge so its message can be updated.
func (s *Service) Decline(ctx context.Context, id string, by storage.Player, username string) (*storage.Challenge, error) {
	c, err := s.ChallengeByID(ctx, id)
	if err != nil {
		return nil, err
	}
	if c.To == nil && c.ToName == "" {
		return nil, ErrNotForYou // an open challenge is simply not accepted
	}
	if err := mayAnswer(c, by, username); err != nil {
		return nil, err
	}
	return s.take(ctx, id)
}

// Cancel withdraws a challenge; only its author may.
func (s *Service) Cancel(ctx context.Context, id string, by int64) (*storage.Challenge, error) {
	c, err := s.ChallengeByID(ctx, id)
	if err != nil {
		return nil, err
	}
	if c.From.UserID != by {
		return nil, ErrNotForYou
	}
	return s.take(ctx, id)
}

func (s *Service) take(ctx context.Context, id string) (*storage.Challenge, error) {
	c, err := s.store.TakeChallenge(ctx, id)
	if isNotFound(err) {
		return nil, ErrNoChallenge
	}
	return c, err
}

// newGameSpec describes a game to create.
type newGameSpec struct {
	variant      rules.Variant
	start        *rules.Position
	id           string // "" draws one
	white, black storage.Player
	chatID       int64
	rated        bool
	lang         string
	timeControl  string
	daysPerMove  int               // the game's pace (pace.go)
	team         *storage.TeamGame // a game the chat plays by vote
	link         *storage.GameLink // a feature's link (mirror.go)
	// owesCard stores the game with its first card owed (EventStarted)
	// under the receipt in ctx: created from a challenge or a rematch,
	// whose tap the bot answers by posting the card, or in the Mini App's
	// lobby (a detached receipt: the OwedFunc posts it).
	owesCard bool
	// inline: the game's card is this inline message from the start.
	inline inlineCard
	// capMax, if positive, creates the game only if capUser plays fewer
	// active games (ErrTooManyGames), counted by the store in the write.
	capUser int64
	capMax  int
}

func (s *Service) newGame(ctx context.Context, spec newGameSpec) (*Game, error) {
	start := rules.Start(spec.variant)
	if spec.start != nil {
		start = spec.start.WithVariant(spec.variant)
	}
	now := s.now()
	rec := &storage.GameRecord{
		ID: cmp.Or(spec.id, s.newID()), Variant: spec.variant.String(), White: spec.white, Black: spec.black,
		Start: start.String(), Position: start.String(), Status: storage.GameActive,
		CreatedAt: now, UpdatedAt: now, ChatID: spec.chatID, Rated: spec.rated, Lang: spec.lang,
		InlineMessageID: spec.inline.id, InlineText: spec.inline.text,
		Team: spec.team, Link: spec.link, DaysPerMove: spec.daysPerMove,
	}
	if spec.timeControl != "" {
		startClock(rec, spec.timeControl, now, s.cfg.ShowGrace)
	}
	g, err := s.replays.load(rec)
	if err != nil {
		return nil, err
	}
	s.syncRecord(g)
	if r := receiptOf(ctx); r != nil && spec.owesCard {
		s.oweCard(r, rec)
	}
	for attempt := 0; ; attempt++ {
		if spec.capMax > 0 {
			err = s.store.CreateGameCapped(ctx, rec, spec.capUser, spec.capMax)
		} else {
			err = s.store.CreateGame(ctx, rec)
		}
		if !errors.Is(err, storage.ErrConflict) || attempt == 3 || spec.id != "" {
			break
		}
		rec.ID = s.newID() // an id collision: draw another
	}
	if errors.Is(err, storage.ErrCapReached) {
		return nil, fmt.Errorf("%w (%d)", ErrTooManyGames, spec.capMax)
	}
	if err != nil {
		return nil, err
	}
	if s.hooks.GameStarted != nil {
		s.hooks.GameStarted()
	}
	if r := receiptOf(ctx); r != nil && spec.owesCard && r.detached {
		s.handOver(ctx, g, r) // the card nobody here posts (the Mini App's lobby)
	}
	// When the AI plays first, its move is owed from here; it is made once
	// the game's card is recorded (SetCard), so that the card is there to
	// show it.
	return g, nil
}

// colorOfAny finds user's colour whoever is to move.
func (g *Game) colorOfAny(userID int64) (rules.Color, bool) {
	if g.rec.White.Human() && g.rec.White.UserID == userID {
		return rules.White, true
	}
	if g.rec.Black.Human() && g.rec.Black.UserID == userID {
		return rules.Black, true
	}
	return 0, false
}
