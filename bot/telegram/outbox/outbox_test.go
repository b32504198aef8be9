package outbox_test

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bashni/bashni/bot/telegram/outbox"
	"github.com/bashni/bashni/internal/telegramtest"
	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"
)

func TestRepliesToOneChatKeepTheirOrder(t *testing.T) {
	srv, api := newAPI(t)
	srv.SetLatency(5 * time.Millisecond)
	opts, _ := fast()
	ob := outbox.New(api, opts)
	run(t, ob)

	var want []string
	for i := range 10 {
		text := "reply " + strconv.Itoa(i)
		want = append(want, text)
		if err := ob.Enqueue(outbox.Reply{Req: tgbotapi.NewMessage(42, text)}); err != nil {
			t.Fatalf("Enqueue: %v", err)
		}
	}
	flush(t, ob)
	if got := texts(srv.CallsTo("sendMessage")); !slices.Equal(got, want) {
		t.Errorf("sent %q, want %q", got, want)
	}
}

func TestDoneGetsTheSentMessage(t *testing.T) {
	srv, api := newAPI(t)
	opts, _ := fast()
	ob := outbox.New(api, opts)
	run(t, ob)
	res := newResults()

	if err := ob.Enqueue(outbox.Reply{Req: tgbotapi.NewMessage(42, "hello"), Done: res.done("send")}); err != nil {
		t.Fatal(err)
	}
	flush(t, ob)
	r := res.get(t, "send")
	if r.err != nil || r.msg == nil {
		t.Fatalf("Done(%v, %v), want a message and no error", r.msg, r.err)
	}
	m, ok := srv.Message(42, r.msg.MessageID)
	if !ok || m.Text != "hello" || r.msg.Chat == nil || r.msg.Chat.ID != 42 {
		t.Errorf("Done's message is %d in chat %v; the fake has %+v", r.msg.MessageID, r.msg.Chat, m)
	}

	// deleteMessage answers true, which Send could not decode.
	if err := ob.Enqueue(outbox.Reply{Req: tgbotapi.NewDeleteMessage(42, r.msg.MessageID), Done: res.done("delete")}); err != nil {
		t.Fatal(err)
	}
	flush(t, ob)
	if r := res.get(t, "delete"); r.err != nil || r.msg != nil {
		t.Errorf("delete: Done(%v, %v), want (nil, nil)", r.msg, r.err)
	}
	if m, _ := srv.Message(42, r.msg.MessageID); !m.Deleted {
		t.Errorf("message not deleted")
	}
}

func TestPacing(t *testing.T) {
	tests := []struct {
		name   string
		chat   int64
		group  bool
		opts   func(*outbox.Options)
		period time.Duration
	}{
		{"private chat at 20/s", 42, false, func(o *outbox.Options) { o.PerChat, o.PerChatBurst = 20, 1 }, 50 * time.Millisecond},
		{"group by its negative id at 10/s", -1001, false, func(o *outbox.Options) { o.PerGroup, o.PerGroupBurst = 10, 1 }, 100 * time.Millisecond},
		{"group by the Group flag at 10/s", 77, true, func(o *outbox.Options) { o.PerGroup, o.PerGroupBurst = 10, 1 }, 100 * time.Millisecond},
		{"global at 20/s", 42, false, func(o *outbox.Options) { o.Global, o.GlobalBurst = 20, 1 }, 50 * time.Millisecond},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			srv, api := newAPI(t)
			opts, _ := fast()
			tt.opts(&opts)
			ob := outbox.New(api, opts)
			run(t, ob)

			start := time.Now()
			for i := range 5 {
				if err := ob.Enqueue(outbox.Reply{Req: tgbotapi.NewMessage(tt.chat, strconv.Itoa(i)), Group: tt.group}); err != nil {
					t.Fatal(err)
				}
			}
			flush(t, ob)
			calls := srv.CallsTo("sendMessage")
			if len(calls) != 5 {
				t.Fatalf("%d calls, want 5", len(calls))
			}
			// The limiter grants the i-th token period×i after the first,
			// and the first no earlier than start; a request arrives after
			// its grant, by a jitter that varies. So the i-th arrival comes
			// no earlier than start + period×i, whereas the gap between two
			// arrivals may be shorter than the period.
			for i, c := range calls {
				if earliest := start.Add(time.Duration(i) * tt.period); c.At.Before(earliest) {
					t.Errorf("message %d sent %v after the start, want at least %v", i, c.At.Sub(start), earliest.Sub(start))
				}
			}
		})
	}
}

