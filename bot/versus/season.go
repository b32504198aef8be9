package versus

import (
	"context"
	"fmt"
	"html"
	"strings"

	"github.com/bashni/bashni/bot"
	"github.com/bashni/bashni/play/versus"
)

// tableRows bounds the season's table: its top, which fits a message.
const tableRows = 15

// table is /versus table: the season's table of groups and the last
// season's podium.
func (m *module) table(ctx context.Context, k *bot.Kit, c bot.Command) error {
	msg, lang := c.Msg, c.Lang
	tx := k.Texts()
	rows, err := m.svc.Table(ctx, tableRows)
	if err != nil {
		k.Text(msg.Chat, k.RefusalText(lang, err), msg.MessageID)
		return err
	}
	now := k.Service().Now()
	season := m.svc.Season(now)
	ends := m.svc.SeasonEnds(season)
	var b strings.Builder
	b.WriteString(tx.N(lang, "versus_table_head", int(ends.Sub(now).Hours()/24), "Season", season))
	if len(rows) == 0 {
		b.WriteString("\n" + tx.T(lang, "versus_table_empty"))
	}
	for i, r := range rows {
		b.WriteString("\n" + tx.T(lang, "versus_table_row", "Place", i+1, "Name", html.EscapeString(versus.SideName(r.Title)),
			"Rating", fmt.Sprintf("%.0f", r.Rating), "Points", points(r.Points), "Played", r.Played))
	}
	last, podium, err := m.svc.Podium(ctx)
	if err == nil && len(podium) > 0 {
		b.WriteString("\n\n" + tx.T(lang, "versus_podium_head", "Season", last))
		for i, r := range podium {
			b.WriteString("\n" + []string{"🥇", "🥈", "🥉"}[i] + " " + html.EscapeString(versus.SideName(r.Title)) + " · " + points(r.Points))
		}
	}
	k.HTML(msg.Chat, b.String(), nil)
	return nil
}

// points writes a season's points: halves for draws.
func points(p float64) string {
	if p == float64(int(p)) {
		return fmt.Sprintf("%d", int(p))
	}
	return fmt.Sprintf("%.1f", p)
}

// historyRows bounds the history shown.
const historyRows = 10

// history is /versus history: the group's latest matches.
func (m *module) history(ctx context.Context, k *bot.Kit, c bot.Command) error {
	msg, lang := c.Msg, c.Lang
	tx := k.Texts()
	h, err := m.svc.History(ctx, msg.Chat.ID)
	if err != nil {
		k.Text(msg.Chat, k.RefusalText(lang, err), msg.MessageID)
		return err
	}
	rec, err := m.svc.Chat(ctx, msg.Chat.ID)
	if err != nil {
		return err
	}
	var b strings.Builder
	b.WriteString(tx.T(lang, "versus_history_head", "Rating", fmt.Sprintf("%.0f", max(rec.Rating, 0))))
	if len(h) == 0 {
		b.WriteString("\n" + tx.T(lang, "versus_history_empty"))
	}
	for i, r := range h {
		if i == historyRows {
			break
		}
		key := "versus_history_lost"
		switch r.Score {
		case 1:
			key = "versus_history_won"
		case 0.5:
			key = "versus_history_drawn"
		}
		b.WriteString("\n" + tx.T(lang, key, "Name", html.EscapeString(r.Opponent), "Date", r.At.Format("2006-01-02")))
	}
	k.HTML(msg.Chat, b.String(), nil)
	return nil
}
