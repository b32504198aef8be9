// Package standings shows the ratings: /stats, a player's own record, and
// /top, the leaderboard of a group (in a group) or of everyone (in a
// private chat). The ratings themselves are play's: every rated game
// changes them. A provisional rating is shown with a "?" (rating.Shown).
package standings

import (
	"context"
	"errors"
	"fmt"

	"github.com/bashni/bashni/bot"
	"github.com/bashni/bashni/play"
	"github.com/bashni/bashni/rating"
	"github.com/bashni/bashni/storage"
)

// Module is /stats and /top.
func Module() bot.Module {
	return bot.Module{
		Name:     "standings",
		Commands: map[string]bot.CommandFunc{"stats": stats, "top": top},
		Menu:     []string{"stats", "top"},
	}
}

// stats is the sender's rating (and in a group their line there), games,
// results and streak, and what the ratings are (Glicko-2 since Elo).
func stats(ctx context.Context, k *bot.Kit, c bot.Command) error {
	t, lang, u, msg := k.Texts(), c.Lang, c.User, c.Msg
	st := u.Stats
	streak := ""
	switch {
	case st.Streak > 1:
		streak = t.T(lang, "stats_streak_win", "N", st.Streak)
	case st.Streak < -1:
		streak = t.T(lang, "stats_streak_loss", "N", -st.Streak)
	}
	r := play.UserRating(u)
	text := t.T(lang, "stats", "Name", u.Name, "Rating", r.Shown(),
		"Games", t.N(lang, "stats_games", st.Games), "Wins", st.Wins, "Draws", st.Draws, "Losses", st.Losses, "Streak", streak)
	if !msg.Chat.IsPrivate() {
		line, err := k.Service().Standing(ctx, msg.Chat.ID, u.ID)
		switch {
		case err == nil:
			text += "\n" + t.T(lang, "rating_group_line", "Rating", play.LineRating(line).Shown(), "Games", t.N(lang, "stats_games", line.Games))
		case !errors.Is(err, storage.ErrNotFound):
			k.Text(msg.Chat, k.RefusalText(lang, err), msg.MessageID)
			return err
		}
	}
	text += "\n\n" + t.T(lang, "rating_explained", "RD", fmt.Sprintf("%.0f", r.RD),
		"Provisional", rating.ProvisionalRD, "Carry", rating.CarryRD)
	k.Text(msg.Chat, text, msg.MessageID)
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
	text, provisional := t.T(lang, title), false
	for i, s := range best {
		r := play.LineRating(s)
		provisional = provisional || r.Provisional()
		text += "\n" + t.T(lang, "top_line", "Rank", i+1, "Name", s.Name, "Rating", r.Shown(), "Games", t.N(lang, "stats_games", s.Games))
	}
	if provisional {
		text += "\n" + t.T(lang, "rating_top_note", "Provisional", rating.ProvisionalRD)
	}
	k.Text(msg.Chat, text, 0)
	return nil
}
