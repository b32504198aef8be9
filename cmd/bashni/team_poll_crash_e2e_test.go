package main

import (
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/bashni/bashni/internal/telegramtest"
)

// A team game voted by poll (/team 1 poll): the bot is killed (SIGKILL)
// the moment Telegram has taken the turn's sendPoll, before the answer
// reaches it, so the poll's id is never stored by the process that sent
// it. The next process (same bbolt file) sends the poll again from the
// outbox's journal and records that one, and tells the group to vote in
// it (a poll above, the one Telegram took from the dead process, no
// longer counts). The members' answers in it are counted: the majority
// move is played and the poll stopped. Before the poll's record went with
// the request in the journal, the poll sent again was recorded by nobody,
// its answers were refused as a poll nobody knows, and the turn could be
// voted only by /vote.
func TestE2ETeamPollSurvivesACrashMidSend(t *testing.T) {
	if testing.Short() {
		t.Skip("starts the bot as a child process twice")
	}
	srv := telegramtest.New(t)
	clock := newChildClock(t)
	env := clock.env(withDefaults(t, srv, map[string]string{"BASHNI_CLOCK_INTERVAL": "20ms"}))
	group := telegramtest.GroupChat(-1004000000031, "Poll club")
	alice, bob, carol := newUser(4311, "Alice", "en"), newUser(4312, "Bob", "en"), newUser(4313, "Carol", "en")

	// The first sendPoll Telegram takes kills the bot before it hears
	// the answer.
	var first *childBot
	var mu sync.Mutex
	var once sync.Once
	killed := make(chan struct{})
	cancel := srv.OnMessage(func(c telegramtest.Call, m telegramtest.Msg) {
		if c.Method != "sendPoll" {
			return
		}
		once.Do(func() {
			mu.Lock()
			p := first
			mu.Unlock()
			_ = p.cmd.Process.Signal(syscall.SIGKILL)
			<-p.exited
			close(killed)
		})
	})
	mu.Lock()
	first = startChild(t, env)
	mu.Unlock()
	say(srv, group, alice, "/team 1 poll")
	<-killed
	cancel()
	lost := waitMessage(t, srv, group.ID, "the poll the dead process sent", func(m telegramtest.Msg) bool { return m.Kind == "poll" })
	c := waitMessage(t, srv, group.ID, "team card", func(m telegramtest.Msg) bool { return m.FromBot && m.Kind == "photo" })

	second := startChild(t, env)
	p := waitMessage(t, srv, group.ID, "the poll sent again", func(m telegramtest.Msg) bool { return m.Kind == "poll" && m.ID > lost.ID })
	if p.Poll.Question != lost.Poll.Question || strings.Join(p.Poll.Options, " ") != strings.Join(lost.Poll.Options, " ") {
		t.Errorf("the poll sent again %+v differs from the first %+v", p.Poll, lost.Poll)
	}
	// Told once the poll is recorded: the members answer after it.
	waitMessage(t, srv, group.ID, "the group told to vote in the poll sent again", func(m telegramtest.Msg) bool {
		return m.FromBot && m.ReplyTo == p.ID && strings.Contains(m.Text, "If another poll for the chat's move 1 is above, it no longer counts")
	})

	answer := func(u user, options ...int) {
		t.Helper()
		srv.PushUpdate(srv.PollAnswer(u.u, p.Poll.ID, options...))
		srv.WaitConfirmed(t, 10*time.Second) // handled: its effects are stored
	}
	win, other := p.Poll.Options[0], p.Poll.Options[1]
	answer(alice, 0)
	answer(bob, 1)
	answer(carol, 0)
	clock.Advance(t, time.Minute) // the vote's minute
	waitMessage(t, srv, group.ID, "the majority move played", func(m telegramtest.Msg) bool {
		return m.ID == c.ID && strings.Contains(m.Text, "The chat played "+win+": 2 of 3 votes (Alice, Carol)")
	})
	stopped := waitMessage(t, srv, group.ID, "the poll stopped", func(m telegramtest.Msg) bool { return m.ID == p.ID && m.Poll.Closed })
	if stopped.Poll.Counts[0] != 2 || stopped.Poll.Counts[1] != 1 {
		t.Errorf("the stopped poll counts %v, want 2 for %s and 1 for %s", stopped.Poll.Counts, win, other)
	}
	second.stop(t)
}
