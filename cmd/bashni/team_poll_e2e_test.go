package main

import (
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bashni/bashni/internal/telegramtest"
	"github.com/bashni/bashni/internal/testkit"
)

// groupPaced are the requests Telegram counts against a group's 20
// messages a minute: messages sent and edited, a poll sent or stopped
// (stopPoll edits the poll's message). Callback answers, reactions,
// deletions and chat actions are not messages.
var groupPaced = []string{"sendMessage", "sendPhoto", "sendDocument", "sendAnimation", "sendPoll", "stopPoll",
	"editMessageText", "editMessageCaption", "editMessageMedia", "editMessageReplyMarkup"}

// groupMessages counts the successful requests of each paced method to
// chat, and their sum.
func groupMessages(srv *telegramtest.Server, chatID int64) (map[string]int, int) {
	by, total := map[string]int{}, 0
	id := strconv.FormatInt(chatID, 10)
	for _, c := range srv.Calls() {
		if c.Status == 200 && c.Params["chat_id"] == id && slices.Contains(groupPaced, c.Method) {
			by[c.Method]++
			total++
		}
	}
	return by, total
}

// pollOption returns the index of move among a poll's options.
func pollOption(t *testing.T, p *telegramtest.Poll, move string) int {
	t.Helper()
	i := slices.Index(p.Options, move)
	if i < 0 {
		t.Fatalf("%s is not among the poll's options %v", move, p.Options)
	}
	return i
}

// The chat plays the AI by poll (/team 1 poll). The card has no vote
// buttons; a poll of the legal moves follows it. Three members answer
// (one retracts and answers again); the vote runs its minute and the
// majority move is played, the tally on the card, the poll stopped; the
// AI answers and the next turn's poll follows. On that turn a member who
// voted by /vote cannot vote again in the poll, and the vote closes as
// soon as all three have voted. Votes cost the group no message; a turn
// costs one sendPoll and one stopPoll besides the card's edits.
func TestE2ETeamGameByPoll(t *testing.T) {
	srv := telegramtest.New(t)
	clock := testkit.NewClock(time.Now())
	startBotWithClock(t, srv, clock)
	group := telegramtest.GroupChat(-1004000000002, "Poll club")
	alice, bob, carol := newUser(4101, "Alice", "en"), newUser(4102, "Bob", "en"), newUser(4103, "Carol", "en")
	joinGroup(srv, group, alice, bob, carol)
	answer := func(u user, pollID string, options ...int) {
		t.Helper()
		srv.PushUpdate(srv.PollAnswer(u.u, pollID, options...))
		srv.WaitConfirmed(t, 10*time.Second) // handled: its effects are stored
	}

	say(srv, group, alice, "/team 1 poll")
	c := waitMessage(t, srv, group.ID, "team card", func(m telegramtest.Msg) bool { return m.FromBot && m.Kind == "photo" })
	if len(buttons(c)) != 0 || !strings.Contains(c.Text, "vote in the poll below") {
		t.Errorf("the card of a game voted by poll: buttons %v, caption:\n%s", buttons(c), c.Text)
	}
	p1 := waitMessage(t, srv, group.ID, "the first poll", func(m telegramtest.Msg) bool { return m.Kind == "poll" })
	if p1.Poll.Anonymous || p1.ReplyTo != c.ID || len(p1.Poll.Options) != 7 || !strings.Contains(p1.Poll.Question, "move 1") {
		t.Fatalf("the first poll %+v (reply to %d), want the 7 legal moves, not anonymous, under the card %d", p1.Poll, p1.ReplyTo, c.ID)
	}
	_, atStart := groupMessages(srv, group.ID)

	id := p1.Poll.ID
	answer(alice, id, pollOption(t, p1.Poll, "g3-h4"))
	answer(bob, id, pollOption(t, p1.Poll, "c3-d4"))
	answer(bob, id) // retracted
	answer(bob, id, pollOption(t, p1.Poll, "a3-b4"))
	answer(carol, id, pollOption(t, p1.Poll, "g3-h4"))
	if _, n := groupMessages(srv, group.ID); n != atStart {
		t.Errorf("the votes cost the group %d messages", n-atStart)
	}

	clock.Advance(time.Minute)
	after := waitMessage(t, srv, group.ID, "the AI's answer to the chat's g3-h4", func(m telegramtest.Msg) bool {
		return m.ID == c.ID && strings.Contains(m.Text, "The chat played g3-h4: 2 of 3 votes (Alice, Carol)") &&
			strings.Count(lastLine(m.Text), " ") >= 3
	})
	stopped := waitMessage(t, srv, group.ID, "the first poll stopped", func(m telegramtest.Msg) bool { return m.ID == p1.ID && m.Poll.Closed })
	if got := stopped.Poll.Counts[pollOption(t, p1.Poll, "g3-h4")]; got != 2 {
		t.Errorf("the stopped poll shows %d votes for g3-h4, want 2", got)
	}

	// The next turn of the chat's: its poll, or (a forced capture) the
	// one legal move as a button, which all three tap.
	var p2 telegramtest.Msg
	forced := 0 // turns with one legal move, voted by its button
	for p2.ID == 0 {
		srv.WaitUntil(15*time.Second, func() bool {
			for _, m := range srv.Messages(group.ID) {
				if m.Kind == "poll" && m.ID > p1.ID && !m.Poll.Closed {
					p2 = m
					return true
				}
			}
			m, _ := srv.Message(group.ID, c.ID)
			after = m
			return len(buttons(m)) > 0
		})
		if p2.ID == 0 {
			move := buttons(after)[0][0]
			data := voteButton(t, after, move)
			for _, u := range []user{alice, bob, carol} {
				tap(t, srv, group, u, c.ID, data)
			}
			forced++
			waitMessage(t, srv, group.ID, "the AI's answer to the forced move", func(m telegramtest.Msg) bool {
				return m.ID == c.ID && strings.Contains(m.Text, "The chat played "+move+":") && !strings.Contains(m.Text, "thinking")
			})
		}
	}
	by, n := groupMessages(srv, group.ID)
	t.Logf("a turn by poll cost the group %d messages: %v (from %d at the first poll)", n-atStart, by, atStart)
	// The first poll stopped, the second sent, and the card's edits: one
	// or two a turn as with buttons (TestE2ETeamGameByVote).
	edits := by["editMessageMedia"]
	if turn := n - atStart; by["stopPoll"] != 1 || by["sendPoll"] != 2 || turn != edits+2 || edits < 1+forced || edits > 2*(1+forced) {
		t.Errorf("messages %v since %d (%d forced turns): want the card's edits, one stopPoll and one sendPoll, nothing else", by, atStart, forced)
	}

	// Second poll: Carol votes by /vote, so her answer in the poll does
	// not count; Alice and Bob answer, and with Bob everyone who voted
	// last time has voted: the vote closes at once.
	y := p2.Poll.Options[1]
	say(srv, group, carol, "/vote "+y)
	srv.WaitConfirmed(t, 10*time.Second)
	answer(carol, p2.Poll.ID, 0)
	answer(alice, p2.Poll.ID, 0)
	answer(bob, p2.Poll.ID, 1)
	waitMessage(t, srv, group.ID, "the chat's second move on the card", func(m telegramtest.Msg) bool {
		return m.ID == c.ID && strings.Contains(m.Text, "The chat played "+y+": 2 of 3 votes (Carol, Bob)")
	})
	waitMessage(t, srv, group.ID, "the second poll stopped", func(m telegramtest.Msg) bool { return m.ID == p2.ID && m.Poll.Closed })

	// A late answer in the first poll changes nothing.
	before := len(srv.Calls())
	answer(newUser(4104, "Dave", "en"), p1.Poll.ID, 0)
	for _, call := range srv.Calls()[before:] {
		if call.Method != "getUpdates" {
			t.Errorf("a late answer in a stopped poll made the bot call %s", call.Method)
		}
	}
}