// A chat whose sends stall does not hold up the others: chat 1's first
// send is held by the fake until the other three chats have all of theirs.
func TestChatsProceedConcurrently(t *testing.T) {
	srv, api := newAPI(t)
	held, release := srv.HoldWhen(func(c telegramtest.Call) bool { return c.ChatID() == 1 })
	defer release()
	opts, _ := fast()
	opts.PerChat, opts.PerChatBurst = 10, 1
	ob := outbox.New(api, opts)
	run(t, ob)

	for i := range 4 {
		for chat := int64(1); chat <= 4; chat++ {
			if err := ob.Enqueue(outbox.Reply{Req: tgbotapi.NewMessage(chat, strconv.Itoa(i))}); err != nil {
				t.Fatal(err)
			}
		}
	}
	<-held
	others := srv.WaitCalls(t, "sendMessage", 12, 10*time.Second)
	for _, c := range others {
		if c.ChatID() == 1 {
			t.Fatalf("chat 1 sent while held: %v", c)
		}
	}
	release()
	flush(t, ob)
	if got := len(srv.CallsTo("sendMessage")); got != 16 {
		t.Errorf("%d calls, want 16", got)
	}
}

func TestFloodControlHoldsTheChatAndResends(t *testing.T) {
	srv, api := newAPI(t)
	opts, _ := fast()
	ob := outbox.New(api, opts)
	res := newResults()
	var failed atomic.Bool
	srv.FailWhen(func(c telegramtest.Call) bool {
		return c.Method == "sendMessage" && c.Text() == "card" && failed.CompareAndSwap(false, true)
	}, telegramtest.TooManyRequests(1))
	for _, text := range []string{"card", "notification"} {
		if err := ob.Enqueue(outbox.Reply{Req: tgbotapi.NewMessage(42, text), Done: res.done(text)}); err != nil {
			t.Fatal(err)
		}
	}
	// Another chat is not held.
	if err := ob.Enqueue(outbox.Reply{Req: tgbotapi.NewMessage(43, "elsewhere")}); err != nil {
		t.Fatal(err)
	}
	run(t, ob)
	flush(t, ob)

	calls := srv.CallsTo("sendMessage")
	var chat42 []telegramtest.Call
	for _, c := range calls {
		if c.ChatID() == 42 {
			chat42 = append(chat42, c)
		}
	}
	if got, want := texts(chat42), []string{"card", "card", "notification"}; !slices.Equal(got, want) {
		t.Fatalf("chat 42 got %q, want %q", got, want)
	}
	if chat42[0].Status != 429 || !chat42[1].OK() {
		t.Errorf("statuses %d, %d; want 429 then 200", chat42[0].Status, chat42[1].Status)
	}
	// Floors that retry_after sets: a busy machine can only widen them.
	if g := chat42[1].At.Sub(chat42[0].At); g < 950*time.Millisecond {
		t.Errorf("resent after %v, want after retry_after = 1 s", g)
	}
	if g := chat42[2].At.Sub(chat42[0].At); g < 950*time.Millisecond {
		t.Errorf("the chat's next reply went %v after the 429, want the chat held for 1 s", g)
	}
	for _, c := range calls {
		if c.ChatID() == 43 && c.At.After(chat42[1].At) {
			t.Errorf("another chat's message went out after chat 42's resend: it waited for chat 42's flood control")
		}
	}
	for _, name := range []string{"card", "notification"} {
		if r := res.get(t, name); r.err != nil || r.msg == nil {
			t.Errorf("%s: Done(%v, %v), want the message", name, r.msg, r.err)
		}
	}
}

