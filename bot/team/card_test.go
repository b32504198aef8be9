package team

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/bashni/bashni/play"
	"github.com/bashni/bashni/rules"
	"github.com/bashni/bashni/storage"
	"github.com/bashni/bashni/texts"
)

// A finished team game ends with who voted for the moves played, in the
// order play/team's Voters gives.
func TestTeamSummaryNamesTheVoters(t *testing.T) {
	ann, ben := storage.Ballot{UserID: 1, Name: "Ann"}, storage.Ballot{UserID: 2, Name: "Ben"}
	vote := func(b storage.Ballot, m string) storage.Ballot { b.Move = m; return b }
	rec := &storage.GameRecord{ID: "t1", White: play.Player{Name: "👥 Club"}, Black: play.Player{Name: "AI", AILevel: 1},
		Start: rules.StartText, Status: storage.GameActive, Moves: []string{"c3-d4", "f6-e5"},
		Team: &storage.TeamGame{Turns: []storage.TeamTurn{{Move: "c3-d4", For: []storage.Ballot{vote(ann, "c3-d4")}, Others: []storage.Ballot{vote(ben, "a3-b4")}}}}}
	g, err := play.LoadGame(rec)
	if err != nil {
		t.Fatal(err)
	}
	k := newKit(t)
	for lang, want := range map[string]string{"en": "Ann 1 of 1, Ben 0 of 1", "ru": "Ann 1 из 1, Ben 0 из 1"} {
		if got := teamSummary(k, g, lang, texts.MessageLimit); !strings.Contains(got, want) {
			t.Errorf("%s summary %q, want it to contain %q", lang, got, want)
		}
	}
	lines := strings.Join(teamLines(k, g, "en", texts.CaptionLimit), "\n")
	if !strings.Contains(lines, "The chat played c3-d4: 1 of 2 votes (Ann)") || !strings.Contains(lines, "The chat's move") {
		t.Errorf("caption lines %q", lines)
	}
}

// A game voted by poll has no vote buttons and says to vote in the poll,
// in both languages, unless the move is forced: a poll needs two options,
// so the one legal move is a button.
func TestTeamPollCard(t *testing.T) {
	k := newKit(t)
	load := func(start string) *play.Game {
		rec := &storage.GameRecord{ID: "t2", White: play.Player{Name: "👥 Club"}, Black: play.Player{Name: "AI", AILevel: 1},
			Start: start, Status: storage.GameActive, Team: &storage.TeamGame{Window: time.Minute, ByPoll: true}}
		g, err := play.LoadGame(rec)
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	g := load(rules.StartText)
	if kb := teamKeyboard(k, g, "en"); len(kb.InlineKeyboard) != 0 {
		t.Errorf("vote buttons on a game voted by poll: %v", kb.InlineKeyboard)
	}
	for lang, want := range map[string]string{"en": "vote in the poll below", "ru": "голосуйте в опросе ниже"} {
		if lines := strings.Join(teamLines(k, g, lang, texts.CaptionLimit), "\n"); !strings.Contains(lines, want) {
			t.Errorf("%s caption lines %q, want %q", lang, lines, want)
		}
	}
	forced := load("w:c3w,d4b,h8b") // c3xe5 is White's only move
	if n := len(forced.Rules().Legal()); n != 1 {
		t.Fatalf("the forced position has %d legal moves", n)
	}
	if kb := teamKeyboard(k, forced, "en"); len(kb.InlineKeyboard) != 1 || len(kb.InlineKeyboard[0]) != 1 {
		t.Errorf("a forced move voted by poll: keyboard %v, want its one button", kb.InlineKeyboard)
	}
}

// "1 of 1 vote", "1 из 1 голоса": the last vote's count is a plural.
func TestTeamLastVotePlural(t *testing.T) {
	k := newKit(t)
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
			if got := strings.Join(teamLines(k, g, lang, texts.CaptionLimit), "\n"); !strings.Contains(got, w) {
				t.Errorf("%s, %d votes: %q, want %q", lang, n, got, w)
			}
		}
	}
}

// worstName is the longest display name Telegram allows (a first and a
// last name of 64 characters each), of characters that count two UTF-16
// units or that HTML escapes.
func worstName(i int) string {
	return fmt.Sprintf("%03d", i) + strings.Repeat("😀", 61) + " " + strings.Repeat("&", 64)
}

// The card of a game by vote fits Telegram's caption at its worst: the
// longest chat title (128 characters), the last move chosen by 150
// members of the longest names, 150 ballots open, counted as Telegram
// counts (UTF-16 units); so does the summary.
func TestTeamCaptionAtItsWorstFits(t *testing.T) {
	k := newKit(t)
	now := time.Now()
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
		// The caption as the card shows it, and with the AI's "thinking"
		// line after it, the longest it gets.
		caption, _ := k.Card(g, lang)
		thinking := caption + "\n" + k.Texts().T(lang, "caption_thinking")
		for _, caption := range []string{caption, thinking} {
			if n := texts.TelegramLen(caption, ""); n > texts.CaptionLimit || !strings.Contains(caption, shortName(worstName(0))) {
				t.Errorf("%s team caption: %d units (limit %d), or the first voter left out:\n%s", lang, n, texts.CaptionLimit, caption)
			}
		}
		if n := texts.TelegramLen(teamSummary(k, g, lang, 1000), ""); n > 1000 {
			t.Errorf("%s team summary: %d units, budget 1000", lang, n)
		}
	}
}
