package bot

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/bashni/bashni/bot/telegram/outbox"
	"github.com/bashni/bashni/internal/testkit"
	"github.com/bashni/bashni/play"
	"github.com/bashni/bashni/storage/bolt"
	"github.com/bashni/bashni/texts"
)

// recordingSender keeps every reply enqueued.
type recordingSender struct {
	mu      sync.Mutex
	replies []outbox.Reply
}

func (r *recordingSender) Enqueue(rp outbox.Reply) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.replies = append(r.replies, rp)
	return nil
}

// longestName is the longest name Telegram allows (first_name 64 and
// last_name 64), of characters that count two UTF-16 units each.
var longestName = strings.Repeat("😀", 64) + " " + strings.Repeat("🎲", 64)

// checkFits checks one text the bot composes against Telegram's limit.
func checkFits(t *testing.T, what, text, mode string, limit int) {
	t.Helper()
	if n := texts.TelegramLen(text, mode); n > limit {
		t.Errorf("%s: %d characters as Telegram counts them; the limit is %d", what, n, limit)
	}
}

// checkReply checks a reply's text or caption and its buttons.
func checkReply(t *testing.T, what string, req tgbotapi.Chattable) {
	t.Helper()
	var kb *tgbotapi.InlineKeyboardMarkup
	switch r := req.(type) {
	case tgbotapi.MessageConfig:
		checkFits(t, what+" (message)", r.Text, r.ParseMode, texts.MessageLimit)
		kb, _ = r.ReplyMarkup.(*tgbotapi.InlineKeyboardMarkup)
	case tgbotapi.PhotoConfig:
		checkFits(t, what+" (photo caption)", r.Caption, r.ParseMode, texts.CaptionLimit)
		kb, _ = r.ReplyMarkup.(*tgbotapi.InlineKeyboardMarkup)
	case tgbotapi.DocumentConfig:
		checkFits(t, what+" (document caption)", r.Caption, r.ParseMode, texts.CaptionLimit)
	case tgbotapi.EditMessageTextConfig:
		checkFits(t, what+" (edited text)", r.Text, r.ParseMode, texts.MessageLimit)
		kb = r.ReplyMarkup
	case tgbotapi.EditMessageCaptionConfig:
		checkFits(t, what+" (edited caption)", r.Caption, r.ParseMode, texts.CaptionLimit)
		kb = r.ReplyMarkup
	}
	if kb == nil {
		return
	}
	n := 0
	for _, row := range kb.InlineKeyboard {
		if len(row) > 8 {
			t.Errorf("%s: a row of %d buttons; at most 8", what, len(row))
		}
		for _, b := range row {
			n++
			if b.CallbackData != nil && (len(*b.CallbackData) == 0 || len(*b.CallbackData) > 64) {
				t.Errorf("%s: callback data %q is %d bytes; 1 to 64", what, *b.CallbackData, len(*b.CallbackData))
			}
		}
	}
	if n > 100 {
		t.Errorf("%s: %d buttons; at most 100", what, n)
	}
}

// Every text composed for a game at its worst (the longest names Telegram
// allows, the most moves a game can have) fits Telegram's limits: the
// card's caption at every ply, the end-of-game message, the result.
func TestComposedTextsFitTelegramsLimits(t *testing.T) {
	clock := testkit.NewClock(time.Now())
	st, err := bolt.Open(filepath.Join(t.TempDir(), "b.db"), clock.Now)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ctx := context.Background()
	svc := play.New(st, nil, play.DefaultConfig, clock.Now)
	rec := &recordingSender{}
	b := New(ctx, svc, nil, rec, &optionsRecorder{}, Config{})
	white := play.Player{UserID: 1, Name: longestName}
	black := play.Player{UserID: 2, Name: longestName}
	c, err := svc.Challenge(ctx, play.ChallengeRequest{ChatID: -100, From: white, Color: play.ColorWhite})
	if err != nil {
		t.Fatal(err)
	}
	g, err := svc.Accept(ctx, c.ID, black, "")
	if err != nil {
		t.Fatal(err)
	}
	// The longest game: random moves, which rarely capture, until the
	// board ends it or 400 plies.
	rnd := rand.New(rand.NewPCG(38, 38))
	for g.Active() && g.Ply() < 400 {
		for _, lang := range []string{"en", "ru"} {
			checkFits(t, "card caption", b.caption(g, cardView{lang: lang}), "", texts.CaptionLimit)
		}
		pos := g.Position()
		legal := pos.Legal()
		_, p := g.ToMove()
		out, err := svc.Move(ctx, g.ID(), p.UserID, play.AnyPly, legal[rnd.IntN(len(legal))].String())
		if err != nil {
			t.Fatal(err)
		}
		g = out.Game
	}
	if g.Active() {
		out, err := svc.Resign(ctx, g.ID(), black.UserID)
		if err != nil {
			t.Fatal(err)
		}
		g = out.Game
	}
	t.Logf("the game: %d plies, %s by %s", g.Ply(), g.Result(), g.Reason())
	for _, lang := range []string{"en", "ru"} {
		checkFits(t, "final card caption", b.caption(g, cardView{lang: lang}), "", texts.CaptionLimit)
	}
	// The end-of-game message of the longest game: a record of 1,000
	// full moves (the draw rules bound a game, not that tightly).
	var long []string
	for i := 1; i <= 1000; i++ {
		long = append(long, fmt.Sprintf("%d. c3:e5:c7:a5 f6:d4:b2:d4", i))
	}
	for _, lang := range []string{"en", "ru"} {
		text := b.gameOverText(lang, g, strings.Join(long, " "))
		checkFits(t, "end-of-game message of 1,000 moves", text, "", texts.MessageLimit)
		if !strings.Contains(text, "1. c3:e5") || !strings.Contains(text, "…") {
			t.Errorf("the long record's message %q…; want its first moves and the rest counted", text[:80])
		}
	}
	b.showGameOver(ctx, g)
	rec.mu.Lock()
	defer rec.mu.Unlock()
	for _, r := range rec.replies {
		if r.Req != nil {
			checkReply(t, "game over", r.Req)
		}
	}
}
