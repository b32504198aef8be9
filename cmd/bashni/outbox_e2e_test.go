package main

import (
	"fmt"
	"net/http"
	"sync"
	"testing"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/bashni/bashni/internal/telegramtest"
	"github.com/bashni/bashni/storage/redis/redistest"
)

// helpChats is how many private chats each send /help while the bot is
// killed with their replies still unsent.
const helpChats = 200

// helpUpdate is /help from user 30000+i in their private chat, with a
// fixed update id so that a redelivery is the same update.
func helpUpdate(srv *telegramtest.Server, i int) tgbotapi.Update {
	u := telegramtest.User(30000+int64(i), fmt.Sprintf("H%d", i), "", "en")
	up := srv.TextMessage(telegramtest.PrivateChat(u), u, "/help")
	up.UpdateID = 800000 + i
	return up
}

// holdReplies holds every message to the help chats: the updates are
// handled (and acknowledged) while none of their replies can go out.
func holdReplies(srv *telegramtest.Server) (release func()) {
	_, release = srv.HoldWhen(func(c telegramtest.Call) bool {
		return c.Method == "sendMessage" && c.ChatID() >= 30000 && c.ChatID() < 30000+helpChats
	})
	return release
}

// waitEveryHelp waits until every help chat has had its reply, and
// reports when the first came.
func waitEveryHelp(t *testing.T, srv *telegramtest.Server) {
	t.Helper()
	answered := func() int {
		seen := map[int64]bool{}
		for _, c := range srv.CallsTo("sendMessage") {
			if c.OK() && c.ChatID() >= 30000 && c.ChatID() < 30000+helpChats {
				seen[c.ChatID()] = true
			}
		}
		return len(seen)
	}
	if !srv.WaitUntil(90*time.Second, func() bool { return answered() == helpChats }) {
		t.Fatalf("%d of %d chats got their /help reply after the restart", answered(), helpChats)
	}
}

// Polling on bbolt: 200 /help updates handled and confirmed, none of the
// replies sent, SIGKILL; the next process on the same file sends them all.
func TestCrashKeepsRepliesPollingBolt(t *testing.T) {
	if testing.Short() {
		t.Skip("starts the bot as a child process twice")
	}
	srv := telegramtest.New(t)
	env := withDefaults(t, srv, nil)
	release := holdReplies(srv)
	for i := range helpChats {
		srv.PushUpdate(helpUpdate(srv, i))
	}
	first := startChild(t, env)
	srv.WaitConfirmed(t, 60*time.Second) // every update handled and acknowledged
	first.kill(t)
	release()
	killed := time.Now()

	second := startChild(t, env)
	waitEveryHelp(t, srv)
	t.Logf("first reply %v after the kill", firstReplyAfter(srv, killed))
	second.stop(t)
}

// Webhook on Redis: 200 /help updates answered 200 to replica A, none of
// the replies sent, SIGKILL; replica B, which never saw them, sends them
// all once A's lease has run out.
func TestCrashKeepsRepliesWebhookRedis(t *testing.T) {
	if testing.Short() {
		t.Skip("starts the bot as a child process twice")
	}
	rds := redistest.Start(t)
	srv := telegramtest.New(t)
	const secret = "outbox-test-secret"
	replica := func() (*childBot, string) { return startWebhookChild(t, srv, rds.URL(), secret, nil) }
	release := holdReplies(srv)
	a, url := replica()
	var wg sync.WaitGroup
	next := make(chan int)
	for range 8 {
		wg.Go(func() {
			for i := range next {
				resp, err := srv.DeliverWebhook(t.Context(), url, secret, helpUpdate(srv, i))
				if err != nil {
					t.Errorf("update %d: %v", i, err)
					continue
				}
				resp.Body.Close()
				if resp.StatusCode != http.StatusOK {
					t.Errorf("update %d: status %d", i, resp.StatusCode)
				}
			}
		})
	}
	for i := range helpChats {
		next <- i
	}
	close(next)
	wg.Wait()
	a.kill(t)
	release()
	killed := time.Now()

	b, _ := replica()
	waitEveryHelp(t, srv)
	t.Logf("first reply %v after the kill (the lease is %v)", firstReplyAfter(srv, killed), outboxLease)
	b.stop(t)
}

// firstReplyAfter is how long after t the first help reply was sent: the
// time from a crash to the first reply redelivered, for the record.
func firstReplyAfter(srv *telegramtest.Server, t time.Time) time.Duration {
	for _, c := range srv.CallsTo("sendMessage") {
		if c.OK() && c.ChatID() >= 30000 && c.ChatID() < 30000+helpChats && c.At.After(t) {
			return c.At.Sub(t)
		}
	}
	return -1
}
