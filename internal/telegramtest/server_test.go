package telegramtest

import (
	"context"
	"encoding/json"
	"io"
	"mime/multipart"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"
)

func TestGetMe(t *testing.T) {
	srv := New(t)
	bot := newBot(t, srv)
	if got, want := bot.Self.UserName, DefaultUsername; got != want {
		t.Errorf("username = %q, want %q", got, want)
	}
	if !bot.Self.IsBot || bot.Self.ID != 123456 {
		t.Errorf("self = %+v, want a bot with id 123456", bot.Self)
	}
	calls := srv.CallsTo("getMe")
	if len(calls) != 1 || !calls[0].OK() {
		t.Errorf("getMe calls = %v, want one successful", calls)
	}
}

func TestOptions(t *testing.T) {
	srv := New(t, WithToken("777:OTHER"), WithUsername("other_bot"))
	bot := newBot(t, srv)
	if bot.Self.ID != 777 || bot.Self.UserName != "other_bot" {
		t.Errorf("self = %+v, want id 777 other_bot", bot.Self)
	}
}

func TestWrongToken(t *testing.T) {
	srv := New(t)
	_, err := tgbotapi.NewBotAPIWithAPIEndpoint("123456:WRONG", srv.Endpoint())
	e := apiError(t, err)
	if e.Code != http.StatusUnauthorized || e.Message != "Unauthorized" {
		t.Errorf("error = %d %q, want 401 Unauthorized", e.Code, e.Message)
	}
	if n := len(srv.Calls()); n != 0 {
		t.Errorf("recorded %d calls with a wrong token, want 0", n)
	}
}

func TestUnknownMethod(t *testing.T) {
	srv := New(t)
	bot := newBot(t, srv)
	_, err := bot.MakeRequest("frobnicate", nil)
	e := apiError(t, err)
	if e.Code != http.StatusNotFound || e.Message != "Not Found" {
		t.Errorf("error = %d %q, want 404 Not Found", e.Code, e.Message)
	}
}

func TestMethodNamesIgnoreCase(t *testing.T) {
	srv := New(t)
	bot := newBot(t, srv)
	if _, err := bot.MakeRequest("SENDMESSAGE", tgbotapi.Params{"chat_id": "5", "text": "hi"}); err != nil {
		t.Fatalf("SENDMESSAGE: %v", err)
	}
	if got := len(srv.CallsTo("sendMessage")); got != 1 {
		t.Errorf("calls to sendMessage = %d, want 1", got)
	}
}

// TestEncodings posts the same sendMessage in every encoding Telegram
// accepts and checks the fake reads each the same.
func TestEncodings(t *testing.T) {
	markup := `{"inline_keyboard":[[{"text":"A","callback_data":"a"}]]}`
	multipartBody := func() (string, io.Reader) {
		var b strings.Builder
		w := multipart.NewWriter(&b)
		_ = w.WriteField("chat_id", "42")
		_ = w.WriteField("text", "hello")
		_ = w.WriteField("reply_markup", markup)
		_ = w.Close()
		return w.FormDataContentType(), strings.NewReader(b.String())
	}
	tests := []struct {
		name string
		req  func(base string) *http.Request
	}{
		{"form", func(base string) *http.Request {
			v := url.Values{"chat_id": {"42"}, "text": {"hello"}, "reply_markup": {markup}}
			r, _ := http.NewRequest(http.MethodPost, base, strings.NewReader(v.Encode()))
			r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			return r
		}},
		{"multipart", func(base string) *http.Request {
			ct, body := multipartBody()
			r, _ := http.NewRequest(http.MethodPost, base, body)
			r.Header.Set("Content-Type", ct)
			return r
		}},
		{"json", func(base string) *http.Request {
			body := `{"chat_id":42,"text":"hello","reply_markup":` + markup + `}`
			r, _ := http.NewRequest(http.MethodPost, base, strings.NewReader(body))
			r.Header.Set("Content-Type", "application/json; charset=utf-8")
			return r
		}},
		{"query", func(base string) *http.Request {
			v := url.Values{"chat_id": {"42"}, "text": {"hello"}, "reply_markup": {markup}}
			r, _ := http.NewRequest(http.MethodGet, base+"?"+v.Encode(), nil)
			return r
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := New(t)
			resp, err := http.DefaultClient.Do(tt.req(srv.URL() + "/bot" + srv.Token() + "/sendMessage"))
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			var got struct {
				OK     bool             `json:"ok"`
				Result tgbotapi.Message `json:"result"`
			}
			if err := json.NewDecoder(resp.Body).Decode(&got); err != nil || !got.OK {
				t.Fatalf("answer ok=%v err=%v, want ok", got.OK, err)
			}
			if got.Result.Text != "hello" || got.Result.Chat.ID != 42 || got.Result.MessageID != 1 {
				t.Errorf("result = %+v, want message 1 \"hello\" in chat 42", got.Result)
			}
			c := srv.CallsTo("sendMessage")[0]
			if c.ChatID() != 42 || c.Text() != "hello" {
				t.Errorf("call chat=%d text=%q, want 42 \"hello\"", c.ChatID(), c.Text())
			}
			if kb := c.ReplyMarkup(); kb == nil || *kb.InlineKeyboard[0][0].CallbackData != "a" {
				t.Errorf("call markup = %v, want one button with data a", kb)
			}
		})
	}
}

