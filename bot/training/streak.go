package training

import (
	"context"
	"math"
	"strings"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/bashni/bashni/bot"
	"github.com/bashni/bashni/play/training"
)

// cmdStreak is /streak: in a private chat a new run; in a group, the
// sender's best is entered on the group's board (now and as it grows) and
// they are sent to the private chat, where the run is played.
func (m *module) cmdStreak(ctx context.Context, k *bot.Kit, c bot.Command) error {
	chat, lang := c.Msg.Chat, c.Lang
	if !chat.IsPrivate() {
		if _, err := m.Streak.Join(ctx, chat.ID, c.Msg.From.ID); err != nil {
			k.Text(chat, k.RefusalText(lang, err), c.Msg.MessageID)
			return err
		}
		k.Text(chat, k.Texts().T(lang, "streak_private_only", "Link", startLink(k, "streak")), c.Msg.MessageID)
		return nil
	}
	return m.startStreak(ctx, k, chat, c.Msg.From.ID, lang, c.Msg.MessageID)
}

// startStreak begins a run and sends its first puzzle.
func (m *module) startStreak(ctx context.Context, k *bot.Kit, chat *tgbotapi.Chat, userID int64, lang string, replyTo int) error {
	st, err := m.Streak.Start(ctx, userID)
	if err != nil {
		k.Text(chat, k.RefusalText(lang, err), replyTo)
		return err
	}
	return m.showPuzzle(k, chat, lang, replyTo, st)
}

// onStreak is the button that begins a new run.
func (m *module) onStreak(ctx context.Context, k *bot.Kit, t bot.Tap) error {
	k.Toast(t.Query, "")
	if t.Query.Message == nil {
		return nil
	}
	return m.startStreak(ctx, k, t.Query.Message.Chat, t.Query.From.ID, t.Lang, 0)
}

// StreakBoard is /top streak (package standings shows it): the best runs
// of the group, or of everyone in a private chat.
func StreakBoard(s *training.Streak) bot.CommandFunc {
	return func(ctx context.Context, k *bot.Kit, c bot.Command) error {
		tx, lang, chat := k.Texts(), c.Lang, c.Msg.Chat
		scope, title := chat.ID, "top_streak_chat"
		if chat.IsPrivate() {
			scope, title = 0, "top_streak_global"
		}
		best, err := s.Top(ctx, scope, 10)
		if err != nil {
			k.Text(chat, k.RefusalText(lang, err), c.Msg.MessageID)
			return err
		}
		if len(best) == 0 {
			k.Text(chat, tx.T(lang, "top_streak_empty"), c.Msg.MessageID)
			return nil
		}
		text := tx.T(lang, title)
		for i, line := range best {
			text += "\n" + tx.T(lang, "top_streak_line", "Rank", i+1, "Name", line.Name, "Best", int(line.Rating))
		}
		k.Text(chat, text, 0)
		return nil
	}
}

// StatsLine is what /stats (package standings) says of the sender's
// puzzles: the rating, the solves, a sparkline of the rating's recent
// history and the best streak; nothing for one who never tried a puzzle.
func StatsLine(k *bot.Kit, c bot.Command) string {
	if c.User == nil {
		return ""
	}
	tx, lang, r := k.Texts(), c.Lang, training.RecordOf(c.User)
	if r.Solved+r.Failed == 0 && r.StreakBest == 0 {
		return ""
	}
	out := tx.T(lang, "stats_puzzles", "Rating", int(math.Round(r.Rating)), "Solved", r.Solved, "Failed", r.Failed)
	if len(r.History) > 1 {
		out += "\n" + tx.T(lang, "stats_puzzle_history", "N", len(r.History), "Spark", sparkline(r.History),
			"From", r.History[0], "To", r.History[len(r.History)-1])
	}
	if r.StreakBest > 0 {
		out += "\n" + tx.T(lang, "stats_streak_best", "Best", r.StreakBest)
	}
	return out
}

// sparkline draws values as one character each, lowest to highest in
// eight steps: a phone shows the rating's trend in a line.
func sparkline(values []int) string {
	const bars = "▁▂▃▄▅▆▇█"
	steps := []rune(bars)
	lo, hi := values[0], values[0]
	for _, v := range values {
		lo, hi = min(lo, v), max(hi, v)
	}
	var b strings.Builder
	for _, v := range values {
		i := 0
		if hi > lo {
			i = (v - lo) * (len(steps) - 1) / (hi - lo)
		}
		b.WriteRune(steps[i])
	}
	return b.String()
}