func TestFloodControlGivesUpAfterMaxRetries(t *testing.T) {
	srv, api := newAPI(t)
	opts, _ := fast()
	opts.MaxRetries = -1
	ob := outbox.New(api, opts)
	run(t, ob)
	res := newResults()
	srv.FailNext("sendMessage", 1, telegramtest.TooManyRequests(1))
	if err := ob.Enqueue(outbox.Reply{Req: tgbotapi.NewMessage(42, "x"), Done: res.done("x")}); err != nil {
		t.Fatal(err)
	}
	flush(t, ob)
	r := res.get(t, "x")
	if e, ok := errors.AsType[*tgbotapi.Error](r.err); !ok || e.RetryAfter != 1 {
		t.Errorf("Done error %v, want the 429", r.err)
	}
	if n := len(srv.CallsTo("sendMessage")); n != 1 {
		t.Errorf("%d calls, want 1", n)
	}
}

func TestForbiddenStopsAndReportsTheUserOnce(t *testing.T) {
	srv, api := newAPI(t)
	opts, _ := fast()
	var blocked []int64
	var mu sync.Mutex
	opts.OnBlocked = func(id int64) {
		mu.Lock()
		defer mu.Unlock()
		blocked = append(blocked, id)
	}
	ob := outbox.New(api, opts)
	res := newResults()
	srv.FailNext("sendMessage", 1, telegramtest.Forbidden())
	for i := range 3 {
		name := "dm" + strconv.Itoa(i)
		if err := ob.Enqueue(outbox.Reply{Req: tgbotapi.NewMessage(7, name), UserID: 7, Done: res.done(name)}); err != nil {
			t.Fatal(err)
		}
	}
	run(t, ob)
	flush(t, ob)

	if n := len(srv.CallsTo("sendMessage")); n != 1 {
		t.Errorf("%d calls, want 1: no retry, and the queued DMs not tried", n)
	}
	mu.Lock()
	if !slices.Equal(blocked, []int64{7}) {
		t.Errorf("OnBlocked got %v, want [7]", blocked)
	}
	mu.Unlock()
	for i := range 3 {
		r := res.get(t, "dm"+strconv.Itoa(i))
		if e, ok := errors.AsType[*tgbotapi.Error](r.err); !ok || e.Code != 403 {
			t.Errorf("dm%d: Done error %v, want the 403", i, r.err)
		}
	}

	// A later reply is tried again: the user may have unblocked the bot.
	if err := ob.Enqueue(outbox.Reply{Req: tgbotapi.NewMessage(7, "later"), UserID: 7, Done: res.done("later")}); err != nil {
		t.Fatal(err)
	}
	flush(t, ob)
	if r := res.get(t, "later"); r.err != nil {
		t.Errorf("later: %v", r.err)
	}
}

func TestForbiddenByTheFakesChatModel(t *testing.T) {
	srv, api := newAPI(t)
	opts, _ := fast()
	var calls atomic.Int32
	opts.OnBlocked = func(int64) { calls.Add(1) }
	ob := outbox.New(api, opts)
	run(t, ob)
	srv.SetChatMember(9, srv.Bot().ID, "kicked")
	srv.SetChatMember(-5, srv.Bot().ID, "left")
	res := newResults()
	if err := ob.Enqueue(outbox.Reply{Req: tgbotapi.NewMessage(9, "hi"), UserID: 9, Done: res.done("hi")}); err != nil {
		t.Fatal(err)
	}
	// No UserID: a group that removed the bot; nobody to report.
	if err := ob.Enqueue(outbox.Reply{Req: tgbotapi.NewMessage(-5, "hi"), Done: res.done("group")}); err != nil {
		t.Fatal(err)
	}
	flush(t, ob)
	for _, name := range []string{"hi", "group"} {
		if r := res.get(t, name); r.err == nil {
			t.Errorf("%s: Done error nil, want 403", name)
		}
	}
	if n := calls.Load(); n != 1 {
		t.Errorf("OnBlocked called %d times, want 1", n)
	}
}

