package bot

import (
	"context"

	"github.com/bashni/bashni/play"
	"github.com/bashni/bashni/rules"
	"github.com/bashni/bashni/storage"
)

// Service is what the bot needs of the game service (package play).
type Service interface {
	Touch(ctx context.Context, p play.Profile) (*storage.User, error)
	User(ctx context.Context, id int64) (*storage.User, error)
	UserByUsername(ctx context.Context, name string) (*storage.User, error)
	UpdateUser(ctx context.Context, id int64, fn func(u *storage.User)) (*storage.User, error)
	Blocked(ctx context.Context, id int64) error
	MarkUpdate(ctx context.Context, updateID int64) (bool, error)
	UpdateSeen(ctx context.Context, updateID int64) (bool, error)

	Game(ctx context.Context, id string) (*play.Game, error)
	ActiveGames(ctx context.Context, userID, chatID int64) ([]*play.Game, error)
	Move(ctx context.Context, id string, userID int64, ply int, text string) (*play.Outcome, error)
	PlayAI(ctx context.Context, id string) (*play.Outcome, error)
	NewAIGame(ctx context.Context, r play.AIGameRequest) (*play.Game, error)
	Resign(ctx context.Context, id string, userID int64) (*play.Outcome, error)
	OfferDraw(ctx context.Context, id string, userID int64) (*play.Outcome, error)
	AnswerDraw(ctx context.Context, id string, userID int64, accept bool) (*play.Outcome, error)
	Rematch(ctx context.Context, id string, by int64) (*play.RematchOutcome, error)
	AcceptRematch(ctx context.Context, id string, by int64) (*play.RematchOutcome, error)
	DeclineRematch(ctx context.Context, id string, by int64) (*play.Game, int64, error)
	Hint(ctx context.Context, id string, userID int64, ply int) (*play.Hint, error)
	Takeback(ctx context.Context, id string, userID int64, ply int) (*play.Outcome, error)
	Analyse(ctx context.Context, id string) (*play.Analysis, error)
	SetCard(ctx context.Context, id string, chatID int64, messageID int, inlineID string) (*play.Game, error)
	SetNotice(ctx context.Context, id string, userID int64, messageID int) (int, error)
	Tick(ctx context.Context, limit int) ([]play.ClockEvent, error)
	ClaimTimeout(ctx context.Context, id string) (play.ClockEvent, error)

	Challenge(ctx context.Context, r play.ChallengeRequest) (*storage.Challenge, error)
	AttachChallenge(ctx context.Context, id string, messageID int, inlineID string) error
	Accept(ctx context.Context, id string, by storage.Player, username string) (*play.Game, error)
	Decline(ctx context.Context, id string, by storage.Player, username string) (*storage.Challenge, error)
	Cancel(ctx context.Context, id string, by int64) (*storage.Challenge, error)

	Top(ctx context.Context, scope int64, n int) ([]storage.Standing, error)
	Config() play.Config
}

var _ Service = (*play.Service)(nil)

// sideName is the localized name of a colour.
func (b *Bot) sideName(lang string, c rules.Color) string {
	if c == rules.White {
		return b.texts.T(lang, "side_white")
	}
	return b.texts.T(lang, "side_black")
}
