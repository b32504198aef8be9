package bot

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/bashni/bashni/play"
	"github.com/bashni/bashni/render"
)

// The engine working for players: /hint and /takeback in games against the
// AI, and the Analyse button of a finished game's card.

// analyseButton is the finished card's Analyse button.
func (b *Bot) analyseButton(lang, id string) tgbotapi.InlineKeyboardButton {
	return tgbotapi.NewInlineKeyboardButtonData(b.texts.T(lang, "btn_analyse"), Callback{Kind: KindAnalyse, ID: id, Ply: -1}.Encode())
}

// chatReviewWait bounds how long a tap on Analyse waits for its review in
// the background: the queue may be long, and the tapper can ask again.
const chatReviewWait = 15 * time.Minute

// onAnalyse reviews a finished game in the background (the engine pool
// lends an engine per position, so other games' AI moves go on) and sends
// the evaluation graph with the biggest mistakes, in the tapper's language.
func (b *Bot) onAnalyse(ctx context.Context, t tap) error {
	q, id, lang := t.q, t.cb.ID, t.lang
	if q.Message == nil {
		b.toast(q, b.texts.T(lang, "err_stale"))
		return nil
	}
	g, err := b.svc.Game(ctx, id)
	if err != nil {
		b.toast(q, b.texts.Error(lang, err, false))
		return err
	}
	if g.Active() {
		b.toast(q, b.texts.Error(lang, play.ErrGameNotOver, false))
		return nil
	}
	// Admitted to the review queue first, so the tapper reads their place
	// at once; the graph follows when the review is done.
	user := q.From.ID
	place, _, err := b.svc.RequestReview(ctx, id, user)
	if err != nil {
		b.toast(q, b.texts.Error(lang, err, false))
		if expected(err) {
			return nil
		}
		return err
	}
	if place > 1 {
		b.toast(q, b.texts.T(lang, "analysis_queued", "Place", place))
	} else {
		b.toast(q, b.texts.T(lang, "analysing"))
	}
	chat := q.Message.Chat
	b.background(func(ctx context.Context) {
		ctx, cancel := context.WithTimeout(ctx, chatReviewWait)
		defer cancel()
		a, err := b.svc.Analyse(ctx, id, user)
		var queued *play.QueuedError
		if errors.As(err, &queued) {
			b.text(chat, b.texts.T(lang, "analysis_still_queued", "Place", queued.Place), 0)
			return
		}
		if err != nil {
			b.text(chat, b.texts.Error(lang, err, false), 0)
			if !expected(err) {
				b.log.Warn("analysis failed", "game", id, "err", err)
			}
			return
		}
		marks := make([]int, 0, len(a.Mistakes))
		for _, m := range a.Mistakes {
			marks = append(marks, m.Ply)
		}
		png, err := render.GraphPNG(render.Graph{Scores: a.Review.Scores, Result: a.Game.Result(), Marks: marks})
		if err != nil {
			b.log.Error("drawing the analysis", "game", id, "err", err)
			return
		}
		photo := tgbotapi.NewPhoto(chat.ID, tgbotapi.FileBytes{Name: "analysis.png", Bytes: png})
		photo.Caption = b.analysisCaption(lang, a)
		b.send(chatReply(chat, photo))
	})
	return nil
}

// analysisCaption names the game and lists its biggest mistakes, each with
// the move number, the loss in men and the engine's better move.
func (b *Bot) analysisCaption(lang string, a *play.Analysis) string {
	g := a.Game
	lines := []string{b.texts.T(lang, "analysis_caption",
		"White", b.texts.PlayerName(lang, g.White()), "Black", b.texts.PlayerName(lang, g.Black()), "Result", b.texts.ResultLine(lang, g))}
	if len(a.Mistakes) == 0 {
		return lines[0] + "\n" + b.texts.T(lang, "analysis_none")
	}
	lines = append(lines, b.texts.T(lang, "analysis_mistakes"))
	for _, m := range a.Mistakes {
		lines = append(lines, b.texts.T(lang, "analysis_line",
			"Number", m.Number(g.Rules().StartPosition()), "Move", m.Move.String(),
			"Loss", fmt.Sprintf("%.1f", float64(m.Loss)/100), "Best", m.Best.String()))
	}
	return strings.Join(lines, "\n")
}