// TestUploadWithoutFileName checks that a file part with an empty filename
// is still a file, as tgbotapi sends FileBytes{Name: ""}.
func TestUploadWithoutFileName(t *testing.T) {
	srv := New(t)
	bot := newBot(t, srv)
	if _, err := bot.Send(tgbotapi.NewDocument(7, tgbotapi.FileBytes{Bytes: []byte("data")})); err != nil {
		t.Fatalf("send: %v", err)
	}
	f, ok := srv.CallsTo("sendDocument")[0].Files["document"]
	if !ok || string(f.Data) != "data" || f.Name != "" {
		t.Errorf("file = %+v (present %v), want unnamed \"data\"", f, ok)
	}
}

func TestLatency(t *testing.T) {
	srv := New(t)
	bot := newBot(t, srv)
	const d = 50 * time.Millisecond
	srv.SetLatency(d)
	start := time.Now()
	for range 3 {
		sendText(t, bot, 1, "x", nil)
	}
	// Floors the fake promises: a busy machine can only widen them.
	if got := time.Since(start); got < 3*d {
		t.Errorf("3 sends took %v, want at least %v", got, 3*d)
	}
	calls := srv.CallsTo("sendMessage")
	for i := 1; i < len(calls); i++ {
		if gap := calls[i].At.Sub(calls[i-1].At); gap < d {
			t.Errorf("call %d came %v after the previous one, want at least %v", i, gap, d)
		}
	}
}

func TestLatencyReleasedByClient(t *testing.T) {
	srv := New(t)
	srv.SetLatency(time.Minute)
	ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, srv.URL()+"/bot"+srv.Token()+"/getMe", nil)
	if _, err := http.DefaultClient.Do(req); err == nil {
		t.Fatal("request succeeded, want the client's timeout")
	}
	// Cleanup must not wait a minute for the abandoned request.
}

func TestChatsAndMembers(t *testing.T) {
	srv := New(t)
	bot := newBot(t, srv)
	group := GroupChat(-100, "Club")
	srv.PushUpdate(srv.TextMessage(group, alice, "/start"))

	chat, err := bot.GetChat(tgbotapi.ChatInfoConfig{ChatConfig: tgbotapi.ChatConfig{ChatID: -100}})
	if err != nil || chat.Title != "Club" || chat.Type != "group" {
		t.Errorf("getChat = %+v, %v, want group Club", chat, err)
	}
	_, err = bot.GetChat(tgbotapi.ChatInfoConfig{ChatConfig: tgbotapi.ChatConfig{ChatID: -555}})
	wantRefusal(t, err, "Bad Request: chat not found")

	srv.SetChatMember(-100, bob.ID, "administrator")
	tests := []struct {
		user int64
		want string
	}{
		{alice.ID, "member"},
		{bob.ID, "administrator"},
		{srv.Bot().ID, "member"},
		{999, "left"},
	}
	for _, tt := range tests {
		m, err := bot.GetChatMember(tgbotapi.GetChatMemberConfig{ChatConfigWithUser: tgbotapi.ChatConfigWithUser{ChatID: -100, UserID: tt.user}})
		if err != nil || m.Status != tt.want || m.User.ID != tt.user {
			t.Errorf("getChatMember(%d) = %s %+v, %v, want %s", tt.user, m.Status, m.User, err, tt.want)
		}
	}
}

