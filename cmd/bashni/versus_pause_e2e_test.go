package main

import (
	"strings"
	"testing"
	"time"

	"github.com/bashni/bashni/internal/telegramtest"
	"github.com/bashni/bashni/internal/testkit"
	"github.com/bashni/bashni/storage/redis/redistest"
)

// The group to move pauses its match (a member who does not administer
// it is refused): the other group is told, its card says the clock is
// stopped, and a day a move passes without a loss; the group resumes,
// the other is told it is back, and when its day then passes the match
// ends (aborted: no side has moved).
func TestE2EVersusPauseResume(t *testing.T) {
	srv := telegramtest.New(t)
	clock := testkit.NewClock(time.Now())
	startBotWithClock(t, srv, clock)
	versusPauseResume(t, srv, clock, -1004340000000)
}

// The same on Redis: the holds are written by its compare-and-set.
func TestE2EVersusPauseResumeRedis(t *testing.T) {
	srv := telegramtest.New(t)
	clock := testkit.NewClock(time.Now())
	rds := redistest.Start(t)
	startClockedWithLogs(t, srv, clock, withDefaults(t, srv, map[string]string{"REDIS_URL": rds.URL(), "BASHNI_CLOCK_INTERVAL": "20ms"}))
	versusPauseResume(t, srv, clock, -1004350000000)
}

// versusPauseResume is the pause and resume of a match between groups
// numbered from base, on a bot started with clock.
func versusPauseResume(t *testing.T, srv *telegramtest.Server, clock *testkit.Clock, base int64) {
	t.Helper()
	r := newVersusRig(srv, base)
	srv.SetChatMember(r.club.ID, r.alice.u.ID, "administrator")
	r.challengeAccepted(t, 1) // a day a move
	mover, other, admin, member, card := r.club, r.office, r.alice, r.bob, r.clubCard
	stopped, back := "the clock is stopped", "вернулась"
	if len(voteButtons(r.clubCard)) == 0 {
		mover, other, admin, member, card = r.office, r.club, r.olga, r.pavel, r.officeCrd
		stopped, back = "часы остановлены", "is back"
	}

	say(srv, mover, member, "/versus pause 2d")
	waitMessage(t, srv, mover.ID, "a member's pause refused", func(m telegramtest.Msg) bool {
		return m.FromBot && (strings.Contains(m.Text, "administrators") || strings.Contains(m.Text, "администратор"))
	})
	say(srv, mover, admin, "/versus pause 2d")
	waitMessage(t, srv, other.ID, "the other group told of the pause", func(m telegramtest.Msg) bool {
		return m.FromBot && strings.Contains(m.Text, "⏸")
	})
	waitMessage(t, srv, mover.ID, "the card says the clock is stopped", func(telegramtest.Msg) bool {
		return strings.Contains(latest(t, srv, card).Text, stopped)
	})

	clock.Advance(24*time.Hour + time.Minute) // past the move's day: held
	say(srv, mover, admin, "/versus resume")
	waitMessage(t, srv, other.ID, "the other group told the pausing one is back", func(m telegramtest.Msg) bool {
		return m.FromBot && strings.Contains(m.Text, back)
	})
	// The card redrawn on the resume: the whole day a move is left (a
	// hold that had not moved the deadline would leave nothing).
	left := "24 h 0 min left"
	if mover == r.office {
		left = "осталось 24 ч 0 мин"
	}
	waitMessage(t, srv, mover.ID, "the card's clock running again with the day left", func(telegramtest.Msg) bool {
		return strings.Contains(latest(t, srv, card).Text, left)
	})
	for _, chat := range []int64{mover.ID, other.ID} {
		for _, m := range srv.Messages(chat) {
			if m.FromBot && (strings.Contains(m.Text, "1-0") || strings.Contains(m.Text, "0-1")) {
				t.Fatalf("the paused match ended in %d: %q", chat, m.Text)
			}
		}
	}

	clock.Advance(24*time.Hour + time.Minute) // the day the resume gave passes: the clock runs again
	waitMessage(t, srv, other.ID, "the match's end once the clock ran again", func(m telegramtest.Msg) bool {
		return m.FromBot && strings.Contains(m.Text, "🏁")
	})
}
