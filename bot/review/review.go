// Package review is the Analyse button of a finished game's card: the
// game reviewed by the engine (package play/review), sent to the chat as
// the evaluation graph with the biggest mistakes, in the tapper's
// language.
package review

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/bashni/bashni/bot"
	"github.com/bashni/bashni/play"
	playreview "github.com/bashni/bashni/play/review"
	"github.com/bashni/bashni/render"
)

// chatReviewWait bounds how long a tap on Analyse waits for its review in
// the background: the queue may be long, and the tapper can ask again.
const chatReviewWait = 15 * time.Minute

// Module is the Analyse button (bot.KindAnalyse, which the core's card
// draws on a finished game), answered from reviews.
func Module(reviews *playreview.Service) bot.Module {
	return bot.Module{
		Name: "review",
		Taps: map[string]bot.TapRoute{
			bot.KindAnalyse: {Scope: bot.Anywhere, Handle: func(ctx context.Context, k *bot.Kit, t bot.Tap) error {
				return analyse(ctx, k, t, reviews)
			}},
		},
	}
}

// analyse reviews a finished game in the background (the engine pool
// lends an engine per position, so other games' AI moves go on) and sends
// the evaluation graph with the biggest mistakes, in the tapper's language.
func analyse(ctx context.Context, k *bot.Kit, t bot.Tap, reviews *playreview.Service) error {
	q, id, lang := t.Query, t.Data.ID, t.Lang
	if q.Message == nil {
		k.Toast(q, k.Texts().T(lang, "err_stale"))
		return nil
	}
	g, err := k.Service().Game(ctx, id)
	if err != nil {
		k.Toast(q, k.RefusalText(lang, err))
		return err
	}
	if g.Active() {
		k.Toast(q, k.RefusalText(lang, play.ErrGameNotOver))
		return nil
	}
	// Admitted to the review queue first, so the tapper reads their place
	// at once; the graph follows when the review is done.
	user := q.From.ID
	place, _, err := reviews.Request(ctx, id, user)
	if err != nil {
		k.Toast(q, k.RefusalText(lang, err))
		if k.Expected(err) {
			return nil
		}
		return err
	}
	if place > 1 {
		k.Toast(q, k.Texts().T(lang, "analysis_queued", "Place", place))
	} else {
		k.Toast(q, k.Texts().T(lang, "analysing"))
	}
	chat := q.Message.Chat
	k.Background(func(ctx context.Context) {
		ctx, cancel := context.WithTimeout(ctx, chatReviewWait)
		defer cancel()
		a, err := reviews.Analyse(ctx, id, user)
		if err != nil {
			refused(k, chat, lang, id, err)
			return
		}
		sendGraph(k, chat, lang, a)
	})
	return nil
}

// refused tells chat why the analysis of game id did not come: still
// queued, or refused.
func refused(k *bot.Kit, chat *tgbotapi.Chat, lang, id string, err error) {
	if queued, ok := errors.AsType[*playreview.QueuedError](err); ok {
		k.Text(chat, k.Texts().T(lang, "analysis_still_queued", "Place", queued.Place), 0)
		return
	}
	k.Text(chat, k.RefusalText(lang, err), 0)
	if !k.Expected(err) {
		k.Log().Warn("analysis failed", "game", id, "err", err)
	}
}

// sendGraph sends a's evaluation graph, its mistakes marked, with the
// caption that lists them.
func sendGraph(k *bot.Kit, chat *tgbotapi.Chat, lang string, a *playreview.Analysis) {
	marks := make([]int, 0, len(a.Mistakes))
	for _, m := range a.Mistakes {
		marks = append(marks, m.Ply)
	}
	png, err := render.GraphPNG(render.Graph{Scores: a.Review.Scores, Result: a.Game.Result(), Marks: marks})
	if err != nil {
		k.Log().Error("drawing the analysis", "game", a.Game.ID(), "err", err)
		return
	}
	photo := tgbotapi.NewPhoto(chat.ID, tgbotapi.FileBytes{Name: "analysis.png", Bytes: png})
	photo.Caption = caption(k, lang, a)
	k.Send(bot.ChatReply(chat, photo))
}

// caption names the game and lists its biggest mistakes, each with the
// move number, the loss in men and the engine's better move.
func caption(k *bot.Kit, lang string, a *playreview.Analysis) string {
	g, words := a.Game, k.Texts()
	lines := []string{words.T(lang, "analysis_caption",
		"White", words.PlayerName(lang, g.White()), "Black", words.PlayerName(lang, g.Black()), "Result", words.ResultLine(lang, g))}
	if len(a.Mistakes) == 0 {
		return lines[0] + "\n" + words.T(lang, "analysis_none")
	}
	lines = append(lines, words.T(lang, "analysis_mistakes"))
	for _, m := range a.Mistakes {
		lines = append(lines, words.T(lang, "analysis_line",
			"Number", m.Number(g.Rules().StartPosition()), "Move", m.Move.String(),
			"Loss", fmt.Sprintf("%.1f", float64(m.Loss)/100), "Best", m.Best.String()))
	}
	return strings.Join(lines, "\n")
}
