package versus

import (
	"context"

	"github.com/bashni/bashni/bot"
	"github.com/bashni/bashni/play"
	"github.com/bashni/bashni/play/versus"
)

// KindAccept is a button of a challenge's offer: ID the challenge's
// code, Arg the ruleset's and the pace's indexes ("0.1").
const KindAccept = "va"

// startPrefix leads a /start link's payload to a challenge.
const startPrefix = "vs"

type module struct {
	svc *versus.Service
}

// Module is the module of the matches between groups, over svc.
func Module(svc *versus.Service) bot.Module {
	m := &module{svc: svc}
	return bot.Module{
		Name:      "versus",
		Taps:      map[string]bot.TapRoute{KindAccept: {Scope: bot.InGroup, Handle: m.onAccept}},
		Commands:  map[string]bot.CommandFunc{"versus": m.cmdVersus},
		Starts:    map[string]bot.CommandFunc{startPrefix: m.onStart},
		Menu:      []string{"versus"},
		GameEnded: m.gameEnded,
	}
}

// gameEnded counts a finished match in both groups' records. The count is
// marked in each record, so a game shown ended again (by a process that
// took over) is not counted twice.
func (m *module) gameEnded(ctx context.Context, k *bot.Kit, g *play.Game) {
	if !versus.Is(g) {
		return
	}
	if err := m.svc.GameOver(ctx, g); err != nil {
		k.Log().Warn("a match between groups not counted", "game", g.ID(), "err", err)
	}
}
