package team

import (
	"github.com/bashni/bashni/bot"
	"github.com/bashni/bashni/play"
	vote "github.com/bashni/bashni/play/team"
)

// KindVote is a vote button on a game's card: Arg = the move's index in
// the vote keyboard.
const KindVote = "tv"

// module is one process's side of the votes: the service, and the polls
// this process is sending.
type module struct {
	svc *vote.Service
	// sending counts the polls sent whose ids are not recorded yet.
	sending pendingPolls
}

// Module is the module of the groups' games against the AI by vote, over
// svc: /team and /vote, the vote buttons, the polls and their answers,
// and the vote's part of the card.
func Module(svc *vote.Service) bot.Module {
	m := &module{svc: svc}
	return bot.Module{
		Name:       "team",
		Taps:       map[string]bot.TapRoute{KindVote: {Scope: bot.InGroup, Handle: m.onVote}},
		Commands:   map[string]bot.CommandFunc{"team": m.cmdTeam, "vote": m.cmdVote},
		Menu:       []string{"team", "vote"},
		PollAnswer: m.onPollAnswer,
		Games: &bot.OwnedGames{
			Owns:      vote.Is,
			Caption:   teamLines,
			Keyboard:  teamKeyboard,
			FirstTurn: firstPoll,
			Turn:      m.teamPolls,
			EndNote:   teamSummary,
		},
		Records: map[string]bot.RecordFunc{pollRecord: m.recordPoll},
	}
}

// firstPoll reports whether g's first card is followed by its first poll:
// voted by poll, the chat moving first.
func firstPoll(g *play.Game) bool { return vote.ByPoll(g) && !g.IsAITurn() }
