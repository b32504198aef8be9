package bot

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/bashni/bashni/texts"

	"github.com/bashni/bashni/internal/testkit"
	"github.com/bashni/bashni/play"
	"github.com/bashni/bashni/storage"
)

// The group's card and the final standings read in both languages, show
// the streak, and every button and the Join link fit Telegram's limits.
func TestTourCardAndLinkFit(t *testing.T) {
	clock := testkit.NewClock(time.Now())
	svc := play.New(nil, nil, play.DefaultConfig, clock.Now)
	b := New(context.Background(), svc, nil, discardSender{}, &optionsRecorder{}, Config{Username: "bashni_draughts_bot"})
	now := clock.Now()
	tr := &play.Tournament{Tournament: storage.Tournament{ID: "abcdefghij", ChatID: -1001234567890123, TimeControl: "15+10",
		StartedAt: now, EndsAt: now.Add(3 * time.Hour), Status: play.TournamentRunning,
		Players: []storage.TourPlayer{{UserID: 1, Name: "Ann <3", Results: "WWW", Opps: []int64{2, 2, 2}, Game: "g"},
			{UserID: 2, Name: "Ben", Results: "LD", Opps: []int64{1, 1}, Paused: true}},
	}}
	for _, lang := range []string{"en", "ru"} {
		tr.Lang = lang
		text, kb := b.tourCard(tr)
		for _, want := range []string{"15+10", "180", "1. Ann &lt;3 — <b>8</b> · 2 2 4 🔥 ⚔️", "2. Ben — <b>1</b> · 0 1 ⏸", "@bashni_draughts_bot"} {
			if !strings.Contains(text, want) {
				t.Errorf("%s card lacks %q:\n%s", lang, want, text)
			}
		}
		if len(kb.InlineKeyboard) != 2 {
			t.Errorf("%s card has %d rows of buttons, want 2 (Join/Leave, Pause)", lang, len(kb.InlineKeyboard))
		}
		for _, row := range kb.InlineKeyboard {
			for _, btn := range row {
				if _, err := ParseCallback(*btn.CallbackData); err != nil || len(*btn.CallbackData) > maxCallbackData {
					t.Errorf("button %q: %q: %v", btn.Text, *btn.CallbackData, err)
				}
			}
		}
		final := b.tourFinal(tr)
		for _, want := range []string{"🥇 Ann &lt;3 — 8", "🥈 Ben — 1", "+Ben, +Ben, +Ben", "−Ann &lt;3, ½Ann &lt;3"} {
			if !strings.Contains(final, want) {
				t.Errorf("%s final lacks %q:\n%s", lang, want, final)
			}
		}
	}
	// A /start payload is 1-64 characters of A-Z a-z 0-9 _ -.
	link := b.tourJoinLink(tr.ChatID, tr.ID)
	payload, ok := strings.CutPrefix(link, "https://t.me/bashni_draughts_bot?start=")
	if !ok || !regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`).MatchString(payload) {
		t.Errorf("Join link %q: its payload does not fit a /start", link)
	}
}

// worstName is the longest display name Telegram allows (a first and a
// last name of 64 characters each), of characters that count two UTF-16
// units or that HTML escapes.
func worstName(i int) string {
	return fmt.Sprintf("%03d", i) + strings.Repeat("😀", 61) + " " + strings.Repeat("&", 64)
}

// Every tournament text fits Telegram's limits at its worst: the most
// players of the longest names with full sheets, counted as Telegram
// counts (UTF-16 units after the HTML).
func TestTextsAtTheirWorstFit(t *testing.T) {
	clock := testkit.NewClock(time.Now())
	svc := play.New(nil, nil, play.DefaultConfig, clock.Now)
	b := New(context.Background(), svc, nil, discardSender{}, &optionsRecorder{}, Config{Username: strings.Repeat("b", 32)})
	now := clock.Now()
	for _, size := range []struct{ players, games int }{{40, 30}, {16, 13}, {200, 30}, {3, 0}} {
		tr := &play.Tournament{Tournament: storage.Tournament{ID: "abcdefghij", ChatID: -1001234567890123, TimeControl: "15+10",
			StartedAt: now, EndsAt: now.Add(3 * time.Hour), Status: play.TournamentRunning}}
		for i := range size.players {
			p := storage.TourPlayer{UserID: int64(i + 1), Name: worstName(i), Game: "g", Carry: storage.TourCarry{Games: 100, Points: 300}}
			for j := range size.games {
				p.Results += "W"
				p.Opps = append(p.Opps, int64((i+j+1)%size.players+1))
			}
			tr.Players = append(tr.Players, p)
		}
		for _, lang := range []string{"en", "ru"} {
			tr.Lang = lang
			card, _ := b.tourCard(tr)
			final := b.tourFinal(tr)
			for name, text := range map[string]string{"card": card, "final": final} {
				if n := texts.TelegramLen(text, "HTML"); n > texts.MessageLimit || !strings.Contains(text, htmlName(worstName(0))) {
					t.Errorf("%d players, %d games, %s %s: %d units (limit %d), or the leader left out", size.players, size.games, lang, name, n, texts.MessageLimit)
				}
			}
		}
	}
}
