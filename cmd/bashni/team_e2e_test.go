package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/bashni/bashni/internal/telegramtest"
	"github.com/bashni/bashni/internal/testkit"
)

// startBotWithClock runs the bot as startBot does, but deciding about time
// by clock, which the test moves by hand (the vote's minute passes at once).
func startBotWithClock(t *testing.T, srv *telegramtest.Server, clock *testkit.Clock) {
	t.Helper()
	vars := withDefaults(t, srv, map[string]string{"BASHNI_CLOCK_INTERVAL": "20ms"})
	logs := &testkit.Buffer{}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	before := len(srv.CallsTo("getUpdates"))
	go func() {
		done <- cmdBot(ctx, env{args: nil, getenv: func(k string) string { return vars[k] }, environ: environ(vars),
			stdin: strings.NewReader(""), stdout: &bytes.Buffer{}, stderr: logs, now: clock.Now})
	}()
	t.Cleanup(func() {
		cancel()
		<-done
		if t.Failed() {
			t.Logf("the bot's logs:\n%s", logs.String())
		}
	})
	srv.WaitFor(t, 10*time.Second, func(c telegramtest.Call) bool {
		return c.Method == "getUpdates" && len(srv.CallsTo("getUpdates")) > before
	})
}

// voteButton finds the vote button for move on the card.
func voteButton(t *testing.T, m telegramtest.Msg, move string) string {
	t.Helper()
	for _, b := range buttons(m) {
		if b[0] == move && strings.HasPrefix(b[1], "tv|") {
			return b[1]
		}
	}
	t.Fatalf("no vote button %s on the card: %v", move, buttons(m))
	return ""
}

// The chat plays the AI by vote. Three members vote on the first move; the
// vote runs its minute and the majority move is played, the tally on the
// card; the AI answers. On the next move the vote closes as soon as all
// three have voted again. Each vote is answered by a toast; a second vote
// and a vote on a closed turn are refused and change nothing.
func TestE2ETeamGameByVote(t *testing.T) {
	srv := telegramtest.New(t)
	clock := testkit.NewClock(time.Now())
	startBotWithClock(t, srv, clock)
	group := telegramtest.GroupChat(-1004000000001, "Club")
	alice, bob, carol := newUser(4001, "Alice", "en"), newUser(4002, "Bob", "en"), newUser(4003, "Carol", "en")
	joinGroup(srv, group, alice, bob, carol)

	say(srv, group, alice, "/team 1")
	c := waitMessage(t, srv, group.ID, "team card", func(m telegramtest.Msg) bool { return m.Kind == "photo" && len(buttons(m)) > 0 })
	if !strings.Contains(c.Text, "The chat's move") || !strings.Contains(c.Text, "closes 60 s after the first vote") || !strings.Contains(c.Text, "Club") {
		t.Errorf("the card does not explain the vote:\n%s", c.Text)
	}
	_, atStart := groupMessages(srv, group.ID)
	if toast := tap(t, srv, group, alice, c.ID, voteButton(t, c, "g3-h4")); !strings.Contains(toast, "Your vote: g3-h4 (1 of 1") {
		t.Errorf("Alice's toast %q", toast)
	}
	tap(t, srv, group, bob, c.ID, voteButton(t, c, "a3-b4"))
	if toast := tap(t, srv, group, carol, c.ID, voteButton(t, c, "g3-h4")); !strings.Contains(toast, "Your vote: g3-h4 (2 of 3") {
		t.Errorf("Carol's toast %q", toast)
	}
	if toast := tap(t, srv, group, bob, c.ID, voteButton(t, c, "g3-h4")); !strings.Contains(toast, "voted on this move already") {
		t.Errorf("Bob's second vote: toast %q", toast)
	}
	edits := len(srv.CallsTo("editMessageMedia"))
	if _, n := groupMessages(srv, group.ID); n != atStart {
		t.Errorf("the votes cost the group %d messages", n-atStart)
	}

	clock.Advance(time.Minute)
	after := waitMessage(t, srv, group.ID, "the AI's answer to the chat's g3-h4", func(m telegramtest.Msg) bool {
		return m.ID == c.ID && strings.Contains(m.Text, "The chat played g3-h4: 2 of 3 votes (Alice, Carol)") &&
			strings.Count(lastLine(m.Text), " ") >= 3 && len(buttons(m)) > 0
	})
	if n := len(srv.CallsTo("editMessageMedia")); n == edits {
		t.Error("the card was not edited when the vote closed")
	}
	// The turn cost the group the card's edits alone: one with the AI's
	// answer, and one showing the chat's move while the AI thinks if the
	// AI took longer than the bot waits before showing it (bot.aiGrace).
	by, n := groupMessages(srv, group.ID)
	t.Logf("a turn by buttons cost the group %d messages: %v (from %d at the card)", n-atStart, by, atStart)
	if turn := n - atStart; turn != by["editMessageMedia"] || turn < 1 || turn > 2 {
		t.Errorf("messages %v since %d: want one or two edits of the card a turn, nothing else", by, atStart)
	}
	// A tap on the first move's board is on a closed vote.
	if toast := tap(t, srv, group, bob, c.ID, voteButton(t, c, "a3-b4")); !strings.Contains(toast, "vote has closed") {
		t.Errorf("a vote on the closed turn: toast %q", toast)
	}

	// Second move: the three vote again, two for the same move, and the
	// vote closes with the third ballot, no minute needed.
	var x, y string
	for _, b := range buttons(after) {
		if strings.HasPrefix(b[1], "tv|") {
			if x == "" {
				x = b[0]
			} else if y == "" {
				y = b[0]
			}
		}
	}
	want := "The chat played " + y + ": 2 of 3 votes (Alice, Carol)"
	if y == "" {
		// The AI's answer left one legal move (a forced capture): all
		// three vote for it.
		y, want = x, "The chat played "+x+": 3 of 3 votes (Bob, Alice, Carol)"
	}
	tap(t, srv, group, bob, after.ID, voteButton(t, after, x))
	tap(t, srv, group, alice, after.ID, voteButton(t, after, y))
	if toast := tap(t, srv, group, carol, after.ID, voteButton(t, after, y)); !strings.Contains(toast, "Everyone has voted: "+y+" is played") {
		t.Errorf("the last vote: toast %q", toast)
	}
	waitMessage(t, srv, group.ID, "the chat's second move on the card", func(m telegramtest.Msg) bool {
		return m.ID == c.ID && strings.Contains(m.Text, want)
	})

	// A typed vote that names no move is refused with the reason.
	say(srv, group, newUser(4004, "Dave", "en"), "/vote xx")
	waitMessage(t, srv, group.ID, "the reason a bad typed vote was refused", func(m telegramtest.Msg) bool {
		return m.FromBot && m.ID > c.ID && strings.Contains(m.Text, "not a move")
	})
}

