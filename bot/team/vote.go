package team

import (
	"context"
	"strconv"
	"strings"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/bashni/bashni/bot"
	"github.com/bashni/bashni/bot/telegram/outbox"
	"github.com/bashni/bashni/play"
	vote "github.com/bashni/bashni/play/team"
)

// The chat against the AI (/team): the group is one side and votes on each
// of its moves (play/team decides). By default the card lists the
// chat's legal moves as buttons: one tap is one vote, answered by a toast,
// which Telegram does not count against the group's 20 messages a minute;
// the card itself is edited only when a vote closes, and then shows the
// tally. "/team 6 poll" votes in a native Telegram poll instead
// (poll.go). Both were built and measured end to end through the fake
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
func (m *module) cmdTeam(ctx context.Context, k *bot.Kit, c bot.Command) error {
	msg, lang := c.Msg, c.Lang
	usage := func() error {
		k.Text(msg.Chat, k.Texts().T(lang, "team_usage", "Max", k.Service().Config().MaxLevel), msg.MessageID)
		return nil
	}
	if msg.Chat.IsPrivate() {
		return usage()
	}
	req := vote.GameRequest{ChatID: msg.Chat.ID, ChatName: teamChatName(msg.Chat.Title), Color: play.ColorWhite, Lang: lang}
	if msg.From != nil {
		req.By = msg.From.ID
	}
	for _, f := range strings.Fields(c.Args) {
		lf := strings.ToLower(f)
		if n, err := strconv.Atoi(lf); err == nil && req.Level == 0 {
			req.Level = n
			continue
		}
		if lf == play.ColorWhite || lf == play.ColorBlack || lf == play.ColorRandom {
			req.Color = lf
			continue
		}
		if v, ok := k.Variant(lf); ok {
			req.Variant = v
			continue
		}
		if d, err := time.ParseDuration(lf); err == nil {
			req.Window = d
			continue
		}
		if d, err := play.ParsePace(lf); err == nil {
			req.DaysPerMove = d // the chat's days per move
			continue
		}
		if teamPollWords[lf] {
			req.Poll = true
			continue
		}
		return usage()
	}
	if req.Level == 0 {
		return usage()
	}
	g, err := m.svc.NewGame(ctx, req)
	if err != nil {
		k.Text(msg.Chat, k.RefusalText(lang, err), msg.MessageID)
		return err
	}
	// When the AI opens, its move is owed from the start (play/aiturns.go);
	// when the chat opens a game voted by poll, its first poll follows the
	// card, as a reply to it, once the card is recorded: owed in the
	// card's record's write, so a crash loses neither (bot/cardrecord.go).
	return k.PostCard(msg.Chat, g, "", 0)
}

// onVote takes a tap on the vote keyboard.
func (m *module) onVote(ctx context.Context, k *bot.Kit, t bot.Tap) error {
	q, cb, lang := t.Query, t.Data, t.Lang
	g, err := k.Service().Game(ctx, cb.ID)
	if err != nil {
		k.Toast(q, k.RefusalText(lang, err))
		return err
	}
	i, err := strconv.Atoi(cb.Arg)
	moves := teamMoves(g)
	if !vote.Is(g) || cb.Ply != g.Ply() || err != nil || i < 0 || i >= len(moves) {
		k.Toast(q, k.RefusalText(lang, vote.ErrVoteClosed))
		return nil
	}
	if q.Message == nil || q.Message.Chat == nil || !vote.VotesIn(g, q.Message.Chat.ID) {
		k.Toast(q, k.Texts().T(lang, "err_wrong_place")) // the game's buttons, tapped elsewhere: forged
		return nil
	}
	// The voter must be a member of the chat whose card they tapped: in a
	// game between two chats, each side's (play/team's sides.go).
	where := q.Message.Chat.ID
	if !k.MayActFor(ctx, where, q.From.ID, lang, func(text string) { k.Toast(q, text) }) {
		return nil
	}
	out, err := m.svc.VoteIn(ctx, g.ID(), where, k.Player(q.From), cb.Ply, moves[i].String())
	if err != nil {
		k.Toast(q, k.RefusalText(lang, err))
		return err
	}
	if out.Closed != nil {
		closedNow := "team_vote_closed_now"
		if vote.Sided(g) {
			closedNow = "team_side_quorum_now"
		}
		k.Toast(q, k.Texts().T(lang, closedNow, "Move", out.Closed.Move.String()))
		if where != g.ChatID() {
			q = nil // the tap is on the second card, not the game's own
		}
		k.ShowMove(ctx, out.Closed, q)
		return nil
	}
	k.Toast(q, k.Texts().T(lang, "team_voted", "Move", out.Move.String(), "Votes", out.Votes, "Ballots", out.Ballots))
	return nil
}

// cmdVote takes a typed vote, "/vote c3-d4", in the chat's team game. A
// vote that counts gets a reaction, not a message; one refused gets the
// reason as a typed move does.
func (m *module) cmdVote(ctx context.Context, k *bot.Kit, c bot.Command) error {
	msg, lang, args := c.Msg, c.Lang, c.Args
	games, err := k.Service().ActiveGames(ctx, 0, msg.Chat.ID)
	if err != nil {
		k.Text(msg.Chat, k.RefusalText(lang, err), msg.MessageID)
		return err
	}
	var voted *play.Game
	for _, g := range games {
		if vote.Is(g) {
			voted = g
		}
	}
	if voted == nil || msg.Chat.IsPrivate() {
		k.Text(msg.Chat, k.RefusalText(lang, vote.ErrNotTeamGame), msg.MessageID)
		return nil
	}
	if args == "" {
		k.Text(msg.Chat, k.Texts().T(lang, "vote_usage"), msg.MessageID)
		return nil
	}
	if teamResignWords[strings.ToLower(strings.TrimSpace(args))] {
		args = vote.ResignVote
	}
	out, err := m.svc.Vote(ctx, voted.ID(), k.Player(msg.From), play.AnyPly, args)
	if err != nil {
		k.RefuseTyped(ctx, msg, args, k.Texts().Error(lang, err, true))
		return err
	}
	params := tgbotapi.Params{}
	params.AddFirstValid("chat_id", msg.Chat.ID)
	params.AddNonZero("message_id", msg.MessageID)
	params["reaction"] = `[{"type":"emoji","emoji":"` + teamVoteReaction + `"}]`
	k.Send(outbox.Reply{Call: &outbox.Call{Method: "setMessageReaction", Params: params}, ChatID: msg.Chat.ID, Group: true})
	if out.Closed != nil {
		k.ShowMove(ctx, out.Closed, nil)
	}
	return nil
}
