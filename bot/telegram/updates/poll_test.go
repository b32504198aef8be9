package updates_test

import (
	"context"
	"errors"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/bashni/bashni/bot/telegram/updates"
	"github.com/bashni/bashni/internal/telegramtest"
	"github.com/bashni/bashni/internal/testkit"
)

var (
	ann  = telegramtest.User(11, "Ann", "ann", "en")
	bob  = telegramtest.User(12, "Bob", "bob", "ru")
	cleo = telegramtest.User(13, "Cleo", "cleo", "en")
)

func TestPollHandlesEveryUpdateOnceAndInOrder(t *testing.T) {
	srv, api := newAPI(t)
	rec := newRecorder()
	users := []tgbotapi.User{ann, bob, cleo}
	push := func(n int) {
		for i := range n {
			u := users[i%len(users)]
			srv.PushUpdate(srv.TextMessage(telegramtest.PrivateChat(u), u, "/move"))
		}
	}
	push(15) // waiting before the first call
	stop := poll(t, api, updates.PollOptions{Timeout: 2 * time.Second, Limit: 4}, rec.handle)
	rec.waitFor(t, 15)
	push(15) // arriving during long polls
	rec.waitFor(t, 30)
	if err := stop(); err != nil {
		t.Fatalf("Poll: %v", err)
	}

	seen := map[int]bool{}
	last := map[int64]int{}
	for _, u := range rec.all() {
		if seen[u.UpdateID] {
			t.Errorf("update %d handled twice", u.UpdateID)
		}
		seen[u.UpdateID] = true
		chat := updates.ChatOf(u)
		if u.UpdateID < last[chat] {
			t.Errorf("chat %d: update %d handled after %d", chat, u.UpdateID, last[chat])
		}
		last[chat] = u.UpdateID
	}
	if len(seen) != 30 {
		t.Errorf("%d distinct updates handled, want 30", len(seen))
	}
	if n := srv.PendingUpdates(); n != 0 {
		t.Errorf("%d updates left unconfirmed after shutdown, want 0", n)
	}
	// In the order the calls arrived: the fake records a call when it
	// answers it, and the long poll the shutdown abandoned is answered
	// after the confirming call that followed it.
	calls := srv.CallsTo("getUpdates")
	sort.SliceStable(calls, func(i, j int) bool { return calls[i].At.Before(calls[j].At) })
	var prev int
	for _, c := range calls {
		off := atoi(c.Params["offset"])
		if off < prev {
			t.Errorf("offset went back from %d to %d", prev, off)
		}
		prev = off
	}

	// A restart handles only what is new.
	// Old updates would come first, in the same chat: once the marker
	// pushed after the new one is handled, anything old would have been.
	id := srv.PushUpdate(srv.TextMessage(telegramtest.PrivateChat(ann), ann, "/board"))
	marker := srv.PushUpdate(srv.TextMessage(telegramtest.PrivateChat(ann), ann, "/games"))
	rec2 := newRecorder()
	stop2 := poll(t, api, updates.PollOptions{Timeout: 2 * time.Second}, rec2.handle)
	rec2.waitFor(t, 2)
	stop2()
	if got := rec2.all(); len(got) != 2 || got[0].UpdateID != id || got[1].UpdateID != marker {
		t.Errorf("after a restart handled %d updates, want just %d and %d", len(got), id, marker)
	}
}

func atoi(s string) int {
	n := 0
	for _, r := range s {
		if r < '0' || r > '9' {
			return n
		}
		n = n*10 + int(r-'0')
	}
	return n
}

func TestPollStopsPromptlyDuringALongPoll(t *testing.T) {
	srv, api := newAPI(t)
	stop := poll(t, api, updates.PollOptions{Timeout: 30 * time.Second}, newRecorder().handle)
	srv.WaitPolling(t, 10*time.Second)
	// A Poll that waited for its 30 s long poll to end would miss stop's
	// 20 s guard; how soon it really returns is no test's business.
	if err := stop(); err != nil {
		t.Fatalf("Poll: %v", err)
	}
}

