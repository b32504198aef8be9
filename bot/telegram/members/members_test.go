package members

import (
	"errors"
	"testing"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"
)

// fakeAPI answers getChatMember from a table and counts the calls.
type fakeAPI struct {
	status map[int64]string
	err    error
	calls  int
}

func (f *fakeAPI) GetChatMember(c tgbotapi.GetChatMemberConfig) (tgbotapi.ChatMember, error) {
	f.calls++
	if f.err != nil {
		return tgbotapi.ChatMember{}, f.err
	}
	s, ok := f.status[c.UserID]
	if !ok {
		return tgbotapi.ChatMember{}, &tgbotapi.Error{Code: 400, Message: "Bad Request: user not found"}
	}
	return tgbotapi.ChatMember{Status: s}, nil
}

func TestIsMemberAsksOnceAndHears(t *testing.T) {
	api := &fakeAPI{status: map[int64]string{1: "member", 2: "left", 3: "administrator", 4: "kicked"}}
	c := New(api, 100, time.Hour)
	ctx := t.Context()
	for _, tc := range []struct {
		user int64
		want bool
	}{{1, true}, {2, false}, {3, true}, {4, false}, {5, false}} {
		for range 3 {
			if got, err := c.IsMember(ctx, -100, tc.user); err != nil || got != tc.want {
				t.Errorf("user %d: %v, %v; want %v", tc.user, got, err, tc.want)
			}
		}
	}
	if api.calls != 5 {
		t.Errorf("%d calls for 5 people asked 3 times each; want 5", api.calls)
	}
	c.Saw(-100, 1, "left", false) // a chat_member update: Alice left
	if got, _ := c.IsMember(ctx, -100, 1); got {
		t.Error("a member who left (chat_member) is still a member")
	}
	api.err = errors.New("network down")
	if _, err := c.IsMember(ctx, -200, 1); err == nil {
		t.Error("a failed call answered without an error")
	}
	api.err = nil
	if got, err := c.IsMember(ctx, -200, 1); err != nil || !got {
		t.Errorf("after a failure: %v, %v; want asked again and a member", got, err)
	}
}