func TestStrictChats(t *testing.T) {
	srv := New(t, StrictChats())
	bot := newBot(t, srv)
	_, err := bot.Send(tgbotapi.NewMessage(alice.ID, "hi"))
	wantRefusal(t, err, "Bad Request: chat not found")
	srv.PushUpdate(srv.TextMessage(PrivateChat(alice), alice, "/start"))
	if _, err := bot.Send(tgbotapi.NewMessage(alice.ID, "hi")); err != nil {
		t.Errorf("send after /start: %v", err)
	}
}

func TestBlockedByUser(t *testing.T) {
	srv := New(t)
	bot := newBot(t, srv)
	sendText(t, bot, alice.ID, "hi", nil)
	srv.PushUpdate(tgbotapi.Update{MyChatMember: &tgbotapi.ChatMemberUpdated{
		Chat: PrivateChat(alice), From: alice,
		OldChatMember: tgbotapi.ChatMember{User: ptr(srv.Bot()), Status: "member"},
		NewChatMember: tgbotapi.ChatMember{User: ptr(srv.Bot()), Status: "kicked"},
	}})
	_, err := bot.Send(tgbotapi.NewMessage(alice.ID, "still there?"))
	if e := apiError(t, err); e.Code != http.StatusForbidden || e.Message != "Forbidden: bot was blocked by the user" {
		t.Errorf("error = %d %q, want 403 blocked", e.Code, e.Message)
	}
}

func ptr[T any](v T) *T { return &v }

func TestCommands(t *testing.T) {
	srv := New(t)
	bot := newBot(t, srv)
	cmds := []tgbotapi.BotCommand{{Command: "new", Description: "New game"}, {Command: "help", Description: "Help"}}
	if _, err := bot.Request(tgbotapi.NewSetMyCommandsWithScopeAndLanguage(tgbotapi.NewBotCommandScopeDefault(), "ru", cmds...)); err != nil {
		t.Fatalf("setMyCommands: %v", err)
	}
	if got := srv.Commands(tgbotapi.BotCommandScope{}, "ru"); len(got) != 2 || got[0] != cmds[0] {
		t.Errorf("commands = %v, want %v", got, cmds)
	}
	if got := srv.Commands(tgbotapi.BotCommandScope{}, ""); len(got) != 0 {
		t.Errorf("commands without language = %v, want none", got)
	}
	bad := []tgbotapi.BotCommand{{Command: "New Game", Description: "x"}}
	_, err := bot.Request(tgbotapi.NewSetMyCommands(bad...))
	wantRefusal(t, err, "Bad Request: BOT_COMMAND_INVALID")
	if _, err := bot.Request(tgbotapi.NewDeleteMyCommandsWithScopeAndLanguage(tgbotapi.NewBotCommandScopeDefault(), "ru")); err != nil {
		t.Fatalf("deleteMyCommands: %v", err)
	}
	if got := srv.Commands(tgbotapi.BotCommandScope{}, "ru"); len(got) != 0 {
		t.Errorf("commands after delete = %v, want none", got)
	}
}

func TestChatAction(t *testing.T) {
	srv := New(t)
	bot := newBot(t, srv)
	if _, err := bot.Request(tgbotapi.NewChatAction(1, tgbotapi.ChatUploadPhoto)); err != nil {
		t.Errorf("sendChatAction: %v", err)
	}
	_, err := bot.Request(tgbotapi.NewChatAction(1, "dancing"))
	wantRefusal(t, err, "Bad Request: wrong parameter action in request")
}