func TestMessageNotModifiedIsSuccess(t *testing.T) {
	srv, api := newAPI(t)
	opts, _ := fast()
	ob := outbox.New(api, opts)
	run(t, ob)
	res := newResults()
	if err := ob.Enqueue(outbox.Reply{Req: tgbotapi.NewMessage(42, "board"), Done: res.done("send")}); err != nil {
		t.Fatal(err)
	}
	flush(t, ob)
	sent := res.get(t, "send").msg
	if sent == nil {
		t.Fatal("no message")
	}
	// The fake refuses an edit to the same text, as Telegram does.
	if err := ob.Enqueue(outbox.Reply{Req: tgbotapi.NewEditMessageText(42, sent.MessageID, "board"), Done: res.done("edit")}); err != nil {
		t.Fatal(err)
	}
	flush(t, ob)
	if r := res.get(t, "edit"); r.err != nil || r.msg != nil {
		t.Errorf("Done(%v, %v), want (nil, nil)", r.msg, r.err)
	}
	edits := srv.CallsTo("editMessageText")
	if len(edits) != 1 || edits[0].Status != 400 || !strings.Contains(edits[0].Error, "message is not modified") {
		t.Errorf("edits %v, want one refused as not modified", edits)
	}
}

func TestTransientErrorsAreRetried(t *testing.T) {
	srv, api := newAPI(t)
	opts, _ := fast()
	opts.MaxRetries = 2
	ob := outbox.New(api, opts)
	run(t, ob)
	res := newResults()
	gateway := telegramtest.Failure{Code: 502, Description: "Bad Gateway"}

	srv.FailNext("sendMessage", 2, gateway)
	if err := ob.Enqueue(outbox.Reply{Req: tgbotapi.NewMessage(42, "a"), Done: res.done("a")}); err != nil {
		t.Fatal(err)
	}
	flush(t, ob)
	if r := res.get(t, "a"); r.err != nil {
		t.Errorf("after two 502s: %v, want success on the third attempt", r.err)
	}

	srv.FailNext("sendMessage", 3, gateway)
	if err := ob.Enqueue(outbox.Reply{Req: tgbotapi.NewMessage(42, "b"), Done: res.done("b")}); err != nil {
		t.Fatal(err)
	}
	flush(t, ob)
	if r := res.get(t, "b"); r.err == nil {
		t.Errorf("after three 502s with MaxRetries 2: success, want the error")
	}
	if n := len(srv.CallsTo("sendMessage")); n != 6 {
		t.Errorf("%d calls, want 3 + 3", n)
	}
}

func TestOtherBadRequestsAreNotRetried(t *testing.T) {
	srv, api := newAPI(t)
	opts, _ := fast()
	ob := outbox.New(api, opts)
	run(t, ob)
	res := newResults()
	srv.FailNext("sendMessage", 1, telegramtest.BadRequest("chat not found"))
	if err := ob.Enqueue(outbox.Reply{Req: tgbotapi.NewMessage(42, "a"), Done: res.done("a")}); err != nil {
		t.Fatal(err)
	}
	flush(t, ob)
	if r := res.get(t, "a"); r.err == nil || !strings.Contains(r.err.Error(), "chat not found") {
		t.Errorf("Done error %v, want chat not found", r.err)
	}
	if n := len(srv.CallsTo("sendMessage")); n != 1 {
		t.Errorf("%d calls, want 1", n)
	}
}

