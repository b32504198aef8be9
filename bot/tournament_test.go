package bot

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/bashni/bashni/texts"

	"github.com/bashni/bashni/internal/testkit"
	"github.com/bashni/bashni/play"
	"github.com/bashni/bashni/rules"
	"github.com/bashni/bashni/storage"
)

// worstName is the longest display name Telegram allows (a first and a
// last name of 64 characters each), of characters that count two UTF-16
// units or that HTML escapes.
func worstName(i int) string {
	return fmt.Sprintf("%03d", i) + strings.Repeat("😀", 61) + " " + strings.Repeat("&", 64)
}

// Every team caption fits Telegram's limits at its worst: the most
// voters of the longest names, counted as Telegram counts (UTF-16 units
// after the HTML); the tournament's texts are bot/tournament's.
func TestTextsAtTheirWorstFit(t *testing.T) {
	clock := testkit.NewClock(time.Now())
	svc := play.New(nil, nil, play.DefaultConfig, clock.Now)
	b := New(context.Background(), svc, nil, discardSender{}, &optionsRecorder{}, Config{Username: strings.Repeat("b", 32)})
	now := clock.Now()

	// A team game: the longest chat title (128 characters), the last move
	// chosen by 150 members of the longest names, 150 ballots open.
	title := teamChatName(strings.Repeat("😀", 128))
	var last, open []storage.Ballot
	for i := range 150 {
		last = append(last, storage.Ballot{UserID: int64(i + 1), Name: worstName(i), Move: "c3-d4"})
		open = append(open, storage.Ballot{UserID: int64(i + 1), Name: worstName(i), Move: []string{"c3-d4", "a3-b4", "g3-h4", "e3-f4", "c3-b4"}[i%5]})
	}
	rec := &storage.GameRecord{ID: "t1", White: play.Player{Name: title}, Black: play.Player{Name: "AI", AILevel: 18},
		Start: rules.StartText, Status: storage.GameActive, Moves: []string{"c3-d4", "f6-e5"},
		Team: &storage.TeamGame{Window: time.Minute, Ply: 2, Ballots: open, ClosesAt: now.Add(time.Minute),
			Turns: []storage.TeamTurn{{Move: "c3-d4", For: last, Others: last[:40]}}}}
	g, err := play.LoadGame(rec)
	if err != nil {
		t.Fatal(err)
	}
	for _, lang := range []string{"en", "ru"} {
		for _, v := range []cardView{{lang: lang}, {lang: lang, thinking: true}} {
			caption := b.caption(g, v)
			if n := texts.TelegramLen(caption, ""); n > texts.CaptionLimit || !strings.Contains(caption, shortName(worstName(0))) {
				t.Errorf("%s team caption (thinking %v): %d units (limit %d), or the first voter left out:\n%s", lang, v.thinking, n, texts.CaptionLimit, caption)
			}
		}
		if n := texts.TelegramLen(b.teamSummary(lang, g, 1000), ""); n > 1000 {
			t.Errorf("%s team summary: %d units, budget 1000", lang, n)
		}
	}
}

// "1 of 1 vote", "1 из 1 голоса": the last vote's count is a plural.
func TestTeamLastVotePlural(t *testing.T) {
	b := New(context.Background(), nil, nil, discardSender{}, &optionsRecorder{}, Config{})
	ann := storage.Ballot{UserID: 1, Name: "Ann", Move: "c3-d4"}
	for n, want := range map[int]map[string]string{
		1: {"en": "1 of 1 vote (Ann)", "ru": "1 из 1 голоса (Ann)"},
		5: {"en": "1 of 5 votes (Ann)", "ru": "1 из 5 голосов (Ann)"},
	} {
		others := make([]storage.Ballot, n-1)
		for i := range others {
			others[i] = storage.Ballot{UserID: int64(i + 2), Name: "X", Move: "a3-b4"}
		}
		rec := &storage.GameRecord{ID: "t1", White: play.Player{Name: "👥 Club"}, Black: play.Player{Name: "AI", AILevel: 1},
			Start: rules.StartText, Status: storage.GameActive, Moves: []string{"c3-d4", "f6-e5"},
			Team: &storage.TeamGame{Turns: []storage.TeamTurn{{Move: "c3-d4", For: []storage.Ballot{ann}, Others: others}}}}
		g, err := play.LoadGame(rec)
		if err != nil {
			t.Fatal(err)
		}
		for lang, w := range want {
			if got := strings.Join(b.teamLines(lang, g, texts.CaptionLimit), "\n"); !strings.Contains(got, w) {
				t.Errorf("%s, %d votes: %q, want %q", lang, n, got, w)
			}
		}
	}
}
