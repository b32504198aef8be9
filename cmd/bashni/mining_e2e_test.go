package main

import (
	"bytes"
	"context"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/bashni/bashni/internal/telegramtest"
	"github.com/bashni/bashni/internal/testkit"
	"github.com/bashni/bashni/rules"
	"github.com/bashni/bashni/storage/redis/redistest"
)

// minedGame is a game from the start that passes through a tactic: after
// its seventh move Black's e5-d4 wins, and no other move does
// (play/mining's ShortGame).
var minedGame = strings.Fields("g3-h4 b6-a5 a3-b4 h6-g5 c3-d4 a5:c3:e5 b2-a3 e5-d4")

// mine runs `bashni puzzles -mine` over the bot's store, on the bot's
// clock, and returns what it printed.
func mine(t *testing.T, env map[string]string, clock *testkit.Clock, flags ...string) string {
	t.Helper()
	var out, errs bytes.Buffer
	err := runAt(context.Background(), append([]string{"puzzles", "-mine", "-nice", "0"}, flags...), environ(env), strings.NewReader(""), &out, &errs, clock.Now)
	if err != nil {
		t.Fatalf("bashni puzzles -mine: %v\n%s", err, errs.String())
	}
	return out.String()
}

// A game played here whose tactic becomes a puzzle: Alice and Bob play a
// rated game in a group that passes through a position where one move
// wins, and Alice resigns; the miner, run as an operator schedules it,
// keeps the puzzle; each player is told once, in private, with a button
// that opens it and one that shares its link; the link opens it (the
// pool /puzzle draws from has it) with the game it came from, and it is
// solved there. A second run finds nothing new. In English and Russian.
func TestE2EAGamePlayedHereBecomesAPuzzle(t *testing.T) {
	for _, tc := range []struct{ lang, notice, origin, solved string }{
		{"en", "became a puzzle", "From a game played here: Alice – Bob", "Solved"},
		{"ru", "получилась задача", "Из партии, сыгранной здесь: Alice – Bob", "Решено"},
	} {
		t.Run(tc.lang, func(t *testing.T) {
			rds := redistest.Start(t)
			clock := testkit.NewClock(time.Now())
			srv := telegramtest.New(t)
			env := map[string]string{"REDIS_URL": rds.URL(), "BASHNI_CLOCK_INTERVAL": "20ms", "BASHNI_LOG_LEVEL": "info"}
			p := spawnClocked(t, srv, env, clock)
			t.Cleanup(func() {
				if t.Failed() {
					t.Logf("bot logs:\n%s", p.logs)
				}
			})
			group := telegramtest.GroupChat(-1005555555701, "Club")
			alice, bob := newUser(9501, "Alice", tc.lang), newUser(9502, "Bob", tc.lang)
			for _, u := range []user{alice, bob} {
				say(srv, u.chat, u, "/start") // each can be written to in private
				newMessage(t, srv, u.chat.ID, 0, "the greeting", func(telegramtest.Msg) bool { return true })
			}

			c := startGroupGame(t, srv, group, alice, bob)
			for i, mv := range minedGame {
				who := alice
				if i%2 == 1 {
					who = bob
				}
				say(srv, group, who, "/m "+mv)
				waitMessage(t, srv, group.ID, "the card after "+mv, func(m telegramtest.Msg) bool { return m.ID == c.ID && strings.Contains(m.Text, mv) })
			}
			resign(t, srv, group, alice)
			waitMessage(t, srv, group.ID, "the game's end", func(m telegramtest.Msg) bool { return m.ID == c.ID && gameOver(m) })

			// The miner runs once the game has settled.
			clock.Advance(3 * time.Minute)
			full := withDefaults(t, srv, env)
			if out := mine(t, full, clock); !strings.Contains(out, "1 games gone through (1 mined)") || !strings.Contains(out, "1 kept") {
				t.Fatalf("the miner says %q: want the game mined and its puzzle kept", out)
			}

			// Each player is told, with a link to the puzzle and a share
			// button.
			isNotice := func(m telegramtest.Msg) bool { return m.FromBot && strings.Contains(m.Text, tc.notice) }
			var solve, share string
			n := waitMessage(t, srv, alice.chat.ID, "Alice's notice", isNotice)
			if !strings.Contains(n.Text, "Alice – Bob") || n.ReplyMarkup == nil || len(n.ReplyMarkup.InlineKeyboard) != 1 {
				t.Fatalf("notice %q with %+v: want the game named and one puzzle's row", n.Text, n.ReplyMarkup)
			}
			row := n.ReplyMarkup.InlineKeyboard[0]
			if len(row) == 2 && row[0].URL != nil && row[1].URL != nil {
				solve, share = *row[0].URL, *row[1].URL
			}
			_, payload, ok := strings.Cut(solve, "?start=")
			if !ok || !strings.HasPrefix(payload, "pz") {
				t.Fatalf("solve button %q: want a link to the bot with start=pz<id>", solve)
			}
			if !strings.HasPrefix(share, "https://t.me/share/url?url="+url.QueryEscape(solve)) {
				t.Errorf("share button %q: want Telegram's share page with the puzzle's link", share)
			}
			waitMessage(t, srv, bob.chat.ID, "Bob's notice", isNotice)

			// The link opens the puzzle, with its game, and it is solved.
			say(srv, alice.chat, alice, "/start "+payload)
			board := waitMessage(t, srv, alice.chat.ID, "the mined puzzle", func(m telegramtest.Msg) bool {
				return m.FromBot && m.Kind == "photo" && strings.Contains(m.Text, strings.TrimPrefix(payload, "pz"))
			})
			if !strings.Contains(board.Text, tc.origin) {
				t.Errorf("puzzle caption %q: want %q", board.Text, tc.origin)
			}
			g := rules.NewGame(rules.Start(rules.Bashni))
			for _, mv := range minedGame[:7] {
				if _, err := g.PlayText(mv); err != nil {
					t.Fatal(err)
				}
			}
			pos := g.Position()
			win, err := rules.ParseMove(&pos, minedGame[7])
			if err != nil {
				t.Fatal(err)
			}
			pickPuzzleMove(t, srv, alice.chat, alice, board.ID, win)
			waitMessage(t, srv, alice.chat.ID, "solved", func(m telegramtest.Msg) bool { return m.ID == board.ID && strings.Contains(m.Text, tc.solved) })

			// Nothing new for a second run; each was told once.
			if out := mine(t, full, clock); !strings.Contains(out, "0 games gone through") {
				t.Errorf("a second run says %q: want nothing new", out)
			}
			if out := mine(t, full, clock, "-check"); !strings.Contains(out, "1 mined puzzles checked at 20000 nodes, 0 failed") {
				t.Errorf("the check of the puzzles kept says %q", out)
			}
			for _, u := range []user{alice, bob} {
				if got := countMessages(srv, u.chat.ID, isNotice); got != 1 {
					t.Errorf("%s was told %d times, want once", u.u.FirstName, got)
				}
			}
		})
	}
}

// countMessages counts the messages of chat that ok accepts.
func countMessages(srv *telegramtest.Server, chatID int64, ok func(telegramtest.Msg) bool) int {
	n := 0
	for _, m := range srv.Messages(chatID) {
		if ok(m) {
			n++
		}
	}
	return n
}