func TestNetworkErrorsNeverShowTheToken(t *testing.T) {
	_, api := newAPI(t)
	// Nothing listens on port 1: every request fails with a *url.Error
	// whose text holds the URL, token included.
	api.SetAPIEndpoint("http://127.0.0.1:1/bot%s/%s")
	opts, logs := fast()
	opts.MaxRetries = 1
	ob := outbox.New(api, opts)
	run(t, ob)
	res := newResults()
	var metricErr atomic.Value
	ob2 := outbox.New(api, func() outbox.Options {
		o := opts
		o.OnCall = func(_ string, err error, _ time.Duration) { metricErr.Store(fmt.Sprint(err)) }
		return o
	}())
	run(t, ob2)
	for _, o := range []*outbox.Outbox{ob, ob2} {
		if err := o.Enqueue(outbox.Reply{Req: tgbotapi.NewMessage(42, "a"), Done: res.done(fmt.Sprintf("%p", o))}); err != nil {
			t.Fatal(err)
		}
		flush(t, o)
	}
	token := api.Token
	r := res.get(t, fmt.Sprintf("%p", ob))
	if r.err == nil {
		t.Fatal("no error from a dead endpoint")
	}
	if strings.Contains(r.err.Error(), token) {
		t.Errorf("Done error shows the token: %v", r.err)
	}
	if !strings.Contains(r.err.Error(), "bot<redacted>") {
		t.Errorf("Done error %q does not show where the token was", r.err)
	}
	if out := logs.String(); strings.Contains(out, token) || !strings.Contains(out, "retrying") {
		t.Errorf("log shows the token or no retry:\n%s", out)
	}
	if s, _ := metricErr.Load().(string); s == "" || strings.Contains(s, token) {
		t.Errorf("OnCall got %q", s)
	}
}

func TestCallbackAnswersJumpTheQueue(t *testing.T) {
	srv, api := newAPI(t)
	opts, _ := fast()
	opts.PerChat, opts.PerChatBurst = 4, 1
	ob := outbox.New(api, opts)
	user := telegramtest.User(7, "Ann", "ann", "en")
	chat := telegramtest.PrivateChat(user)
	srv.PushUpdate(srv.TextMessage(chat, user, "/start"))
	up := srv.CallbackQuery(chat, user, 1, "tap")
	srv.PushUpdate(up)

	for i := range 4 {
		if err := ob.Enqueue(outbox.Reply{Req: tgbotapi.NewMessage(chat.ID, strconv.Itoa(i))}); err != nil {
			t.Fatal(err)
		}
	}
	res := newResults()
	if err := ob.Enqueue(outbox.Reply{Req: tgbotapi.NewCallback(up.CallbackQuery.ID, "ok"), ChatID: chat.ID, Done: res.done("answer")}); err != nil {
		t.Fatal(err)
	}
	run(t, ob)
	flush(t, ob)

	if r := res.get(t, "answer"); r.err != nil || r.msg != nil {
		t.Errorf("answer: Done(%v, %v), want (nil, nil)", r.msg, r.err)
	}
	if text, _, ok := srv.CallbackAnswer(up.CallbackQuery.ID); !ok || text != "ok" {
		t.Errorf("callback answered %v with %q", ok, text)
	}
	answer := srv.CallsTo("answerCallbackQuery")[0]
	sends := srv.CallsTo("sendMessage")
	if answer.At.After(sends[1].At) {
		t.Errorf("the answer went out after the second message (%v later); want it ahead of the paced messages", answer.At.Sub(sends[0].At))
	}
}

func TestSilentSetsDisableNotification(t *testing.T) {
	srv, api := newAPI(t)
	opts, _ := fast()
	ob := outbox.New(api, opts)
	run(t, ob)
	msg := tgbotapi.NewMessage(42, "quiet")
	ptr := tgbotapi.NewMessage(42, "quiet too")
	for _, r := range []outbox.Reply{
		{Req: msg, Silent: true},
		{Req: &ptr, Silent: true},
		{Req: tgbotapi.NewMessage(42, "loud")},
	} {
		if err := ob.Enqueue(r); err != nil {
			t.Fatal(err)
		}
	}
	flush(t, ob)
	calls := srv.CallsTo("sendMessage")
	for i, want := range []string{"true", "true", ""} {
		if got := calls[i].Params["disable_notification"]; got != want && !(want == "" && got == "false") {
			t.Errorf("%q: disable_notification = %q, want %q", calls[i].Text(), got, want)
		}
	}
	if msg.DisableNotification || ptr.DisableNotification {
		t.Errorf("Silent changed the caller's request")
	}
}

