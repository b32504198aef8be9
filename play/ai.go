package play

import (
	"context"
	"fmt"
	"math/rand/v2"

	"github.com/bashni/bashni/ai"
	"github.com/bashni/bashni/rules"
	"github.com/bashni/bashni/storage"
)

// AIGameRequest starts a game against the AI.
type AIGameRequest struct {
	ChatID  int64
	Human   storage.Player
	Level   int
	Color   string // the human's colour: white, black or random
	Variant rules.Variant
	Lang    string
	// OwesCard stores the game with its first card owed (EventStarted)
	// under the receipt in ctx: the Mini App's lobby starts games nobody
	// has posted a card for, and under play.Detached the card is handed
	// to the OwedFunc (the bot posts it in ChatID) right after the write.
	OwesCard bool
	// MaxActive, if positive, refuses the game (ErrTooManyGames) when the
	// human already plays that many games. It bounds what one user can
	// start from a door that costs nothing to press in a loop (the Mini
	// App); the store counts and creates in one step (CreateGameCapped),
	// so parallel requests never pass it.
	MaxActive int
	// DaysPerMove gives the human a pace (pace.go): 0, the server's
	// timeout.
	DaysPerMove int
}

// AIName is how the AI appears as a player: its level's name.
func AIName(level int) string {
	if level >= 1 && level <= len(ai.Levels) {
		return fmt.Sprintf("🤖 %s (%d)", ai.Levels[level-1].Name, level)
	}
	return fmt.Sprintf("🤖 AI (%d)", level)
}

// NewAIGame starts a game between a person and the AI. If the AI has White,
// call PlayAI next.
func (s *Service) NewAIGame(ctx context.Context, r AIGameRequest) (*Game, error) {
	if r.Level < 1 || r.Level > s.cfg.MaxLevel {
		return nil, fmt.Errorf("%w: %d (1-%d)", ErrBadLevel, r.Level, s.cfg.MaxLevel)
	}
	if err := checkPace(r.DaysPerMove); err != nil {
		return nil, err
	}
	bot := storage.Player{Name: AIName(r.Level), AILevel: r.Level}
	white, black := r.Human, bot
	switch r.Color {
	case ColorBlack:
		white, black = bot, r.Human
	case ColorWhite, "":
	case ColorRandom:
		if rand.IntN(2) == 0 {
			white, black = bot, r.Human
		}
	default:
		return nil, fmt.Errorf("%w: %q", ErrBadColour, r.Color)
	}
	return s.newGame(ctx, newGameSpec{variant: r.Variant, white: white, black: black, chatID: r.ChatID, lang: r.Lang, owesCard: r.OwesCard,
		capUser: r.Human.UserID, capMax: r.MaxActive, daysPerMove: r.DaysPerMove})
}

// VariantNamed is the ruleset a door names by its canonical name
// (rules.Variant.String: "bashni", "bashni-mp", "russian"); any other name
// is ErrBadVariant.
func VariantNamed(name string) (rules.Variant, error) {
	for _, v := range rules.Variants {
		if v.String() == name {
			return v, nil
		}
	}
	return 0, fmt.Errorf("%w: %q", ErrBadVariant, name)
}

// PlayAI makes the AI's move in game id if it is the AI's turn. The search
// runs outside the compare-and-set: if a player moved or resigned
// meanwhile, the AI's move is dropped (ErrStale) rather than written over.
func (s *Service) PlayAI(ctx context.Context, id string) (*Outcome, error) {
	g, err := s.Game(ctx, id)
	if err != nil {
		return nil, err
	}
	if !g.IsAITurn() {
		return nil, ErrAITurn
	}
	if s.ai == nil {
		return nil, ErrNoAI
	}
	ply := g.Ply()
	_, p := g.ToMove()
	tctx, cancel := context.WithTimeout(ctx, s.cfg.AITimeout)
	defer cancel()
	m, err := s.ai.Think(tctx, g.rules, p.AILevel)
	if err != nil {
		return nil, fmt.Errorf("play: the AI could not move: %w", err)
	}
	var out Outcome
	g, err = s.act(ctx, id, func(g *Game) error {
		if !g.IsAITurn() || g.Ply() != ply {
			return ErrStale
		}
		if err := g.rules.Play(m); err != nil {
			return err
		}
		out.Move, out.Mover = m, p
		g.rec.DrawOfferBy = 0
		s.syncRecord(g)
		return nil
	})
	if err != nil {
		return nil, err
	}
	out.Game, out.Ended = g, !g.rec.Active()
	if out.Ended {
		s.finished(ctx, g)
	}
	return &out, nil
}
