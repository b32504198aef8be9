package telegramtest

import (
	"net/http"
	"testing"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"
)

func TestLongPoll(t *testing.T) {
	srv := New(t)
	bot := newBot(t, srv)

	got := make(chan []tgbotapi.Update, 1)
	errc := make(chan error, 1)
	go func() {
		ups, err := bot.GetUpdates(tgbotapi.UpdateConfig{Timeout: 5})
		got <- ups
		errc <- err
	}()
	srv.WaitPolling(t, 10*time.Second)
	id := srv.PushUpdate(srv.TextMessage(PrivateChat(alice), alice, "hello"))

	select {
	case ups := <-got:
		if err := <-errc; err != nil {
			t.Fatalf("getUpdates: %v", err)
		}
		if len(ups) != 1 || ups[0].UpdateID != id || ups[0].Message.Text != "hello" {
			t.Fatalf("updates = %+v, want update %d \"hello\"", ups, id)
		}
	case <-time.After(3 * time.Second):
		t.Fatal("long poll did not return the pushed update")
	}

	// Without an offset the update is delivered again; the offset confirms it.
	ups, err := bot.GetUpdates(tgbotapi.UpdateConfig{})
	if err != nil || len(ups) != 1 {
		t.Fatalf("unconfirmed updates = %v, %v, want the same one", ups, err)
	}
	ups, err = bot.GetUpdates(tgbotapi.UpdateConfig{Offset: id + 1})
	if err != nil || len(ups) != 0 {
		t.Fatalf("updates after offset = %v, %v, want none", ups, err)
	}
	if n := srv.PendingUpdates(); n != 0 {
		t.Errorf("pending = %d after confirming, want 0", n)
	}
}

// A long poll with nothing to deliver waits for updates, then answers
// empty when its timeout is over.
func TestLongPollTimeout(t *testing.T) {
	srv := New(t)
	bot := newBot(t, srv)
	type answer struct {
		ups []tgbotapi.Update
		err error
	}
	done := make(chan answer, 1)
	go func() {
		ups, err := bot.GetUpdates(tgbotapi.UpdateConfig{Timeout: 1})
		done <- answer{ups, err}
	}()
	srv.WaitPolling(t, 10*time.Second) // it waits rather than answering at once
	select {
	case a := <-done:
		if a.err != nil || len(a.ups) != 0 {
			t.Fatalf("getUpdates = %v, %v, want none", a.ups, a.err)
		}
	case <-time.After(30 * time.Second): // a hang guard, far past the 1 s timeout
		t.Fatal("the long poll never ended")
	}
}

func TestGetUpdatesLimitAndOffset(t *testing.T) {
	srv := New(t)
	bot := newBot(t, srv)
	var ids []int
	for _, text := range []string{"a", "b", "c", "d"} {
		ids = append(ids, srv.PushUpdate(srv.TextMessage(PrivateChat(alice), alice, text)))
	}
	tests := []struct {
		name   string
		cfg    tgbotapi.UpdateConfig
		want   []int
		remain int
	}{
		{"limit", tgbotapi.UpdateConfig{Limit: 2}, ids[:2], 4},
		{"offset confirms", tgbotapi.UpdateConfig{Offset: ids[1]}, ids[1:], 3},
		{"negative offset keeps the last", tgbotapi.UpdateConfig{Offset: -1}, ids[3:], 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ups, err := bot.GetUpdates(tt.cfg)
			if err != nil {
				t.Fatal(err)
			}
			var got []int
			for _, u := range ups {
				got = append(got, u.UpdateID)
			}
			if !equal(got, tt.want) {
				t.Errorf("update ids = %v, want %v", got, tt.want)
			}
			if n := srv.PendingUpdates(); n != tt.remain {
				t.Errorf("pending = %d, want %d", n, tt.remain)
			}
		})
	}
}

func equal[T comparable](a, b []T) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestAllowedUpdates(t *testing.T) {
	srv := New(t)
	bot := newBot(t, srv)
	srv.PushUpdate(srv.InlineQuery(alice, "x"))
	msg := srv.PushUpdate(srv.TextMessage(PrivateChat(alice), alice, "hi"))
	ups, err := bot.GetUpdates(tgbotapi.UpdateConfig{AllowedUpdates: []string{"message", "callback_query"}})
	if err != nil || len(ups) != 1 || ups[0].UpdateID != msg {
		t.Fatalf("updates = %+v, %v, want only the message", ups, err)
	}
}

func TestSecondPollEndsFirst(t *testing.T) {
	srv := New(t)
	bot := newBot(t, srv)
	errc := make(chan error, 1)
	go func() {
		_, err := bot.GetUpdates(tgbotapi.UpdateConfig{Timeout: 10})
		errc <- err
	}()
	srv.WaitPolling(t, 10*time.Second)
	second := make(chan error, 1)
	go func() {
		_, err := bot.GetUpdates(tgbotapi.UpdateConfig{Timeout: 1})
		second <- err
	}()
	select {
	case err := <-errc:
		e := apiError(t, err)
		if e.Code != http.StatusConflict {
			t.Errorf("first poll: %d %q, want 409 Conflict", e.Code, e.Message)
		}
	case <-time.After(3 * time.Second):
		t.Fatal("first poll was not ended by the second")
	}
	if err := <-second; err != nil {
		t.Errorf("second poll: %v", err)
	}
}

