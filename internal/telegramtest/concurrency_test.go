package telegramtest

import (
	"fmt"
	"sync"
	"testing"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"
)

// TestConcurrentUse drives the fake from many goroutines at once; run with
// -race.
func TestConcurrentUse(t *testing.T) {
	srv := New(t)
	bot := newBot(t, srv)
	const chats, perChat = 8, 10

	stop := make(chan struct{})
	var polled sync.WaitGroup
	polled.Go(func() { // a polling loop, as the bot runs one
		offset := 0
		for {
			select {
			case <-stop:
				return
			default:
			}
			ups, err := bot.GetUpdates(tgbotapi.UpdateConfig{Offset: offset, Timeout: 1})
			if err != nil {
				t.Errorf("getUpdates: %v", err)
				return
			}
			for _, u := range ups {
				offset = u.UpdateID + 1
			}
		}
	})

	var wg sync.WaitGroup
	for c := range chats {
		chatID := int64(c + 1)
		wg.Go(func() {
			for i := range perChat {
				m, err := bot.Send(tgbotapi.NewMessage(chatID, fmt.Sprint("move ", i)))
				if err != nil {
					t.Errorf("send: %v", err)
					return
				}
				if _, err := bot.Request(tgbotapi.NewEditMessageText(chatID, m.MessageID, fmt.Sprint("moved ", i))); err != nil {
					t.Errorf("edit: %v", err)
				}
			}
		})
		wg.Go(func() {
			for i := range perChat {
				srv.PushUpdate(srv.TextMessage(PrivateChat(User(chatID, "U", "", "")), User(chatID, "U", "", ""), fmt.Sprint("/m ", i)))
				_ = srv.Messages(chatID)
				_ = srv.Calls()
			}
		})
	}
	wg.Wait()
	srv.WaitCalls(t, "sendMessage", chats*perChat, 5*time.Second)
	srv.WaitConfirmed(t, 10*time.Second)
	close(stop)
	polled.Wait()

	if n := srv.PendingUpdates(); n != 0 {
		t.Errorf("pending updates = %d, want all confirmed", n)
	}
	for c := range chats {
		msgs := srv.Messages(int64(c + 1))
		if len(msgs) != 2*perChat {
			t.Errorf("chat %d has %d messages, want %d", c+1, len(msgs), 2*perChat)
		}
		for i, m := range msgs {
			if m.ID != i+1 {
				t.Errorf("chat %d message %d has id %d, want ids 1..n without gaps", c+1, i, m.ID)
				break
			}
		}
	}
}