// When the AI opens (/team 1 black poll), the chat's first poll follows
// the AI's first move, under the card, in the chat's language.
func TestE2ETeamPollWhenTheAIOpens(t *testing.T) {
	srv := telegramtest.New(t)
	clock := testkit.NewClock(time.Now())
	startBotWithClock(t, srv, clock)
	group := telegramtest.GroupChat(-1004000000003, "Клуб")
	ivan := newUser(4201, "Ivan", "ru")

	say(srv, group, ivan, "/team 1 black опрос")
	c := waitMessage(t, srv, group.ID, "team card", func(m telegramtest.Msg) bool { return m.FromBot && m.Kind == "photo" })
	p := waitMessage(t, srv, group.ID, "the chat's first poll", func(m telegramtest.Msg) bool { return m.Kind == "poll" })
	if p.ReplyTo != c.ID || p.Poll.Anonymous || !strings.Contains(p.Poll.Question, "Ход чата 1") || len(p.Poll.Options) < 2 {
		t.Errorf("the first poll %+v, reply to %d; want it under the card %d, in Russian", p.Poll, p.ReplyTo, c.ID)
	}
	// The poll may come before the card's edit: it is sent apart from
	// the edit that shows the AI's move (bot/teampoll.go).
	waitMessage(t, srv, group.ID, "the card with the AI's move, voted by poll", func(m telegramtest.Msg) bool {
		return m.ID == c.ID && strings.Contains(m.Text, "голосуйте в опросе ниже") && len(buttons(m)) == 0
	})
}