// The first vote of a team game closes when everyone has voted: nobody
// voted before it, so it closes 15 s (play's teamQuietWindow) after its
// latest ballot rather than a minute after its first, and the card shows
// the whole tally. Then a vote to resign by the one who started the game
// ends it at once.
func TestE2ETeamFirstVoteClosesWhenAllHaveVoted(t *testing.T) {
	srv := telegramtest.New(t)
	clock := testkit.NewClock(time.Now())
	startBotWithClock(t, srv, clock)
	group := telegramtest.GroupChat(-1004000000002, "Club")
	alice, bob, carol := newUser(4101, "Alice", "en"), newUser(4102, "Bob", "en"), newUser(4103, "Carol", "en")
	joinGroup(srv, group, alice, bob, carol)

	say(srv, group, alice, "/team 1")
	c := waitMessage(t, srv, group.ID, "team card", func(m telegramtest.Msg) bool { return m.Kind == "photo" && len(buttons(m)) > 0 })
	tap(t, srv, group, alice, c.ID, voteButton(t, c, "g3-h4"))
	tap(t, srv, group, bob, c.ID, voteButton(t, c, "a3-b4"))
	if toast := tap(t, srv, group, carol, c.ID, voteButton(t, c, "g3-h4")); !strings.Contains(toast, "Your vote: g3-h4 (2 of 3") {
		t.Errorf("Carol's toast %q; want her vote counted with Alice's and Bob's", toast)
	}

	// Well before the minute: the card shows the move and the whole tally.
	clock.Advance(15 * time.Second)
	waitMessage(t, srv, group.ID, "the first vote closed 15 s after the last ballot", func(m telegramtest.Msg) bool {
		return m.ID == c.ID && strings.Contains(m.Text, "The chat played g3-h4: 2 of 3 votes (Alice, Carol)") &&
			strings.Contains(m.Text, "Other votes: a3-b4 1")
	})
	board := c

	// The starter resigns alone: the game is over, the chat lost.
	after := waitMessage(t, srv, group.ID, "the AI's answer", func(m telegramtest.Msg) bool {
		return m.ID == board.ID && strings.Contains(m.Text, "The chat's move") && len(buttons(m)) > 0
	})
	say(srv, group, alice, "/vote resign")
	waitMessage(t, srv, group.ID, "the chat's resignation", func(m telegramtest.Msg) bool {
		return m.ID == after.ID && strings.Contains(m.Text, "0-1")
	})
}
