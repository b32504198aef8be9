package slow

import (
	"context"
	"fmt"
	"strings"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/bashni/bashni/bot"
	"github.com/bashni/bashni/play"
	slowplay "github.com/bashni/bashni/play/slow"
)

// settingsAwayDays is the absence the settings row's button starts: a
// week, the most common holiday; /away says any other length.
const settingsAwayDays = 7

type module struct{ svc *slowplay.Service }

// Module is slow play's module over svc: /away, the settings rows of an
// absence and of move confirmation, the away line on cards, the end of an
// absence on the player's move, and the confirmation the picker asks.
func Module(svc *slowplay.Service) bot.Module {
	m := &module{svc: svc}
	return bot.Module{
		Name:     "slow",
		Commands: map[string]bot.CommandFunc{"away": m.cmdAway},
		Taps:     map[string]bot.TapRoute{KindPace: {Scope: bot.InGroup, Handle: onPace}},
		Menu:     []string{"away"},
		Settings: map[string]bot.Setting{
			"away":    {Show: m.showAway, Toggle: m.toggleAway},
			"confirm": {Show: m.showConfirm, Toggle: m.toggleConfirm},
		},
		CardLine:     m.cardLine,
		Moved:        m.moved,
		ConfirmMove:  m.confirmMove,
		ChallengeRow: paceRow,
	}
}

// cmdAway is /away 5d (an absence from now), /away off (back now), or
// /away alone (where one stands).
func (m *module) cmdAway(ctx context.Context, k *bot.Kit, c bot.Command) error {
	lang, chat := c.Lang, c.Msg.Chat
	arg := strings.ToLower(strings.TrimSpace(c.Args))
	switch arg {
	case "":
		k.Text(chat, m.status(c.User, lang, k), c.Msg.MessageID)
		return nil
	case "off", "back", "stop":
		return m.back(ctx, k, c.Msg.From.ID, chat, c.Msg.MessageID, lang)
	}
	d, err := slowplay.ParseDays(arg)
	if err != nil {
		k.Text(chat, k.RefusalText(lang, err), c.Msg.MessageID)
		return nil
	}
	by := fmt.Sprintf("%d.%d", chat.ID, c.Msg.MessageID)
	return m.away(ctx, k, c.Msg.From, d, by, chat, c.Msg.MessageID, lang)
}

// away starts an absence of d for from, tells the opponents in each game
// it holds, and says so in chat.
func (m *module) away(ctx context.Context, k *bot.Kit, from *tgbotapi.User, d time.Duration, by string, chat *tgbotapi.Chat, replyTo int, lang string) error {
	a, err := m.svc.Away(ctx, from.ID, d, by)
	if a == nil {
		k.Text(chat, k.RefusalText(lang, err), replyTo)
		return expected(k, err)
	}
	words := k.Texts()
	for _, g := range a.Held {
		k.RedrawCard(g)
		if other, ok := opponent(g, from.ID); ok && other.Human() && g.ChatID() != from.ID {
			// Told once, in the game's chat, under its card.
			gl := k.CardLang(g)
			k.Text(&tgbotapi.Chat{ID: g.ChatID()}, words.T(gl, "away_told", "Player", bot.DisplayName(from), "Until", bot.FormatWhen(a.Until)), g.MessageID())
		}
	}
	k.Text(chat, words.N(lang, "away_set", len(a.Held), "Until", bot.FormatWhen(a.Until), "Left", days(a.Left)), replyTo)
	return err // a game that could not be held is logged
}

// back ends userID's absence and says so in chat.
func (m *module) back(ctx context.Context, k *bot.Kit, userID int64, chat *tgbotapi.Chat, replyTo int, lang string) error {
	released, err := m.svc.Back(ctx, userID)
	if err != nil && released == nil {
		k.Text(chat, k.RefusalText(lang, err), replyTo)
		return expected(k, err)
	}
	for _, g := range released {
		k.RedrawCard(g)
	}
	k.Text(chat, k.Texts().T(lang, "away_back"), replyTo)
	return err
}

// expected is nil for a refusal the player was told of.
func expected(k *bot.Kit, err error) error {
	if err == nil || k.Expected(err) {
		return nil
	}
	return err
}

// status is where u stands: away until when, or not, and what is left.
func (m *module) status(u *play.User, lang string, k *bot.Kit) string {
	now := m.svc.Now()
	left := days(slowplay.Left(u, now))
	if until, away := slowplay.IsAway(u, now); away {
		return k.Texts().T(lang, "away_status_on", "Until", bot.FormatWhen(until), "Left", left)
	}
	return k.Texts().T(lang, "away_status_off", "Left", left)
}

// moved ends the absence of a player who moves: they are back, and their
// other games' clocks run again (the core released the one they moved in).
func (m *module) moved(ctx context.Context, k *bot.Kit, out *play.Outcome) {
	u, err := k.Service().User(ctx, out.Mover.UserID)
	if err != nil {
		return
	}
	if _, away := slowplay.IsAway(u, m.svc.Now()); !away {
		return
	}
	released, err := m.svc.Back(ctx, u.ID)
	if err != nil {
		k.Log().Warn("absence not ended on a move", "user", u.ID, "err", err)
	}
	for _, g := range released {
		if g.ID() != out.Game.ID() {
			k.RedrawCard(g)
		}
	}
}

// cardLine names a player of an active game at a pace whose clock is held.
func (m *module) cardLine(k *bot.Kit, lang string, g *play.Game) string {
	return strings.Join(k.Texts().AwayLines(lang, g, m.svc.Now()), "\n")
}

// confirmMove is the player's setting, or its default for g.
func (m *module) confirmMove(_ context.Context, _ *bot.Kit, g *play.Game, u *play.User) bool {
	return u != nil && slowplay.Confirms(u, g)
}

// opponent is the player of g facing userID.
func opponent(g *play.Game, userID int64) (play.Player, bool) {
	c, ok := g.ColorOf(userID)
	if !ok {
		return play.Player{}, false
	}
	return g.Player(c.Opponent()), true
}

// days is a duration in whole days, rounded down.
func days(d time.Duration) int { return int(d / (24 * time.Hour)) }
