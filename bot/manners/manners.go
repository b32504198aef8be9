// Package manners is the Telegram side of play/manners: /if leaves a line
// of conditional moves in a slow game, /abort ends a game between people
// before both have moved, and /takeback asks the opponent to take back
// one's last move (against the AI it takes it back at once, as the core
// allows there), answered on the card. The card says when a line's answer
// was played and when a takeback is asked for.
package manners

import (
	"context"
	"strings"

	"github.com/bashni/bashni/bot"
	"github.com/bashni/bashni/play"
	"github.com/bashni/bashni/play/manners"
)

// The module's buttons on a game's card.
const (
	KindTakebackYes = "bk" // accept the takeback asked for: Ply = the board's version
	KindTakebackNo  = "bn" // decline it
)

// Module is /if, /abort and /takeback over s.
func Module(s *manners.Service) bot.Module {
	m := module{s: s}
	return bot.Module{
		Name:     "manners",
		Commands: map[string]bot.CommandFunc{"if": m.conditional, "abort": m.abort, "takeback": m.takeback},
		Menu:     []string{"if", "abort", "takeback"},
		Taps: map[string]bot.TapRoute{
			KindTakebackYes: {Scope: bot.Anywhere, Handle: m.answerTakeback(true)},
			KindTakebackNo:  {Scope: bot.Anywhere, Handle: m.answerTakeback(false)},
		},
		CardLine: cardLine,
		CardRow:  cardRow,
	}
}

type module struct{ s *manners.Service }

// refuse tells the sender of command c why it changed nothing: an
// everyday refusal is no fault of the handler's.
func refuse(k *bot.Kit, c bot.Command, err error) error {
	k.Text(c.Msg.Chat, k.RefusalText(c.Lang, err), c.Msg.MessageID)
	if k.Expected(err) {
		return nil
	}
	return err
}

// abort ends the sender's game before both sides have moved.
func (m module) abort(ctx context.Context, k *bot.Kit, c bot.Command) error {
	g, err := k.GameForCommand(ctx, c.Msg, c.Lang)
	if err != nil || g == nil {
		return err
	}
	ended, err := m.s.Abort(ctx, g.ID(), c.Msg.From.ID)
	if err != nil {
		return refuse(k, c, err)
	}
	k.ShowMove(ctx, &play.Outcome{Game: ended, Ended: true}, nil)
	return nil
}

// cardLine says on the card that the last move was a line's answer, or
// that a takeback is asked for.
func cardLine(k *bot.Kit, lang string, g *play.Game) string {
	words := k.Texts()
	var lines []string
	if by, expected, answer, ok := manners.Answered(g); ok {
		lines = append(lines, words.T(lang, "if_answered_line", "Player", nameOf(k, lang, g, by), "Expected", expected, "Answer", answer))
	}
	if by := manners.TakebackAsked(g); by != 0 {
		key := "takeback_asked_line"
		if g.Rated() {
			key = "takeback_asked_rated_line"
		}
		lines = append(lines, words.T(lang, key, "Player", nameOf(k, lang, g, by)))
	}
	return strings.Join(lines, "\n")
}

// nameOf is the name of g's player userID.
func nameOf(k *bot.Kit, lang string, g *play.Game, userID int64) string {
	p := g.White()
	if g.Black().UserID == userID {
		p = g.Black()
	}
	return k.Texts().PlayerName(lang, p)
}
