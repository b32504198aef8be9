package outbox

import (
	"encoding/json"
	"errors"
	"io"
	"net/url"
	"syscall"
	"testing"
	"time"

	"github.com/bashni/bashni/bot/telegram"
	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"
)

func TestClassify(t *testing.T) {
	tests := []struct {
		name       string
		resp       *tgbotapi.APIResponse
		err        error
		want       outcome
		retryAfter time.Duration
	}{
		{"success", &tgbotapi.APIResponse{Ok: true}, nil, sent, 0},
		{"429", nil, &tgbotapi.Error{Code: 429, Message: "Too Many Requests: retry after 7", ResponseParameters: tgbotapi.ResponseParameters{RetryAfter: 7}}, tooMany, 7 * time.Second},
		{"429 from an upload, code only in the response", &tgbotapi.APIResponse{ErrorCode: 429}, &tgbotapi.Error{Message: "Too Many Requests: retry after 2", ResponseParameters: tgbotapi.ResponseParameters{RetryAfter: 2}}, tooMany, 2 * time.Second},
		{"403 known by its description alone", nil, &tgbotapi.Error{Message: "Forbidden: bot was blocked by the user"}, forbidden, 0},
		{"403", nil, &tgbotapi.Error{Code: 403, Message: "Forbidden: user is deactivated"}, forbidden, 0},
		{"not modified", nil, &tgbotapi.Error{Code: 400, Message: "Bad Request: message is not modified: specified new message content and reply markup are exactly the same"}, notModified, 0},
		{"other 400", nil, &tgbotapi.Error{Code: 400, Message: "Bad Request: chat not found"}, final, 0},
		{"401", nil, &tgbotapi.Error{Code: 401, Message: "Unauthorized"}, final, 0},
		{"502", nil, &tgbotapi.Error{Code: 502, Message: "Bad Gateway"}, transient, 0},
		{"error as a value", nil, tgbotapi.Error{Code: 429, Message: "Too Many Requests"}, tooMany, 0},
		{"wrapped", nil, telegram.Redact(&tgbotapi.Error{Code: 403, Message: "Forbidden: bot123:ABC"}, ""), forbidden, 0},
		{"network", nil, &url.Error{Op: "Post", URL: "http://x/bot1:A/sendMessage", Err: syscall.ECONNREFUSED}, transient, 0},
		{"proxy page", nil, &json.SyntaxError{}, transient, 0},
		{"cut answer", nil, io.ErrUnexpectedEOF, transient, 0},
		{"unbuildable request", nil, errors.New("json: unsupported type"), final, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, after := classify(tt.resp, tt.err)
			if got != tt.want || after != tt.retryAfter {
				t.Errorf("classify = %d, %v; want %d, %v", got, after, tt.want, tt.retryAfter)
			}
		})
	}
}

func TestDescribe(t *testing.T) {
	edit := tgbotapi.EditMessageTextConfig{BaseEdit: tgbotapi.BaseEdit{InlineMessageID: "inl"}, Text: "x"}
	photo := tgbotapi.NewPhoto(-100, tgbotapi.FileBytes{Name: "b.png"})
	tests := []struct {
		name string
		c    tgbotapi.Chattable
		want request
	}{
		{"message", tgbotapi.NewMessage(5, "x"), request{method: "sendMessage", chatID: 5}},
		{"pointer", &photo, request{method: "sendPhoto", chatID: -100}},
		{"edit", tgbotapi.NewEditMessageCaption(6, 1, "c"), request{method: "editMessageCaption", chatID: 6}},
		{"inline edit", edit, request{method: "editMessageText", inlineID: "inl"}},
		{"delete", tgbotapi.NewDeleteMessage(7, 3), request{method: "deleteMessage", unpaced: true, chatID: 7}},
		{"callback answer", tgbotapi.NewCallback("q", "t"), request{method: "answerCallbackQuery"}},
		{"chat action", tgbotapi.NewChatAction(8, tgbotapi.ChatTyping), request{method: "sendChatAction", unpaced: true, chatID: 8}},
		{"unlisted", tgbotapi.NewDiceWithEmoji(9, "🎲"), request{method: "Dice", chatID: 9}},
	}
	for _, tt := range tests {
		if got := describe(tt.c); got != tt.want {
			t.Errorf("%s: describe = %+v, want %+v", tt.name, got, tt.want)
		}
	}
}

func TestSilenced(t *testing.T) {
	m := tgbotapi.NewMessage(1, "x")
	s, ok := silenced(m).(tgbotapi.MessageConfig)
	if !ok || !s.DisableNotification || m.DisableNotification {
		t.Errorf("silenced message: %+v", s)
	}
	cb := tgbotapi.NewCallback("q", "t")
	if got := silenced(cb); got != tgbotapi.Chattable(cb) {
		t.Errorf("silenced callback answer changed: %+v", got)
	}
}

// A lazy edit of an inline message (no chat) is kept with its inline
// message, and comes back queued in that message's lane.
func TestLazyInlineReplyKeepsItsMessage(t *testing.T) {
	r := Reply{Lazy: json.RawMessage(`{"g":"g1","i":"inl-1"}`), InlineMessageID: "inl-1", Key: "card:i:inl-1:g1", Version: 4}
	data, err := encodeReply(r)
	if err != nil {
		t.Fatal(err)
	}
	back, err := decodeReply(data)
	if err != nil {
		t.Fatal(err)
	}
	if back.InlineMessageID != "inl-1" || string(back.Lazy) != string(r.Lazy) || back.Key != r.Key || back.Version != 4 {
		t.Fatalf("kept and brought back: %+v, want %+v", back, r)
	}
	o := New(nil, Options{})
	it, err := o.prepare(back)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := o.enqueue(it); err != nil {
		t.Fatal(err)
	}
	if it.lane == nil || it.lane.key != (laneKey{inline: "inl-1"}) {
		t.Errorf("queued in lane %+v, want the inline message's", it.lane)
	}
	if _, err := o.prepare(Reply{Lazy: r.Lazy}); err == nil {
		t.Error("a lazy reply with neither chat nor inline message was taken")
	}
}