func TestShutdownDrainsTheQueue(t *testing.T) {
	srv, api := newAPI(t)
	srv.SetLatency(10 * time.Millisecond)
	opts, _ := fast()
	opts.PerChat, opts.PerChatBurst = 50, 1
	ob := outbox.New(api, opts)
	res := newResults()
	for chat := int64(1); chat <= 4; chat++ {
		for i := range 5 {
			name := fmt.Sprintf("%d/%d", chat, i)
			if err := ob.Enqueue(outbox.Reply{Req: tgbotapi.NewMessage(chat, name), Done: res.done(name)}); err != nil {
				t.Fatal(err)
			}
		}
	}
	stop := run(t, ob)
	if err := stop(); err != nil {
		t.Fatalf("Run: %v", err)
	}
	if n := len(srv.CallsTo("sendMessage")); n != 20 {
		t.Errorf("%d messages sent, want all 20", n)
	}
	for chat := int64(1); chat <= 4; chat++ {
		for i := range 5 {
			if r := res.get(t, fmt.Sprintf("%d/%d", chat, i)); r.err != nil {
				t.Errorf("%d/%d: %v", chat, i, r.err)
			}
		}
	}
	if err := ob.Enqueue(outbox.Reply{Req: tgbotapi.NewMessage(1, "late")}); !errors.Is(err, outbox.ErrClosed) {
		t.Errorf("Enqueue after Run: %v, want ErrClosed", err)
	}
}

func TestShutdownGivesUpAtTheDeadline(t *testing.T) {
	srv, api := newAPI(t)
	opts, _ := fast()
	opts.PerChat, opts.PerChatBurst = 4, 1
	opts.DrainTimeout = 300 * time.Millisecond
	ob := outbox.New(api, opts)
	res := newResults()
	for i := range 5 {
		if err := ob.Enqueue(outbox.Reply{Req: tgbotapi.NewMessage(42, strconv.Itoa(i)), Done: res.done(strconv.Itoa(i))}); err != nil {
			t.Fatal(err)
		}
	}
	// Five at 4/s take a second; the 0.3 s drain gives up before that,
	// which ErrShutdown says.
	err := run(t, ob)()
	if !errors.Is(err, outbox.ErrShutdown) {
		t.Errorf("Run: %v, want ErrShutdown", err)
	}
	sent := len(srv.CallsTo("sendMessage"))
	if sent > 3 {
		t.Errorf("%d sent in a 0.3 s drain at 4/s, want at most 3", sent)
	}
	for i := range 5 {
		r := res.get(t, strconv.Itoa(i))
		if want := i >= sent; errors.Is(r.err, outbox.ErrShutdown) != want {
			t.Errorf("reply %d: %v; want ErrShutdown = %v", i, r.err, want)
		}
	}
	if !strings.Contains(err.Error(), strconv.Itoa(5-sent)) {
		t.Errorf("Run's error %q does not count the %d lost", err, 5-sent)
	}
}

func TestEnqueueRefusesWhenTheChatQueueIsFull(t *testing.T) {
	_, api := newAPI(t)
	opts, _ := fast()
	opts.MaxQueue = 2
	ob := outbox.New(api, opts)
	for i, want := range []error{nil, nil, outbox.ErrQueueFull} {
		if err := ob.Enqueue(outbox.Reply{Req: tgbotapi.NewMessage(42, "x")}); !errors.Is(err, want) {
			t.Errorf("Enqueue %d: %v, want %v", i, err, want)
		}
	}
	if err := ob.Enqueue(outbox.Reply{Req: tgbotapi.NewMessage(43, "x")}); err != nil {
		t.Errorf("another chat: %v", err)
	}
	if err := ob.Enqueue(outbox.Reply{}); err == nil {
		t.Errorf("a reply without a request was accepted")
	}
}

