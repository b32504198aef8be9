package bot

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/bashni/bashni/play"
	"github.com/bashni/bashni/rules"
	"github.com/bashni/bashni/storage"
	"github.com/bashni/bashni/texts"
)

// Every ruleset has its name and its button in both languages (package
// texts checks that every text is in every language).
func TestEveryRulesetHasItsWords(t *testing.T) {
	tx := texts.New()
	for _, v := range rules.Variants {
		for _, id := range []string{"rules_name_" + v.String(), "btn_rules_" + v.String()} {
			for _, lang := range texts.Languages {
				if got := tx.T(lang, id); got == id {
					t.Errorf("ruleset %v has no %s text %s", v, lang, id)
				}
			}
		}
	}
}

func TestVariantWords(t *testing.T) {
	for word, want := range map[string]rules.Variant{"russian": rules.Russian, "Русские": rules.Russian, "mp": rules.BashniMP,
		"bashni-mp": rules.BashniMP, "bashni": rules.Bashni, "башни": rules.Bashni} {
		if got, ok := variantWord(word); !ok || got != want {
			t.Errorf("variantWord(%q) = %v, %v; want %v", word, got, ok, want)
		}
	}
	for _, word := range []string{"", "white", "5+3", "chess"} {
		if _, ok := variantWord(word); ok {
			t.Errorf("variantWord(%q) names a ruleset", word)
		}
	}
	for _, v := range rules.Variants {
		if got := variantOfCode(variantCode[v]); got != v {
			t.Errorf("ruleset %v's code reads back as %v", v, got)
		}
	}
}

// Every button of the AI menu and of a vote fits Telegram's 64 bytes.
func TestTogetherButtonsFit(t *testing.T) {
	b := New(context.Background(), nil, nil, discardSender{}, &optionsRecorder{}, Config{})
	for _, lang := range texts.Languages {
		kb := b.colorKeyboard(lang, 18, rules.BashniMP)
		for _, row := range kb.InlineKeyboard {
			for _, btn := range row {
				if _, err := ParseCallback(*btn.CallbackData); err != nil || len(*btn.CallbackData) > 64 {
					t.Errorf("button %q: %q: %v", btn.Text, *btn.CallbackData, err)
				}
			}
		}
	}
}

// A finished team game ends with who voted for the moves played, in the
// order play.Game.Voters gives.
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
	b := New(context.Background(), nil, nil, discardSender{}, &optionsRecorder{}, Config{})
	for lang, want := range map[string]string{"en": "Ann 1 of 1, Ben 0 of 1", "ru": "Ann 1 из 1, Ben 0 из 1"} {
		if got := b.teamSummary(lang, g, texts.MessageLimit); !strings.Contains(got, want) {
			t.Errorf("%s summary %q, want it to contain %q", lang, got, want)
		}
	}
	lines := strings.Join(b.teamLines("en", g, texts.CaptionLimit), "\n")
	if !strings.Contains(lines, "The chat played c3-d4: 1 of 2 votes (Ann)") || !strings.Contains(lines, "The chat's move") {
		t.Errorf("caption lines %q", lines)
	}
}

// A game voted by poll has no vote buttons and says to vote in the poll,
// in both languages, unless the move is forced: a poll needs two options,
// so the one legal move is a button.
func TestTeamPollCard(t *testing.T) {
	b := New(context.Background(), nil, nil, discardSender{}, &optionsRecorder{}, Config{})
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
	if kb := b.teamKeyboard(g); len(kb.InlineKeyboard) != 0 {
		t.Errorf("vote buttons on a game voted by poll: %v", kb.InlineKeyboard)
	}
	for lang, want := range map[string]string{"en": "vote in the poll below", "ru": "голосуйте в опросе ниже"} {
		if lines := strings.Join(b.teamLines(lang, g, texts.CaptionLimit), "\n"); !strings.Contains(lines, want) {
			t.Errorf("%s caption lines %q, want %q", lang, lines, want)
		}
	}
	forced := load("w:c3w,d4b,h8b") // c3xe5 is White's only move
	if n := len(forced.Rules().Legal()); n != 1 {
		t.Fatalf("the forced position has %d legal moves", n)
	}
	if kb := b.teamKeyboard(forced); len(kb.InlineKeyboard) != 1 || len(kb.InlineKeyboard[0]) != 1 {
		t.Errorf("a forced move voted by poll: keyboard %v, want its one button", kb.InlineKeyboard)
	}
}
