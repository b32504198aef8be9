package tournament

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/bashni/bashni/bot"
	"github.com/bashni/bashni/play"
	arena "github.com/bashni/bashni/play/tournament"
	"github.com/bashni/bashni/texts"
)

// The texts of a tournament: the group's card, its final standings and
// the line on each arena game's card. The card and the final grow with
// the players and their games, so each is fitted to a message by
// construction (texts.FitList): the standings are cut to their top with "… and
// N more", a player's games too, however many players or games and
// however long their names (TestTourTextsAtTheirWorst).

// words is what a tournament's texts are written with: the catalog, the
// time now, and the bot's @username (the card's how-to).
type words struct {
	texts    *texts.Catalog
	now      time.Time
	username string
}

// wordsOf is k's words now.
func wordsOf(k *bot.Kit) words {
	return words{texts: k.Texts(), now: k.Service().Now(), username: k.Username()}
}

// Bounds of what a tournament's texts show of a player.
const (
	// tourCardSheet is how many of a player's latest games the card shows
	// the points of.
	tourCardSheet = 10
	// tourFinalGames bounds the units one player's games take in the
	// final standings, so that the table shows many players, not one.
	tourFinalGames = 400
)

// tourCard writes the group's card: the tournament, its time, the
// standings and the buttons.
func (w words) tourCard(t *arena.Tournament) (string, tgbotapi.InlineKeyboardMarkup) {
	lang := texts.Lang(t.Lang)
	mins := int(t.EndsAt.Sub(t.StartedAt).Round(time.Minute) / time.Minute)
	head := []string{w.texts.T(lang, "tour_title", "Control", t.TimeControl, "Minutes", mins)}
	switch t.Status {
	case arena.Running:
		left := int(max(t.EndsAt.Sub(w.now), 0).Round(time.Minute) / time.Minute)
		head = append(head, w.texts.T(lang, "tour_time_left", "Ends", t.EndsAt.UTC().Format("15:04"), "Left", left))
	case arena.Ending:
		head = append(head, w.texts.T(lang, "tour_time_up"))
	default:
		head = append(head, w.texts.T(lang, "tour_over"))
	}
	standings := t.Standings()
	if len(standings) == 0 {
		head = append(head, w.texts.T(lang, "tour_nobody"))
	} else {
		head = append(head, "")
	}
	var foot []string
	if t.Status == arena.Running {
		foot = append(foot, "", w.texts.T(lang, "tour_how", "Bot", "@"+w.username))
	}
	rows := make([]string, len(standings))
	for i, s := range standings {
		rows[i] = w.tourLine(s, tourCardSheet)
	}
	lines := append(head, w.fitRows(lang, rows, texts.MessageLimit-texts.TelegramLen(strings.Join(slices.Concat(head, foot), "\n"), "HTML")-2))
	lines = append(lines, foot...)
	kb := tgbotapi.InlineKeyboardMarkup{InlineKeyboard: [][]tgbotapi.InlineKeyboardButton{}}
	if t.Status == arena.Running {
		data := func(kind string) string { return bot.Callback{Kind: kind, ID: t.ID, Ply: -1}.Encode() }
		kb = tgbotapi.NewInlineKeyboardMarkup(
			tgbotapi.NewInlineKeyboardRow(
				tgbotapi.NewInlineKeyboardButtonData(w.texts.T(lang, "btn_tour_join"), data(KindTourJoin)),
				tgbotapi.NewInlineKeyboardButtonData(w.texts.T(lang, "btn_tour_leave"), data(KindTourLeave)),
			),
			tgbotapi.NewInlineKeyboardRow(tgbotapi.NewInlineKeyboardButtonData(w.texts.T(lang, "btn_tour_pause"), data(KindTourPause))),
		)
	}
	return strings.Join(lines, "\n"), kb
}

// fitRows joins rows one a line, the top ones that fit in budget units
// and "… and N more" for the rest.
func (w words) fitRows(lang string, rows []string, budget int) string {
	return texts.FitList(rows, "\n", budget, "HTML", func(n int) string { return w.texts.N(lang, "list_more", n) })
}