func TestDoneMayEnqueue(t *testing.T) {
	srv, api := newAPI(t)
	opts, _ := fast()
	ob := outbox.New(api, opts)
	run(t, ob)
	err := ob.Enqueue(outbox.Reply{Req: tgbotapi.NewMessage(42, "first"), Done: func(m *tgbotapi.Message, err error) {
		if err := ob.Enqueue(outbox.Reply{Req: tgbotapi.NewEditMessageText(42, m.MessageID, "second")}); err != nil {
			t.Errorf("Enqueue from Done: %v", err)
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	flush(t, ob)
	if n := len(srv.CallsTo("editMessageText")); n != 1 {
		t.Errorf("Flush returned with %d edits, want the one Done enqueued", n)
	}
}

func TestPanickingCallbackIsContained(t *testing.T) {
	srv, api := newAPI(t)
	opts, logs := fast()
	ob := outbox.New(api, opts)
	run(t, ob)
	for _, text := range []string{"a", "b"} {
		if err := ob.Enqueue(outbox.Reply{Req: tgbotapi.NewMessage(42, text), Done: func(*tgbotapi.Message, error) { panic("boom") }}); err != nil {
			t.Fatal(err)
		}
	}
	flush(t, ob)
	if n := len(srv.CallsTo("sendMessage")); n != 2 {
		t.Errorf("%d sent, want 2", n)
	}
	if !strings.Contains(logs.String(), "boom") {
		t.Errorf("the panic was not logged")
	}
}

func TestConcurrentProducers(t *testing.T) {
	srv, api := newAPI(t)
	opts, _ := fast()
	ob := outbox.New(api, opts)
	run(t, ob)

	const chats, per = 12, 15
	var wg sync.WaitGroup
	var done atomic.Int32
	for c := range chats {
		wg.Go(func() {
			for i := range per {
				r := outbox.Reply{
					Req:  tgbotapi.NewMessage(int64(c+1), strconv.Itoa(i)),
					Done: func(*tgbotapi.Message, error) { done.Add(1) },
				}
				if c%2 == 0 {
					r.Req = tgbotapi.NewMessage(-int64(c+1), strconv.Itoa(i))
				}
				if err := ob.Enqueue(r); err != nil {
					t.Errorf("Enqueue: %v", err)
				}
			}
		})
		// Flushing concurrently with producers must not trip the race
		// detector either.
		wg.Go(func() { _ = ob.Flush(t.Context()) })
	}
	wg.Wait()
	flush(t, ob)
	if n := done.Load(); n != chats*per {
		t.Fatalf("%d Done calls, want %d", n, chats*per)
	}
	byChat := map[int64][]string{}
	for _, c := range srv.CallsTo("sendMessage") {
		byChat[c.ChatID()] = append(byChat[c.ChatID()], c.Text())
	}
	for chat, got := range byChat {
		for i, text := range got {
			if text != strconv.Itoa(i) {
				t.Errorf("chat %d got %q, want 0..%d in order", chat, got, per-1)
				break
			}
		}
	}
	if len(byChat) != chats {
		t.Errorf("%d chats reached, want %d", len(byChat), chats)
	}
}

// A keyed reply replaces the waiting one with its key, which is done with
// ErrSuperseded and never sent, and queues at the back: it is never sent
// ahead of a reply queued before it (a turn notice ahead of the board
// showing the move it announces). Replacing needs no room in a full queue.
func TestKeyedReplyReplacesTheWaitingOne(t *testing.T) {
	srv, api := newAPI(t)
	opts, _ := fast()
	opts.MaxQueue = 3
	ob := outbox.New(api, opts)
	res := newResults()
	enqueue := func(text, key string) {
		t.Helper()
		err := ob.Enqueue(outbox.Reply{Req: tgbotapi.NewMessage(-42, text), Key: key, Done: res.done(text)})
		if err != nil {
			t.Fatalf("Enqueue %q: %v", text, err)
		}
	}
	// Before Run, so that everything waits.
	enqueue("card 1", "card")
	enqueue("notice for Bob", "notice")
	enqueue("plain", "")
	enqueue("card 2", "card")
	enqueue("notice for Alice", "notice")
	run(t, ob)
	flush(t, ob)

	if got, want := texts(srv.CallsTo("sendMessage")), []string{"plain", "card 2", "notice for Alice"}; !slices.Equal(got, want) {
		t.Errorf("sent %q, want %q", got, want)
	}
	for _, text := range []string{"card 1", "notice for Bob"} {
		if r := res.get(t, text); !errors.Is(r.err, outbox.ErrSuperseded) || r.msg != nil {
			t.Errorf("%s: Done(%v, %v), want ErrSuperseded", text, r.msg, r.err)
		}
	}
	for _, text := range []string{"card 2", "notice for Alice", "plain"} {
		if r := res.get(t, text); r.err != nil || r.msg == nil {
			t.Errorf("%s: Done(%v, %v), want the sent message", text, r.msg, r.err)
		}
	}
}

// Deletions and chat actions are not messages: Telegram's per-chat and
// per-group limits do not count them, so a group whose pace is spent for
// the hour still gets them at once, in their place in the order.
func TestDeletionsAndChatActionsSpendNoPace(t *testing.T) {
	srv, api := newAPI(t)
	opts, _ := fast()
	opts.PerGroup, opts.PerGroupBurst = 1.0/3600, 1
	opts.PerChat, opts.PerChatBurst = 1.0/3600, 1
	ob := outbox.New(api, opts)
	run(t, ob)
	const group = -100777
	res := newResults()
	reqs := []tgbotapi.Chattable{
		tgbotapi.NewMessage(group, "spends the only token"),
		tgbotapi.NewDeleteMessage(group, 1),
		tgbotapi.NewChatAction(group, tgbotapi.ChatTyping),
		tgbotapi.NewDeleteMessage(group, 2),
	}
	for i, r := range reqs {
		if err := ob.Enqueue(outbox.Reply{Req: r, Done: res.done(strconv.Itoa(i))}); err != nil {
			t.Fatal(err)
		}
	}
	flush(t, ob) // with the deletions paced it would wait an hour
	if n := len(srv.CallsTo("deleteMessage")); n != 2 {
		t.Errorf("%d deletions sent, want 2", n)
	}
	if n := len(srv.CallsTo("sendChatAction")); n != 1 {
		t.Errorf("%d chat actions sent, want 1", n)
	}
	calls := srv.Calls()
	var order []string
	for _, c := range calls {
		if c.ChatID() == group {
			order = append(order, c.Method)
		}
	}
	if want := []string{"sendMessage", "deleteMessage", "sendChatAction", "deleteMessage"}; !slices.Equal(order, want) {
		t.Errorf("order %v, want %v", order, want)
	}
}

// A delayed keyed reply waits, and gives way to a newer one with its Key
// that comes meanwhile: only the newer is sent.
func TestDelayedReplyGivesWayToANewerOne(t *testing.T) {
	srv, api := newAPI(t)
	opts, _ := fast()
	ob := outbox.New(api, opts)
	run(t, ob)
	res := newResults()
	if err := ob.Enqueue(outbox.Reply{Req: tgbotapi.NewMessage(42, "thinking"), Key: "card", Delay: time.Hour, Done: res.done("old")}); err != nil {
		t.Fatal(err)
	}
	if err := ob.Enqueue(outbox.Reply{Req: tgbotapi.NewMessage(42, "reply"), Key: "card", Done: res.done("new")}); err != nil {
		t.Fatal(err)
	}
	flush(t, ob) // an hour, had the delayed one been waited for
	if r := res.get(t, "old"); !errors.Is(r.err, outbox.ErrSuperseded) {
		t.Errorf("the delayed reply: %v, want ErrSuperseded", r.err)
	}
	if got := texts(srv.CallsTo("sendMessage")); !slices.Equal(got, []string{"reply"}) {
		t.Errorf("sent %q, want only the newer reply", got)
	}
}

// A delayed reply nobody replaces is sent once its delay is over, and the
// replies behind it keep their order.
func TestDelayedReplyIsSentAfterItsDelay(t *testing.T) {
	srv, api := newAPI(t)
	opts, _ := fast()
	ob := outbox.New(api, opts)
	run(t, ob)
	for i, text := range []string{"first", "second"} {
		r := outbox.Reply{Req: tgbotapi.NewMessage(42, text)}
		if i == 0 {
			r.Key, r.Delay = "card", 20*time.Millisecond
		}
		if err := ob.Enqueue(r); err != nil {
			t.Fatal(err)
		}
	}
	flush(t, ob)
	if got := texts(srv.CallsTo("sendMessage")); !slices.Equal(got, []string{"first", "second"}) {
		t.Errorf("sent %q, want first, second", got)
	}
}
