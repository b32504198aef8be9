package bot

import (
	"context"
	"regexp"
	"strings"
	"testing"
	"time"

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
		Players: []storage.TourPlayer{{UserID: 1, Name: "Ann <3", Results: "WWW", Game: "g"}, {UserID: 2, Name: "Ben", Results: "LD", Paused: true}},
		Games:   []storage.TourGame{{ID: "a", White: 1, Black: 2, Result: "1-0"}, {ID: "b", White: 2, Black: 1, Result: "0-1"}, {ID: "c", White: 1, Black: 2, Result: "1/2-1/2"}},
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
		for _, want := range []string{"🥇 Ann &lt;3 — 8", "🥈 Ben — 1", "+Ben, +Ben, ½Ben", "−Ann &lt;3, −Ann &lt;3, ½Ann &lt;3"} {
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