// tourLine is one line of the standings: rank, name, points, the sheet of
// the latest sheetMax games (🔥 while on fire), ⚔️ while playing, ⏸ while
// paused.
func (w words) tourLine(s arena.Standing, sheetMax int) string {
	line := fmt.Sprintf("%d. %s — <b>%d</b>", s.Rank, bot.HTMLName(s.Player.Name), s.Points)
	if sheet := sheetText(s.Sheet, sheetMax); sheet != "" {
		line += " · " + sheet
	}
	if s.OnFire {
		line += " 🔥"
	}
	switch {
	case s.Playing:
		line += " ⚔️"
	case s.Player.Paused:
		line += " ⏸"
	}
	return line
}

// sheetText writes the points of a sheet's latest max games, doubled ones
// marked, earlier ones as "…": "… 2 2 4 0".
func sheetText(sh arena.Sheet, maxGames int) string {
	points := sh.Points
	var parts []string
	if len(points) > maxGames || sh.Earlier > 0 {
		parts = append(parts, "…")
		points = points[max(len(points)-maxGames, 0):]
	}
	for _, p := range points {
		parts = append(parts, strconv.Itoa(p))
	}
	return strings.Join(parts, " ")
}

// tourFinal writes the final standings: the podium, then the players'
// lines and games, as many from the top as fit in a message.
func (w words) tourFinal(t *arena.Tournament) string {
	lang := texts.Lang(t.Lang)
	standings := t.Standings()
	head := []string{w.texts.T(lang, "tour_final", "Control", t.TimeControl)}
	medals := []string{"🥇", "🥈", "🥉"}
	for i, s := range standings {
		if i >= len(medals) || s.Sheet.Games == 0 {
			break
		}
		head = append(head, w.texts.T(lang, "tour_podium", "Medal", medals[i], "Name", bot.HTMLName(s.Player.Name), "Points", s.Points))
	}
	if len(standings) == 0 || standings[0].Sheet.Games == 0 {
		head = append(head, w.texts.T(lang, "tour_no_games"))
	}
	head = append(head, "", w.texts.T(lang, "tour_standings"))
	names := map[int64]string{}
	for _, p := range t.Players {
		names[p.UserID] = p.Name
	}
	more := func(n int) string { return w.texts.N(lang, "list_more", n) }
	blocks := make([]string, len(standings))
	for i, s := range standings {
		blocks[i] = w.tourLine(s, len(s.Sheet.Points))
		// The games kept one by one, against the opponents kept with them.
		res, opps := s.Player.Results, s.Player.Opps
		res = res[len(res)-min(len(res), len(opps)):]
		opps = opps[len(opps)-len(res):]
		var games []string
		for j, r := range res {
			mark := "½"
			switch r {
			case 'W':
				mark = "+"
			case 'L':
				mark = "−"
			}
			games = append(games, mark+bot.HTMLName(names[opps[j]]))
		}
		if len(games) > 0 {
			list := texts.FitList(games, ", ", tourFinalGames, "HTML", more)
			blocks[i] += "\n   " + w.texts.T(lang, "tour_games", "Games", list)
		}
	}
	return strings.Join(head, "\n") + "\n" + w.fitRows(lang, blocks, texts.MessageLimit-texts.TelegramLen(strings.Join(head, "\n"), "HTML")-1)
}

// arenaLine says on an arena game's card that it is one and how long the
// arena has left ("" for any other game): a player who has one game in
// front of them knows what else it is part of, and whether to hurry.
func (w words) arenaLine(lang string, g *play.Game) string {
	link := g.Link()
	if link == nil || link.EndsAt.IsZero() {
		return ""
	}
	left := link.EndsAt.Sub(w.now)
	if left <= 0 {
		return w.texts.T(lang, "tour_game_line_over")
	}
	return w.texts.T(lang, "tour_game_line", "Left", int((left+time.Minute-1)/time.Minute))
}
