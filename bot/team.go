package bot

import (
	"context"
	"strconv"
	"strings"
	"time"

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
	req := play.TeamGameRequest{ChatID: msg.Chat.ID, ChatName: "👥 " + msg.Chat.Title, Color: play.ColorWhite, Lang: lang}
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

// teamLines are the caption's lines about the vote: how the last vote
// went, and how to vote while it is the chat's move.
func (b *Bot) teamLines(lang string, g *play.Game) []string {
	var lines []string
	if turns := g.TeamTurns(); len(turns) > 0 {
		last := turns[len(turns)-1]
		var names []string
		for _, v := range last.For {
			names = append(names, v.Name)
		}
		lines = append(lines, b.texts.T(lang, "team_last_vote", "Move", last.Move, "Votes", len(last.For),
			"Of", len(last.For)+len(last.Others), "Names", strings.Join(names, ", ")))
	}
	if v := g.Vote(); v.Open && g.PollsThisTurn() {
		lines = append(lines, b.texts.T(lang, "team_vote_open_poll", "Seconds", int(v.Window.Seconds())))
	} else if v.Open {
		lines = append(lines, b.texts.T(lang, "team_vote_open", "Seconds", int(v.Window.Seconds())))
	}
	return lines
}

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
		b.cardOf(out.Game, q)
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

// teamSummary is the end of a team game: who voted for the moves played.
func (b *Bot) teamSummary(lang string, g *play.Game) string {
	voters := g.Voters()
	if len(voters) == 0 {
		return ""
	}
	var parts []string
	for _, v := range voters {
		parts = append(parts, b.texts.T(lang, "team_voter", "Name", v.Name, "Chosen", v.Chosen, "Votes", v.Votes))
	}
	return b.texts.T(lang, "team_voters", "List", strings.Join(parts, ", "))
}
