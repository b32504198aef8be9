package bot

import (
	"context"
	"strconv"
	"strings"
	"time"

	"github.com/bashni/bashni/texts"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/bashni/bashni/bot/telegram/outbox"
	"github.com/bashni/bashni/play"
	"github.com/bashni/bashni/rules"
)

// The chat against the AI (/team): the group is one side and votes on each
// of its moves (play/team.go decides). By default the card lists the
// chat's legal moves as buttons: one tap is one vote, answered by a toast,
// which Telegram does not count against the group's 20 messages a minute;
// the card itself is edited only when a vote closes, and then shows the
// tally. "/team 6 poll" votes in a native Telegram poll instead
// (teampoll.go). Both were built and measured end to end through the fake
// Bot API (cmd/bashni TestE2ETeamGameByVote, TestE2ETeamGameByPoll), and
// buttons stay the default:
//
//   - Messages a turn (the chat's move and the AI's answer): buttons 1,
//     the card's edit (2 when the AI takes longer than aiGrace and the
//     chat's move is shown first); poll 3, the same edit plus sendPoll and
//     stopPoll. Votes cost nothing either way (toasts; poll answers).
//   - A 40-ply game (20 turns of the chat's) at the group's 20 messages a
//     minute, the floor when members vote at once: buttons 20-40 messages,
//     1-2 minutes of the group's budget; poll 60-80, 3-4 minutes, a third
//     of the pace of other games in the group meanwhile.
//   - Moves offered: buttons every legal move (up to teamMaxButtons, /vote
//     for the rare rest); poll 12 (Bot API 9.1's limit, was 10), the
//     engine's shortlist, so it also hints the engine's choices; the rest
//     by /vote; a forced move cannot be polled (two options at least) and
//     is a button.
//   - What a member sees: the poll shows live counts and who voted, lets a
//     member change or retract an answer, and its new message each turn
//     notifies the chat; buttons show the count only in the voter's toast
//     until the card shows the tally, and edits notify nobody. A poll
//     answer from a member who voted by /vote shows in the poll but does
//     not count, so the poll's counts can differ from the tally.
//
// Live counts and a turn's notification are worth a poll to some groups,
// so it is an option; three times the messages and a twelfth of the moves
// are not worth making it everyone's.

// teamMaxButtons bounds the vote keyboard: Telegram allows 100 buttons and
// the card may add the board link. Rarer positions with more legal moves
// are voted by /vote.
const teamMaxButtons = 96

// teamVoteReaction marks a typed vote that counted.
const teamVoteReaction = "👍"

// teamResignWords are a typed vote to resign the chat's game ("/vote
// resign"): a majority ends the game, and so does its starter alone.
var teamResignWords = map[string]bool{"resign": true, "сдаться": true}

// teamPollWords choose the native poll for a team game's votes.
var teamPollWords = map[string]bool{"poll": true, "опрос": true}

