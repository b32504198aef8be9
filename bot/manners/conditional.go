package manners

import (
	"context"
	"errors"
	"strings"

	"github.com/bashni/bashni/bot"
	"github.com/bashni/bashni/play"
	"github.com/bashni/bashni/play/manners"
)

// conditional is /if: with a line, it leaves it in the sender's game
// (the card it replies to or the group's one game of theirs; in a private
// chat, the one game of theirs waiting for the opponent where the line is
// legal, so that the opponent never reads it); "/if off" drops the
// sender's lines; alone, it shows them.
func (m module) conditional(ctx context.Context, k *bot.Kit, c bot.Command) error {
	args := strings.TrimSpace(c.Args)
	switch strings.ToLower(args) {
	case "":
		return m.showLines(ctx, k, c)
	case "off", "выкл":
		return m.clearLines(ctx, k, c)
	}
	moves, err := manners.ParseLine(args)
	if err != nil {
		return refuse(k, c, err)
	}
	g, err := m.gameForLine(ctx, k, c, moves)
	if err != nil || g == nil {
		return err
	}
	l, err := m.s.SetLine(ctx, g.ID(), c.Msg.From.ID, moves)
	if err != nil {
		return m.refuseLine(k, c, err)
	}
	k.Text(c.Msg.Chat, k.Texts().T(c.Lang, "if_set", "Opponent", opponentName(k, c.Lang, l.Game, c.Msg.From.ID), "Line", lineText(k, c.Lang, l.Moves)), c.Msg.MessageID)
	return nil
}

// gameForLine is the game a line is for; nil, nil when the sender was
// told why there is none.
func (m module) gameForLine(ctx context.Context, k *bot.Kit, c bot.Command, moves []string) (*play.Game, error) {
	if !c.Msg.Chat.IsPrivate() || c.Msg.ReplyToMessage != nil {
		return k.GameForCommand(ctx, c.Msg, c.Lang)
	}
	games, err := k.Service().ActiveGames(ctx, c.Msg.From.ID, 0)
	if err != nil {
		return nil, refuse(k, c, err)
	}
	var waiting, fits []*play.Game
	var why error
	for _, g := range games {
		if manners.MaySetLine(g, c.Msg.From.ID) != nil {
			continue
		}
		waiting = append(waiting, g)
		if _, err := manners.CheckLine(g, c.Msg.From.ID, moves); err != nil {
			why = err
			continue
		}
		fits = append(fits, g)
	}
	switch {
	case len(fits) == 1:
		return fits[0], nil
	case len(fits) > 1:
		return nil, refuse(k, c, manners.ErrManyGames)
	case len(waiting) == 1:
		return nil, m.refuseLine(k, c, why)
	}
	return nil, refuse(k, c, manners.ErrNoLine)
}

// refuseLine tells why a line was refused: the move of the line that is
// not legal, and the rules' reason, or the refusal itself.
func (m module) refuseLine(k *bot.Kit, c bot.Command, err error) error {
	var le *manners.LineError
	if errors.As(err, &le) {
		k.Text(c.Msg.Chat, k.Texts().T(c.Lang, "if_bad_move", "N", le.Index+1, "Move", le.Move, "Reason", k.RefusalText(c.Lang, le.Err)), c.Msg.MessageID)
		return nil
	}
	return refuse(k, c, err)
}

// showLines lists the sender's lines, or says how to leave one.
func (m module) showLines(ctx context.Context, k *bot.Kit, c bot.Command) error {
	games, err := k.Service().ActiveGames(ctx, c.Msg.From.ID, 0)
	if err != nil {
		return refuse(k, c, err)
	}
	var lines []string
	for _, g := range games {
		if line := manners.LineOf(g, c.Msg.From.ID); line != nil {
			lines = append(lines, k.Texts().T(c.Lang, "if_game_line", "Opponent", opponentName(k, c.Lang, g, c.Msg.From.ID), "Line", lineText(k, c.Lang, line)))
		}
	}
	if len(lines) == 0 {
		k.Text(c.Msg.Chat, k.Texts().T(c.Lang, "if_usage"), c.Msg.MessageID)
		return nil
	}
	k.Text(c.Msg.Chat, k.Texts().T(c.Lang, "if_lines")+"\n"+strings.Join(lines, "\n"), c.Msg.MessageID)
	return nil
}

// clearLines drops the sender's lines in all their games.
func (m module) clearLines(ctx context.Context, k *bot.Kit, c bot.Command) error {
	games, err := k.Service().ActiveGames(ctx, c.Msg.From.ID, 0)
	if err != nil {
		return refuse(k, c, err)
	}
	for _, g := range games {
		if manners.LineOf(g, c.Msg.From.ID) == nil {
			continue
		}
		if _, err := m.s.ClearLine(ctx, g.ID(), c.Msg.From.ID); err != nil {
			return refuse(k, c, err)
		}
	}
	k.Text(c.Msg.Chat, k.Texts().T(c.Lang, "if_cleared"), c.Msg.MessageID)
	return nil
}

// lineText is a line as the player reads it: "if X, then Y" by pairs.
func lineText(k *bot.Kit, lang string, moves []string) string {
	pairs := make([]string, 0, len(moves)/2)
	for i := 0; i+1 < len(moves); i += 2 {
		pairs = append(pairs, k.Texts().T(lang, "if_pair", "Expected", moves[i], "Answer", moves[i+1]))
	}
	return strings.Join(pairs, "; ")
}

// opponentName is the name of userID's opponent in g.
func opponentName(k *bot.Kit, lang string, g *play.Game, userID int64) string {
	p := g.White()
	if p.UserID == userID {
		p = g.Black()
	}
	return k.Texts().PlayerName(lang, p)
}
