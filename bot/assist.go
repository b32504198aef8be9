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

// cmdHint sends the engine's move for the user's game against the AI as a
// board with the move drawn on it. The search runs in the background.
func (b *Bot) cmdHint(ctx context.Context, msg *tgbotapi.Message, lang string) error {
	g, err := b.gameForCommand(ctx, msg, lang)
	if err != nil || g == nil {
		return err
	}
	chat, from, replyTo := msg.Chat, msg.From.ID, msg.MessageID
	b.send(chatReply(chat, tgbotapi.NewChatAction(chat.ID, tgbotapi.ChatTyping)))
	b.background(func(ctx context.Context) {
		h, err := b.svc.Hint(ctx, g.ID(), from, play.AnyPly)
		if err != nil {
			b.settledOnTime(ctx, err)
			b.text(chat, b.texts.Error(lang, err, false), replyTo)
			if !expected(err) {
				b.log.Warn("hint failed", "game", g.ID(), "err", err)
			}
			return
		}
		// The hint is drawn as the picker draws a choice (the tower picked,
		// a marker where it lands), not in the last move's colours: the
		// board shows the opponent's last move too, and the two must not
		// be mistaken for each other.
		start := h.Move.From()
		o := render.Options{Selected: &start}
		for i := range h.Move.Len() {
			o.Targets = append(o.Targets, h.Move.Landing(i))
		}
		if last, ok := h.Game.LastMove(); ok {
			o.LastMove = &last
		}
		if c, ok := h.Game.ColorOf(from); ok {
			o.Perspective = c
		}
		png, err := b.render.PNG(h.Game.Position(), o)
		if err != nil {
			b.log.Error("drawing the hint", "game", g.ID(), "err", err)
			return
		}
		photo := tgbotapi.NewPhoto(chat.ID, tgbotapi.FileBytes{Name: "hint.png", Bytes: png})
		photo.Caption = b.texts.T(lang, "hint_caption", "Move", h.Move.String()) + "\n" + b.texts.N(lang, "hints_left", h.Left)
		// Not a reply: tgbotapi's photo upload knows only the reply
		// parameters the spec no longer lists (see outMessage), and the
		// caption names the move.
		b.send(chatReply(chat, photo))
	})
	return nil
}

// cmdTakeback undoes the user's last full move against the AI and redraws
// the card.
func (b *Bot) cmdTakeback(ctx context.Context, msg *tgbotapi.Message, lang string) error {
	g, err := b.gameForCommand(ctx, msg, lang)
	if err != nil || g == nil {
		return err
	}
	out, err := b.svc.Takeback(ctx, g.ID(), msg.From.ID, play.AnyPly)
	if err != nil {
		b.text(msg.Chat, b.texts.Error(lang, err, false), msg.MessageID)
		return err
	}
	b.editCard(out.Game, cardView{lang: cardLang(out.Game)}, "", nil)
	b.text(msg.Chat, b.texts.T(lang, "takeback_done", "Left", play.TakebacksPerGame-out.Game.Takebacks()), msg.MessageID)
	return nil
}

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
func (b *Bot) onAnalyse(ctx context.Context, q *tgbotapi.CallbackQuery, id, lang string) error {
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