func TestPollHandlesChatsConcurrentlyAndEachInOrder(t *testing.T) {
	srv, api := newAPI(t)
	release, progress := make(chan struct{}), make(chan struct{}, 4)
	var mu sync.Mutex
	var order []string
	handle := func(_ context.Context, u tgbotapi.Update) {
		name := u.Message.From.FirstName + " " + u.Message.Text
		if name == "Ann 1" {
			<-release
		}
		mu.Lock()
		order = append(order, name)
		mu.Unlock()
		progress <- struct{}{}
	}
	snapshot := func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), order...)
	}
	waitUntil := func(t *testing.T, done func() bool) {
		t.Helper()
		for !done() {
			select {
			case <-progress:
			case <-time.After(10 * time.Second):
				t.Fatalf("handled only %q", snapshot())
			}
		}
	}
	poll(t, api, updates.PollOptions{Timeout: time.Second, Workers: 4}, handle)
	for _, m := range []struct {
		u    tgbotapi.User
		text string
	}{{ann, "1"}, {ann, "2"}, {bob, "1"}, {bob, "2"}} {
		srv.PushUpdate(srv.TextMessage(telegramtest.PrivateChat(m.u), m.u, m.text))
	}

	// Bob's chat goes on while Ann's first update is held. Ann's second
	// is then either still waiting behind it or, wrongly, done: the list
	// tells which once the held one is let go.
	waitUntil(t, func() bool { return len(snapshot()) >= 2 })
	if got := snapshot(); len(got) != 2 || got[0] != "Bob 1" || got[1] != "Bob 2" {
		t.Fatalf("with Ann's first update held, handled %q; want Bob's two and none of Ann's", got)
	}
	close(release)
	waitUntil(t, func() bool { return len(snapshot()) >= 4 })
	if got := snapshot(); len(got) != 4 || got[2] != "Ann 1" || got[3] != "Ann 2" {
		t.Errorf("handled %q, want Ann 1 before Ann 2 at the end", got)
	}
}

func TestPollFinishesInFlightHandlersOnShutdown(t *testing.T) {
	srv, api := newAPI(t)
	started := make(chan struct{})
	var finished, cancelled atomic.Bool
	handle := func(ctx context.Context, u tgbotapi.Update) {
		close(started)
		time.Sleep(300 * time.Millisecond) // not a wait: the handler's work, which outlasts Poll's context; Poll must wait for it however long it is
		cancelled.Store(ctx.Err() != nil)
		finished.Store(true)
	}
	stop := poll(t, api, updates.PollOptions{Timeout: time.Second}, handle)
	srv.PushUpdate(srv.TextMessage(telegramtest.PrivateChat(ann), ann, "/start"))
	<-started
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	if !finished.Load() {
		t.Errorf("Poll returned before its handler finished")
	}
	if cancelled.Load() {
		t.Errorf("the handler's context ended with Poll's; want it to run on")
	}
	if n := srv.PendingUpdates(); n != 0 {
		t.Errorf("%d updates unconfirmed, want 0", n)
	}
}

func TestPollDrainDeadlineCancelsHandlersAndDropsTheRest(t *testing.T) {
	srv, api := newAPI(t)
	started := make(chan struct{}, 2)
	var handled atomic.Int32
	handle := func(ctx context.Context, u tgbotapi.Update) {
		handled.Add(1)
		started <- struct{}{}
		<-ctx.Done()
	}
	logs := &testkit.Buffer{}
	// Both queued before the first call, so one getUpdates fetches both:
	// the second waits behind the first (same chat).
	srv.PushUpdate(srv.TextMessage(telegramtest.PrivateChat(ann), ann, "1"))
	srv.PushUpdate(srv.TextMessage(telegramtest.PrivateChat(ann), ann, "2"))
	stop := poll(t, api, updates.PollOptions{Timeout: time.Second, DrainTimeout: 200 * time.Millisecond, Logger: logger(logs)}, handle)
	<-started
	// The first handler returns only when its context ends: Poll returns
	// (within stop's guard) only if the drain deadline ended it.
	if err := stop(); err != nil {
		t.Fatal(err)
	}
	if n := handled.Load(); n != 1 {
		t.Errorf("%d handled, want 1: the second was not started by the deadline", n)
	}
	if !strings.Contains(logs.String(), "dropped") {
		t.Errorf("the dropped update was not logged:\n%s", logs)
	}
	// The dropped update is not confirmed: Telegram delivers it again.
	if n := srv.PendingUpdates(); n != 1 {
		t.Errorf("%d updates left unconfirmed, want the 1 dropped", n)
	}
}