// cmdTeam starts a game the chat plays against the AI: "/team 6", with
// optional "black" (the AI opens), a ruleset ("russian", "mp"), the
// vote's length ("30s", "2m") and "poll" (vote in a native poll).
func (b *Bot) cmdTeam(ctx context.Context, msg *tgbotapi.Message, lang, args string) error {
	if msg.Chat.IsPrivate() {
		b.text(msg.Chat, b.texts.T(lang, "team_usage", "Max", b.svc.Config().MaxLevel), msg.MessageID)
		return nil
	}
	req := play.TeamGameRequest{ChatID: msg.Chat.ID, ChatName: teamChatName(msg.Chat.Title), Color: play.ColorWhite, Lang: lang}
	if msg.From != nil {
		req.By = msg.From.ID
	}
	for _, f := range strings.Fields(args) {
		lf := strings.ToLower(f)
		if n, err := strconv.Atoi(lf); err == nil && req.Level == 0 {
			req.Level = n
			continue
		}
		if lf == play.ColorWhite || lf == play.ColorBlack || lf == play.ColorRandom {
			req.Color = lf
			continue
		}
		if v, ok := variantWord(lf); ok {
			req.Variant = v
			continue
		}
		if d, err := time.ParseDuration(lf); err == nil {
			req.Window = d
			continue
		}
		if teamPollWords[lf] {
			req.Poll = true
			continue
		}
		b.text(msg.Chat, b.texts.T(lang, "team_usage", "Max", b.svc.Config().MaxLevel), msg.MessageID)
		return nil
	}
	if req.Level == 0 {
		b.text(msg.Chat, b.texts.T(lang, "team_usage", "Max", b.svc.Config().MaxLevel), msg.MessageID)
		return nil
	}
	g, err := b.svc.NewTeamGame(ctx, req)
	if err != nil {
		b.text(msg.Chat, b.texts.Error(lang, err, false), msg.MessageID)
		return err
	}
	// When the AI opens, its move is owed from the start (play/aiturns.go);
	// when the chat opens a game voted by poll, its first poll follows the
	// card, as a reply to it, once the card is recorded: owed in the
	// card's record's write, so a crash loses neither (cardrecord.go).
	return b.postCard(msg.Chat, g, "", b.firstTurnOf(g, 0))
}

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
func (b *Bot) teamKeyboard(g *play.Game) tgbotapi.InlineKeyboardMarkup {
	rows := [][]tgbotapi.InlineKeyboardButton{}
	if g.PollsThisTurn() {
		return tgbotapi.InlineKeyboardMarkup{InlineKeyboard: rows}
	}
	var row []tgbotapi.InlineKeyboardButton
	for i, m := range teamMoves(g) {
		if i == teamMaxButtons {
			break
		}
		row = append(row, tgbotapi.NewInlineKeyboardButtonData(m.String(), Callback{Kind: KindVote, ID: g.ID(), Ply: g.Ply(), Arg: strconv.Itoa(i)}.Encode()))
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

// captionTail is what the caption may add after the team lines (the AI
// thinking, a picked tower spelt out): kept free of them.
const captionTail = 200

// teamLines are the caption's lines about the vote: how the last vote
// went, the open vote's tally so far, and how to vote while it is the
// chat's move; within budget units however many voted (the names of the
// last vote's majority are cut to fit, "… and N more").
func (b *Bot) teamLines(lang string, g *play.Game, budget int) []string {
	var lines []string
	if v := g.Vote(); v.Open && g.PollsThisTurn() {
		lines = append(lines, b.texts.T(lang, "team_vote_open_poll", "Seconds", int(v.Window.Seconds())))
	} else if v.Open {
		lines = append(lines, b.texts.T(lang, "team_vote_open", "Seconds", int(v.Window.Seconds())))
	}
	if tally := g.VoteTally(); len(tally) > 0 {
		// Shown when the card is next edited anyway (the AI's answer, a
		// /board): a vote costs the group no edit of its own.
		parts := make([]string, len(tally))
		for i, t := range tally {
			parts[i] = t.Move + " " + strconv.Itoa(t.Votes)
		}
		list := texts.FitList(parts, " · ", teamTallyUnits, "", func(n int) string { return b.texts.N(lang, "list_more", n) })
		lines = append([]string{b.texts.T(lang, "team_tally", "List", list)}, lines...)
	}
	turns := g.TeamTurns()
	if len(turns) == 0 {
		return lines
	}
	last := turns[len(turns)-1]
	names := make([]string, len(last.For))
	for i, v := range last.For {
		names[i] = shortName(v.Name)
	}
	line := func(names string) string {
		return b.texts.N(lang, "team_last_vote", len(last.For)+len(last.Others), "Move", last.Move, "Votes", len(last.For), "Names", names)
	}
	// The rest of the last vote's tally: the moves that lost, with their
	// votes, most first.
	var others []string
	for _, m := range play.TallyOf(last.Others) {
		others = append(others, m.Move+" "+strconv.Itoa(m.Votes))
	}
	if len(others) > 0 {
		list := texts.FitList(others, " · ", teamTallyUnits, "", func(n int) string { return b.texts.N(lang, "list_more", n) })
		lines = append([]string{b.texts.T(lang, "team_last_others", "List", list)}, lines...)
	}
	room := budget - texts.TelegramLen(line(""), "") - texts.TelegramLen(strings.Join(lines, "\n"), "") - 1
	list := texts.FitList(names, ", ", max(room, 0), "", func(n int) string { return b.texts.N(lang, "list_more", n) })
	return append([]string{line(list)}, lines...)
}

// teamTallyUnits bounds the open vote's tally on the caption: the moves
// with most votes first.
const teamTallyUnits = 120

// onVote takes a tap on the vote keyboard.
func (b *Bot) onVote(ctx context.Context, q *tgbotapi.CallbackQuery, cb Callback, lang string) error {
	g, err := b.svc.Game(ctx, cb.ID)
	if err != nil {
		b.toast(q, b.texts.Error(lang, err, false))
		return err
	}
	i, err := strconv.Atoi(cb.Arg)
	moves := teamMoves(g)
	if !g.IsTeamGame() || cb.Ply != g.Ply() || err != nil || i < 0 || i >= len(moves) {
		b.toast(q, b.texts.Error(lang, play.ErrVoteClosed, false))
		return nil
	}
	if q.Message == nil || q.Message.Chat == nil || q.Message.Chat.ID != g.ChatID() {
		b.toast(q, b.texts.T(lang, "err_wrong_place")) // the game's buttons, tapped elsewhere: forged
		return nil
	}
	if !b.mayActFor(ctx, g.ChatID(), q.From.ID, lang, func(text string) { b.toast(q, text) }) {
		return nil
	}
	out, err := b.svc.Vote(ctx, g.ID(), player(q.From), cb.Ply, moves[i].String())
	if err != nil {
		b.toast(q, b.texts.Error(lang, err, false))
		return err
	}
	if out.Closed != nil {
		b.toast(q, b.texts.T(lang, "team_vote_closed_now", "Move", out.Closed.Move.String()))
		b.locateCard(out.Game, q)
		b.afterMove(ctx, out.Closed)
		return nil
	}
	b.toast(q, b.texts.T(lang, "team_voted", "Move", out.Move.String(), "Votes", out.Votes, "Ballots", out.Ballots))
	return nil
}

// cmdVote takes a typed vote, "/vote c3-d4", in the chat's team game. A
// vote that counts gets a reaction, not a message; one refused gets the
// reason as a typed move does.
func (b *Bot) cmdVote(ctx context.Context, msg *tgbotapi.Message, lang, args string) error {
	games, err := b.svc.ActiveGames(ctx, 0, msg.Chat.ID)
	if err != nil {
		b.text(msg.Chat, b.texts.Error(lang, err, false), msg.MessageID)
		return err
	}
	var team *play.Game
	for _, g := range games {
		if g.IsTeamGame() {
			team = g
		}
	}
	if team == nil || msg.Chat.IsPrivate() {
		b.text(msg.Chat, b.texts.Error(lang, play.ErrNotTeamGame, false), msg.MessageID)
		return nil
	}
	if args == "" {
		b.text(msg.Chat, b.texts.T(lang, "vote_usage"), msg.MessageID)
		return nil
	}
	if teamResignWords[strings.ToLower(strings.TrimSpace(args))] {
		args = play.ResignVote
	}
	out, err := b.svc.Vote(ctx, team.ID(), player(msg.From), play.AnyPly, args)
	if err != nil {
		b.refuseTyped(ctx, msg, args, b.texts.Error(lang, err, true))
		return err
	}
	params := tgbotapi.Params{}
	params.AddFirstValid("chat_id", msg.Chat.ID)
	params.AddNonZero("message_id", msg.MessageID)
	params["reaction"] = `[{"type":"emoji","emoji":"` + teamVoteReaction + `"}]`
	b.send(outbox.Reply{Call: &outbox.Call{Method: "setMessageReaction", Params: params}, ChatID: msg.Chat.ID, Group: true})
	if out.Closed != nil {
		b.afterMove(ctx, out.Closed)
	}
	return nil
}

// teamSummary is the end of a team game: who voted for the moves played,
// those most often heard first, within budget units ("… and N more").
func (b *Bot) teamSummary(lang string, g *play.Game, budget int) string {
	voters := g.Voters()
	if len(voters) == 0 {
		return ""
	}
	parts := make([]string, len(voters))
	for i, v := range voters {
		parts[i] = b.texts.T(lang, "team_voter", "Name", shortName(v.Name), "Chosen", v.Chosen, "Votes", v.Votes)
	}
	room := budget - texts.TelegramLen(b.texts.T(lang, "team_voters", "List", ""), "")
	list := texts.FitList(parts, ", ", max(room, 0), "", func(n int) string { return b.texts.N(lang, "list_more", n) })
	return b.texts.T(lang, "team_voters", "List", list)
}
