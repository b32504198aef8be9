package updates_test

import (
	"testing"

	"github.com/bashni/bashni/bot/telegram/updates"
	"github.com/bashni/bashni/internal/telegramtest"
	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"
)

func TestChatOf(t *testing.T) {
	srv := telegramtest.New(t)
	group := telegramtest.GroupChat(-1001234567890, "Club")
	private := telegramtest.PrivateChat(ann)
	tests := []struct {
		name string
		u    tgbotapi.Update
		want int64
	}{
		{"private message", srv.TextMessage(private, ann, "/start"), ann.ID},
		{"group command", srv.TextMessage(group, bob, "/challenge"), group.ID},
		{"edited message", tgbotapi.Update{EditedMessage: &tgbotapi.Message{Chat: &group}}, group.ID},
		{"channel post", tgbotapi.Update{ChannelPost: &tgbotapi.Message{Chat: &group}}, group.ID},
		{"tap on a group card", srv.CallbackQuery(group, bob, 1, "m:1"), group.ID},
		{"tap on an inline message", srv.CallbackOnInlineMessage(bob, "inl-1", "m:1"), 0},
		{"inline query", srv.InlineQuery(cleo, "play"), 0},
		{"chosen inline result", tgbotapi.Update{ChosenInlineResult: &tgbotapi.ChosenInlineResult{From: &cleo}}, 0},
		{"bot added to a group", tgbotapi.Update{MyChatMember: &tgbotapi.ChatMemberUpdated{Chat: group}}, group.ID},
		{"message without a chat", tgbotapi.Update{Message: &tgbotapi.Message{}}, 0},
		{"empty", tgbotapi.Update{}, 0},
	}
	for _, tt := range tests {
		if got := updates.ChatOf(tt.u); got != tt.want {
			t.Errorf("%s: ChatOf = %d, want %d", tt.name, got, tt.want)
		}
	}
}