func TestPollBacksOffAfterErrorsWithoutShowingTheToken(t *testing.T) {
	srv, api := newAPI(t)
	srv.FailNext("getUpdates", 2, telegramtest.Failure{Code: 502, Description: "Bad Gateway"})
	logs := &testkit.Buffer{}
	rec := newRecorder()
	poll(t, api, updates.PollOptions{Timeout: time.Second, MinBackoff: 20 * time.Millisecond, Logger: logger(logs)}, rec.handle)
	srv.PushUpdate(srv.TextMessage(telegramtest.PrivateChat(ann), ann, "/start"))
	rec.waitFor(t, 1)
	calls := srv.CallsTo("getUpdates")
	if len(calls) < 3 || calls[0].OK() || calls[1].OK() {
		t.Fatalf("getUpdates calls %v; want two failures and then success", calls)
	}
	// A floor the backoff promises: a busy machine can only widen it.
	if gap := calls[2].At.Sub(calls[1].At); gap < 25*time.Millisecond {
		t.Errorf("second retry after %v, want the doubled backoff (32 to 40 ms)", gap)
	}
	if !strings.Contains(logs.String(), "Bad Gateway") {
		t.Errorf("failures not logged:\n%s", logs)
	}
}

func TestPollNetworkErrorsNeverShowTheToken(t *testing.T) {
	_, api := newAPI(t)
	api.SetAPIEndpoint("http://127.0.0.1:1/bot%s/%s")
	logs := &testkit.Buffer{}
	stop := poll(t, api, updates.PollOptions{Timeout: time.Second, MinBackoff: 10 * time.Millisecond, Logger: logger(logs)}, newRecorder().handle)
	logs.WaitFor("getUpdates failed", 10*time.Second)
	stop()
	out := logs.String()
	if !strings.Contains(out, "getUpdates failed") {
		t.Fatalf("no failure logged:\n%s", out)
	}
	if strings.Contains(out, api.Token) {
		t.Errorf("the log shows the token:\n%s", out)
	}
}

func TestPollReturnsWhenTheTokenIsRefused(t *testing.T) {
	srv, api := newAPI(t)
	srv.FailNext("getUpdates", 1, telegramtest.Failure{Code: 401, Description: "Unauthorized"})
	done := make(chan error, 1)
	go func() {
		done <- updates.Poll(t.Context(), api, updates.PollOptions{Timeout: time.Second}, newRecorder().handle)
	}()
	select {
	case err := <-done:
		if !errors.Is(err, updates.ErrUnauthorized) {
			t.Errorf("Poll: %v, want ErrUnauthorized", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Poll went on polling with a refused token")
	}
}

func TestPollSendsItsOptions(t *testing.T) {
	srv, api := newAPI(t)
	rec := newRecorder()
	poll(t, api, updates.PollOptions{Timeout: 3 * time.Second, Limit: 7, AllowedUpdates: []string{"message", "callback_query"}}, rec.handle)
	srv.PushUpdate(srv.TextMessage(telegramtest.PrivateChat(ann), ann, "/start"))
	rec.waitFor(t, 1)
	c := srv.CallsTo("getUpdates")[0]
	for k, want := range map[string]string{"timeout": "3", "limit": "7", "allowed_updates": `["message","callback_query"]`} {
		if got := c.Params[k]; got != want {
			t.Errorf("%s = %q, want %q", k, got, want)
		}
	}
}

func TestAPanickingHandlerDoesNotStopPolling(t *testing.T) {
	srv, api := newAPI(t)
	rec := newRecorder()
	logs := &testkit.Buffer{}
	handle := func(ctx context.Context, u tgbotapi.Update) {
		if u.Message.Text == "boom" {
			panic("boom")
		}
		rec.handle(ctx, u)
	}
	poll(t, api, updates.PollOptions{Timeout: time.Second, Logger: logger(logs)}, handle)
	srv.PushUpdate(srv.TextMessage(telegramtest.PrivateChat(ann), ann, "boom"))
	srv.PushUpdate(srv.TextMessage(telegramtest.PrivateChat(ann), ann, "after"))
	if got := rec.waitFor(t, 1); got[0].Message.Text != "after" {
		t.Errorf("handled %q", got[0].Message.Text)
	}
	if !strings.Contains(logs.String(), "panicked") {
		t.Errorf("panic not logged")
	}
}
