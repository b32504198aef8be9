package team

import (
	"strconv"
	"strings"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/bashni/bashni/bot"
	"github.com/bashni/bashni/play"
	vote "github.com/bashni/bashni/play/team"
	"github.com/bashni/bashni/rules"
	"github.com/bashni/bashni/texts"
)

// What a game by vote adds to its card and to the message that tells its
// end (bot.OwnedGames): the vote keyboard, the vote's lines on the
// caption, and who voted for the moves played.

// teamChatNameMax bounds the chat's title as the chat's side is named
// (on the card twice): a title may be 128 characters, and the caption's
// 1,024 must leave room for the vote.
const teamChatNameMax = 40

// voterNameMax bounds a voter's name in the lists of a team game: a name
// may be 129 characters, and a list should name more than a few.
const voterNameMax = 24

// shortName cuts a voter's name to voterNameMax characters.
func shortName(name string) string {
	if r := []rune(name); len(r) > voterNameMax {
		return string(r[:voterNameMax-1]) + "…"
	}
	return name
}

// teamChatName names the chat's side after its title, cut to
// teamChatNameMax characters.
func teamChatName(title string) string {
	if r := []rune(title); len(r) > teamChatNameMax {
		title = string(r[:teamChatNameMax-1]) + "…"
	}
	return "👥 " + title
}

// teamMoves are the moves the vote keyboard offers, in the order shown.
func teamMoves(g *play.Game) []rules.Move {
	return rules.SortedMoves(g.Rules().Legal())
}

// teamKeyboard is the vote: one button a legal move. A game voted by
// poll has none (the poll is the vote) unless the move is forced, which a
// poll of one option cannot offer.
func teamKeyboard(_ *bot.Kit, g *play.Game, _ string) tgbotapi.InlineKeyboardMarkup {
	rows := [][]tgbotapi.InlineKeyboardButton{}
	if vote.PollsThisTurn(g) || !vote.VoteOf(g).Open {
		// In a game between two chats, the card of the side that waits.
		return tgbotapi.InlineKeyboardMarkup{InlineKeyboard: rows}
	}
	var row []tgbotapi.InlineKeyboardButton
	for i, m := range teamMoves(g) {
		if i == teamMaxButtons {
			break
		}
		row = append(row, tgbotapi.NewInlineKeyboardButtonData(m.String(), bot.Callback{Kind: KindVote, ID: g.ID(), Ply: g.Ply(), Arg: strconv.Itoa(i)}.Encode()))
		if len(row) == 4 {
			rows = append(rows, row)
			row = nil
		}
	}
	if len(row) > 0 {
		rows = append(rows, row)
	}
	return tgbotapi.InlineKeyboardMarkup{InlineKeyboard: rows}
}

// teamLines are the caption's lines about the vote: how the last vote
// went, the open vote's tally so far, and how to vote while it is the
// chat's move; within budget units however many voted (the names of the
// last vote's majority are cut to fit, "… and N more").
func teamLines(k *bot.Kit, g *play.Game, lang string, budget int) []string {
	tx := k.Texts()
	var lines []string
	if vote.Sided(g) {
		if line := sideLine(k, g, lang); line != "" {
			lines = append(lines, line)
		}
	} else if v := vote.VoteOf(g); v.Open && vote.PollsThisTurn(g) {
		lines = append(lines, tx.T(lang, "team_vote_open_poll", "Seconds", int(v.Window.Seconds())))
	} else if v.Open {
		lines = append(lines, tx.T(lang, "team_vote_open", "Seconds", int(v.Window.Seconds())))
	}
	if tally := vote.Tally(g); len(tally) > 0 {
		// Shown when the card is next edited anyway (the AI's answer, a
		// /board): a vote costs the group no edit of its own.
		parts := make([]string, len(tally))
		for i, t := range tally {
			parts[i] = t.Move + " " + strconv.Itoa(t.Votes)
		}
		list := texts.FitList(parts, " · ", teamTallyUnits, "", func(n int) string { return tx.N(lang, "list_more", n) })
		lines = append([]string{tx.T(lang, "team_tally", "List", list)}, lines...)
	}
	turns := vote.Turns(g)
	if len(turns) == 0 {
		return lines
	}
	last := turns[len(turns)-1]
	names := make([]string, len(last.For))
	for i, v := range last.For {
		names[i] = shortName(v.Name)
	}
	line := func(names string) string {
		return tx.N(lang, "team_last_vote", len(last.For)+len(last.Others), "Move", last.Move, "Votes", len(last.For), "Names", names)
	}
	// The rest of the last vote's tally: the moves that lost, with their
	// votes, most first.
	var others []string
	for _, m := range vote.TallyOf(last.Others) {
		others = append(others, m.Move+" "+strconv.Itoa(m.Votes))
	}
	if len(others) > 0 {
		list := texts.FitList(others, " · ", teamTallyUnits, "", func(n int) string { return tx.N(lang, "list_more", n) })
		lines = append([]string{tx.T(lang, "team_last_others", "List", list)}, lines...)
	}
	room := budget - texts.TelegramLen(line(""), "") - texts.TelegramLen(strings.Join(lines, "\n"), "") - 1
	list := texts.FitList(names, ", ", max(room, 0), "", func(n int) string { return tx.N(lang, "list_more", n) })
	return append([]string{line(list)}, lines...)
}

// teamTallyUnits bounds the open vote's tally on the caption: the moves
// with most votes first.
const teamTallyUnits = 120

// teamSummary is the end of a team game: who voted for the moves played,
// those most often heard first, within budget units ("… and N more").
func teamSummary(k *bot.Kit, g *play.Game, lang string, budget int) string {
	tx := k.Texts()
	voters := vote.Voters(g)
	if len(voters) == 0 {
		return ""
	}
	parts := make([]string, len(voters))
	for i, v := range voters {
		parts[i] = tx.T(lang, "team_voter", "Name", shortName(v.Name), "Chosen", v.Chosen, "Votes", v.Votes)
	}
	room := budget - texts.TelegramLen(tx.T(lang, "team_voters", "List", ""), "")
	list := texts.FitList(parts, ", ", max(room, 0), "", func(n int) string { return tx.N(lang, "list_more", n) })
	return tx.T(lang, "team_voters", "List", list)
}
