package main

import (
	"strings"
	"sync/atomic"
	"syscall"
	"testing"

	"github.com/bashni/bashni/internal/telegramtest"
)

// A match between two groups: the side to move's vote closes (its
// quorum), and the bot is killed (SIGKILL) the moment it tries to show
// the move in the other group, before Telegram has taken that edit. The
// move was stored with what it owes both chats, so the next process (same
// bbolt file) shows it in the other group: that group's card gets the
// move and its own vote buttons, and nothing is lost.
func TestE2EVersusMoveSurvivesACrash(t *testing.T) {
	if testing.Short() {
		t.Skip("starts the bot as a child process twice")
	}
	srv := telegramtest.New(t)
	clock := newChildClock(t)
	env := clock.env(withDefaults(t, srv, map[string]string{"BASHNI_CLOCK_INTERVAL": "20ms"}))
	first := startChild(t, env)
	r := newVersusRig(srv, -1004310000000)
	r.challengeAccepted(t, 0)

	mover, moverCard, voters := r.club, r.clubCard, []user{r.alice, r.bob, r.carol}
	waiter, waiterCard := r.office, r.officeCrd
	if len(voteButtons(moverCard)) == 0 {
		mover, moverCard, voters = r.office, r.officeCrd, []user{r.olga, r.pavel}
		waiter, waiterCard = r.club, r.clubCard
	}
	// Only the first process's edit is held, and it is never released: a
	// released call races the server's noticing that its client died, and
	// when the release wins, the dead process's edit lands after all and
	// the second process has nothing to do. The test's end releases it.
	var heldOnce atomic.Bool
	held, _ := srv.HoldWhen(func(c telegramtest.Call) bool {
		return strings.HasPrefix(c.Method, "editMessage") && c.ChatID() == waiter.ID && heldOnce.CompareAndSwap(false, true)
	})
	move := voteButtons(moverCard)[0]
	for _, v := range voters {
		srv.PushUpdate(srv.CallbackQuery(mover, v.u, moverCard.ID, move[1]))
	}
	<-held // the move is being shown in the waiting group: the vote closed
	_ = first.cmd.Process.Signal(syscall.SIGKILL)
	<-first.exited
	if m, _ := srv.Message(waiter.ID, waiterCard.ID); strings.Contains(lastLine(m.Text), move[0]) {
		t.Fatalf("the waiting group's card shows the move before the crash; the test proves nothing:\n%s", m.Text)
	}

	second := startChild(t, env)
	waitMessage(t, srv, waiter.ID, "the move shown in the waiting group after the crash", func(m telegramtest.Msg) bool {
		return m.ID == waiterCard.ID && strings.Contains(lastLine(m.Text), move[0]) && len(voteButtons(m)) > 0
	})
	waitMessage(t, srv, mover.ID, "the move on the voting group's card", func(m telegramtest.Msg) bool {
		return m.ID == moverCard.ID && strings.Contains(lastLine(m.Text), move[0]) && len(voteButtons(m)) == 0
	})
	second.stop(t)
}
