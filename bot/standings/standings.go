// Package standings shows the ratings: /stats, a player's own record, and
// /top, the leaderboard of a group (in a group) or of everyone (in a
// private chat). The ratings themselves are play's: every rated game
// changes them.
package standings

import (
	"context"
	"fmt"
	"strings"

	"github.com/bashni/bashni/bot"
)

// Options are what other features add to /stats and /top, named where
// the modules are wired (cmd/bashni's Main.Open), so that this package
// names none of them.
type Options struct {
	// Lines add lines about the sender to /stats ("" for none): a
	// feature's own record, such as the puzzle rating.
	Lines []func(k *bot.Kit, c bot.Command) string
	// Boards are /top's other boards, by the word after it (/top streak).
	Boards map[string]bot.CommandFunc
}

// Module is /stats and /top, with what opts add.
func Module(opts ...Options) bot.Module {
	var o Options
	for _, x := range opts {
		o.Lines = append(o.Lines, x.Lines...)
		for word, board := range x.Boards {
			if o.Boards == nil {
				o.Boards = map[string]bot.CommandFunc{}
			}
			o.Boards[word] = board
		}
	}
	return bot.Module{
		Name: "standings",
		Commands: map[string]bot.CommandFunc{
			"stats": func(ctx context.Context, k *bot.Kit, c bot.Command) error { return stats(ctx, k, c, o.Lines) },
			"top": func(ctx context.Context, k *bot.Kit, c bot.Command) error {
				if board, ok := o.Boards[strings.ToLower(strings.TrimSpace(c.Args))]; ok {
					return board(ctx, k, c)
				}
				return top(ctx, k, c)
			},
		},
		Menu: []string{"stats", "top"},
	}
}

// newcomerRating is what a player who has not played a rated game is
// shown: the rating everyone starts from.
const newcomerRating = 1500

// stats is the sender's rating, games, results and streak.
func stats(_ context.Context, k *bot.Kit, c bot.Command, lines []func(k *bot.Kit, c bot.Command) string) error {
	t, lang, u := k.Texts(), c.Lang, c.User
	st := u.Stats
	streak := ""
	switch {
	case st.Streak > 1:
		streak = t.T(lang, "stats_streak_win", "N", st.Streak)
	case st.Streak < -1:
		streak = t.T(lang, "stats_streak_loss", "N", -st.Streak)
	}
	rating := u.Rating
	if rating == 0 {
		rating = newcomerRating
	}
	text := t.T(lang, "stats", "Name", u.Name, "Rating", fmt.Sprintf("%.0f", rating),
		"Games", t.N(lang, "stats_games", st.Games), "Wins", st.Wins, "Draws", st.Draws, "Losses", st.Losses, "Streak", streak)
	for _, line := range lines {
		if l := line(k, c); l != "" {
			text += "\n" + l
		}
	}
	k.Text(c.Msg.Chat, text, c.Msg.MessageID)
	return nil
}

// top is the ten best of the chat's group, or of everyone in private.
func top(ctx context.Context, k *bot.Kit, c bot.Command) error {
	t, lang, msg := k.Texts(), c.Lang, c.Msg
	scope, title := msg.Chat.ID, "top_title_chat"
	if msg.Chat.IsPrivate() {
		scope, title = 0, "top_title_global"
	}
	best, err := k.Service().Top(ctx, scope, 10)
	if err != nil {
		k.Text(msg.Chat, k.RefusalText(lang, err), msg.MessageID)
		return err
	}
	if len(best) == 0 {
		k.Text(msg.Chat, t.T(lang, "top_empty"), msg.MessageID)
		return nil
	}
	text := t.T(lang, title)
	for i, s := range best {
		text += "\n" + t.T(lang, "top_line", "Rank", i+1, "Name", s.Name, "Rating", fmt.Sprintf("%.0f", s.Rating), "Games", t.N(lang, "stats_games", s.Games))
	}
	k.Text(msg.Chat, text, 0)
	return nil
}