func TestGetUpdatesWithWebhook(t *testing.T) {
	srv := New(t)
	bot := newBot(t, srv)
	if _, err := bot.MakeRequest("setWebhook", tgbotapi.Params{"url": "https://bot.example/hook"}); err != nil {
		t.Fatal(err)
	}
	_, err := bot.GetUpdates(tgbotapi.UpdateConfig{})
	if e := apiError(t, err); e.Code != http.StatusConflict {
		t.Errorf("getUpdates with a webhook: %d %q, want 409", e.Code, e.Message)
	}
}

func TestCommandEntities(t *testing.T) {
	srv := New(t, WithoutPrivacyMode())
	bot := newBot(t, srv)
	tests := []struct {
		text, command, args string
	}{
		{"/start", "start", ""},
		{"/move c3-d4", "move", "c3-d4"},
		{"/new@bashni_test_bot 8x8", "new", "8x8"},
		{"c3-d4", "", ""},
		{"hello /start", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			srv.PushUpdate(srv.TextMessage(GroupChat(-5, "g"), alice, tt.text))
			ups, err := bot.GetUpdates(tgbotapi.UpdateConfig{})
			if err != nil || len(ups) != 1 {
				t.Fatalf("updates = %v, %v, want one", ups, err)
			}
			m := ups[0].Message
			if got := m.Command(); got != tt.command {
				t.Errorf("Command() = %q, want %q", got, tt.command)
			}
			if got := m.CommandArguments(); got != tt.args {
				t.Errorf("CommandArguments() = %q, want %q", got, tt.args)
			}
			if _, err := bot.GetUpdates(tgbotapi.UpdateConfig{Offset: ups[0].UpdateID + 1}); err != nil {
				t.Fatal(err)
			}
		})
	}
}

func TestPrivacyMode(t *testing.T) {
	srv := New(t)
	bot := newBot(t, srv)
	group := GroupChat(-1001234567890, "Club")
	card := sendText(t, bot, group.ID, "board", nil)
	tests := []struct {
		name string
		u    tgbotapi.Update
		seen bool
	}{
		{"plain text", srv.TextMessage(group, alice, "c3-d4"), false},
		{"command", srv.TextMessage(group, alice, "/move c3-d4"), true},
		{"command for the bot", srv.TextMessage(group, alice, "/move@bashni_test_bot c3-d4"), true},
		{"command for another bot", srv.TextMessage(group, alice, "/move@other_bot c3-d4"), false},
		{"reply to the bot", srv.ReplyMessage(group, alice, card.MessageID, "c3-d4"), true},
		{"private text", srv.TextMessage(PrivateChat(alice), alice, "c3-d4"), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := srv.PushUpdate(tt.u) != 0; got != tt.seen {
				t.Errorf("delivered = %v, want %v", got, tt.seen)
			}
		})
	}
	off := New(t, WithoutPrivacyMode())
	if off.PushUpdate(off.TextMessage(group, alice, "c3-d4")) == 0 {
		t.Error("without privacy mode a group text was dropped")
	}
}

func TestReplyCarriesMessage(t *testing.T) {
	srv := New(t)
	bot := newBot(t, srv)
	kb := keyboard("x")
	card := sendText(t, bot, alice.ID, "board", &kb)
	srv.PushUpdate(srv.ReplyMessage(PrivateChat(alice), alice, card.MessageID, "c3-d4"))
	ups, err := bot.GetUpdates(tgbotapi.UpdateConfig{})
	if err != nil || len(ups) != 1 {
		t.Fatalf("updates = %v, %v", ups, err)
	}
	r := ups[0].Message.ReplyToMessage
	if r == nil || r.MessageID != card.MessageID || r.Text != "board" || r.From.ID != srv.Bot().ID {
		t.Fatalf("reply_to_message = %+v, want the bot's card", r)
	}
	if got, want := ups[0].Message.MessageID, card.MessageID+1; got != want {
		t.Errorf("user message id = %d, want %d (ids are shared per chat)", got, want)
	}
}

// TestCleanupReleasesLongPoll checks that a test ending during a long poll
// does not wait for the poll's timeout: the poll asks for 60 s, and the
// answer must come with the subtest's end, long before that.
func TestCleanupReleasesLongPoll(t *testing.T) {
	done := make(chan error, 1)
	t.Run("poll", func(t *testing.T) {
		srv := New(t)
		bot := newBot(t, srv)
		go func() {
			_, err := bot.GetUpdates(tgbotapi.UpdateConfig{Timeout: 60})
			done <- err
		}()
		srv.WaitPolling(t, 10*time.Second)
	})
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("released poll: %v, want an empty answer", err)
		}
	case <-time.After(30 * time.Second): // half the poll's own timeout: a hang guard
		t.Fatal("the long poll was not released by the test's cleanup")
	}
}

// A test may change an update after pushing it: the fake serves it as it
// was pushed.
func TestPushedUpdateIsKept(t *testing.T) {
	srv := New(t)
	bot := newBot(t, srv)
	u := srv.TextMessage(PrivateChat(alice), alice, "first")
	id := srv.PushUpdate(u)
	u.Message.Text, u.Message.From.FirstName = "changed", "Mallory"
	ups, err := bot.GetUpdates(tgbotapi.UpdateConfig{})
	if err != nil || len(ups) != 1 {
		t.Fatalf("getUpdates = %v, %v, want one update", ups, err)
	}
	if m := ups[0].Message; ups[0].UpdateID != id || m.Text != "first" || m.From.FirstName != "Alice" {
		t.Errorf("served update %d %q from %q, want %d %q from Alice", ups[0].UpdateID, m.Text, m.From.FirstName, id, "first")
	}
}
