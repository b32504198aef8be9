package main

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/bashni/bashni/internal/telegramtest"
)

// playTyped plays moves in a group game by typed commands, White and Black
// in turn from white, waiting for the card to show each one.
func playTyped(t *testing.T, srv *telegramtest.Server, group tgbotapi.Chat, cardID int, white, black user, moves ...string) telegramtest.Msg {
	t.Helper()
	var m telegramtest.Msg
	for i, mv := range moves {
		mover := white
		if i%2 == 1 {
			mover = black
		}
		say(srv, group, mover, "/m "+mv)
		m = waitMessage(t, srv, group.ID, "the card showing "+mv, func(m telegramtest.Msg) bool {
			return m.ID == cardID && strings.HasSuffix(lastLine(m.Text), " "+mv)
		})
	}
	return m
}

// Each ruleset is chosen by a word after /challenge and played to a capture
// only it allows: in Russian draughts Black's f6:d4 crosses d4, emptied when
// White took the man there (in Bashni a tower would stand on d4); in the
// other school Black's man, crowned on a1, flies back over the b2 it has
// just emptied and takes d4 (in Bashni the jumped b2 still blocks).
func TestE2ERulesetsPlayTheirOwnCaptures(t *testing.T) {
	srv := telegramtest.New(t)
	startBot(t, srv, nil)
	tests := []struct {
		name    string
		word    string
		rules   string
		group   int64
		moves   []string
		capture string
	}{
		{"russian", "russian", "Rules: Russian draughts", -1003000000001,
			[]string{"a3-b4", "h6-g5", "b4-c5", "b6:d4", "c3:e5"}, "f6:d4"},
		{"other school", "mp", "Rules: Bashni, the other school", -1003000000002,
			[]string{"a3-b4", "b6-c5", "b2-a3", "a7-b6", "a1-b2", "b6-a5", "c3-d4"}, "a5:c3:a1:e5"},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			group := telegramtest.GroupChat(tt.group, "Club")
			alice, bob := newUser(int64(3100+10*i), "Alice", "en"), newUser(int64(3101+10*i), "Bob", "en")
			say(srv, group, alice, "/challenge white "+tt.word)
			ch := waitMessage(t, srv, group.ID, "challenge", func(m telegramtest.Msg) bool { return m.FromBot && len(buttons(m)) > 0 })
			if !strings.Contains(ch.Text, tt.rules) {
				t.Errorf("the challenge does not say %q:\n%s", tt.rules, ch.Text)
			}
			tap(t, srv, group, bob, ch.ID, buttons(ch)[0][1])
			c := waitMessage(t, srv, group.ID, "board card", func(m telegramtest.Msg) bool { return m.Kind == "photo" })
			if !strings.Contains(c.Text, tt.rules) {
				t.Errorf("the card does not say %q:\n%s", tt.rules, c.Text)
			}
			moves := append(tt.moves, tt.capture)
			white, black := alice, bob
			last := playTyped(t, srv, group, c.ID, white, black, moves...)
			if !strings.Contains(last.Text, tt.rules) {
				t.Errorf("the card no longer says %q:\n%s", tt.rules, last.Text)
			}
			// The move list follows the same rules.
			say(srv, group, alice, "/moves")
			waitMessage(t, srv, group.ID, "the move list", func(m telegramtest.Msg) bool {
				return m.FromBot && m.ID > c.ID && strings.Contains(m.Text, tt.capture)
			})
		})
	}
}

// The AI menu offers the rulesets under the colours; the game starts under
// the one ticked, and the engine answers by its rules.
func TestE2EAIMenuChoosesTheRules(t *testing.T) {
	srv := telegramtest.New(t)
	startBot(t, srv, nil)
	alice := newUser(3201, "Alice", "en")
	say(srv, alice.chat, alice, "/play 1")
	q := waitMessage(t, srv, alice.chat.ID, "colour question", func(m telegramtest.Msg) bool { return m.FromBot && len(buttons(m)) > 3 })
	var russian string
	for _, b := range buttons(q) {
		if b[0] == "Russian draughts" {
			russian = b[1]
		}
	}
	if russian == "" {
		t.Fatalf("no Russian draughts button under the colours: %v", buttons(q))
	}
	tap(t, srv, alice.chat, alice, q.ID, russian)
	q = waitMessage(t, srv, alice.chat.ID, "the question under Russian rules", func(m telegramtest.Msg) bool {
		return m.ID == q.ID && strings.Contains(m.Text, "Rules: Russian draughts")
	})
	var white string
	for _, b := range buttons(q) {
		if strings.HasPrefix(b[1], "c|") && strings.HasSuffix(b[1], "|white") {
			white = b[1]
		}
	}
	tap(t, srv, alice.chat, alice, q.ID, white)
	c := waitMessage(t, srv, alice.chat.ID, "board card", func(m telegramtest.Msg) bool { return m.Kind == "photo" })
	if !strings.Contains(c.Text, "Rules: Russian draughts") {
		t.Errorf("the card does not say the rules:\n%s", c.Text)
	}
	// White's c3-d4 offers f6-e5's exchange; whatever the engine answers is
	// shown on the card under the same rules.
	say(srv, alice.chat, alice, "c3-d4")
	waitMessage(t, srv, alice.chat.ID, "the engine's answer", func(m telegramtest.Msg) bool {
		return m.ID == c.ID && strings.Count(lastLine(m.Text), "-")+strings.Count(lastLine(m.Text), ":") >= 2 && strings.Contains(m.Text, "Rules: Russian draughts")
	})
}

// Inline mode: "@bot russian" offers Russian draughts.
func TestE2EInlineOffersTheRulesAsked(t *testing.T) {
	srv := telegramtest.New(t)
	startBot(t, srv, nil)
	alice := newUser(3301, "Alice", "en")
	q := srv.InlineQuery(alice.u, "russian")
	srv.PushUpdate(q)
	var results []json.RawMessage
	srv.WaitUntil(10*time.Second, func() bool {
		var ok bool
		results, ok = srv.InlineAnswer(q.InlineQuery.ID)
		return ok
	})
	if len(results) != 3 {
		t.Fatalf("inline answer has %d results, want 3", len(results))
	}
	for _, r := range results {
		var res struct {
			Title       string `json:"title"`
			Message     string `json:"message_text"`
			Caption     string `json:"caption"`
			InputSource struct {
				Text string `json:"message_text"`
			} `json:"input_message_content"`
		}
		json.Unmarshal(r, &res)
		text := res.Caption + res.InputSource.Text + res.Message
		if !strings.Contains(res.Title, "Russian draughts") || !strings.Contains(text, "Rules: Russian draughts") {
			t.Errorf("an offer does not say Russian draughts: %s", r)
		}
	}
}
