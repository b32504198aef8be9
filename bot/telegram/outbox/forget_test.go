package outbox_test

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/bashni/bashni/bot/telegram/outbox"
	"github.com/bashni/bashni/internal/telegramtest"
)

// forgetting is a Journal that says which of its ids, in the order they
// were kept, the store has forgotten.
type forgetting struct {
	outbox.Journal
	mu        sync.Mutex
	kept      []string
	forgotten map[string]bool
}

func (j *forgetting) Append(ctx context.Context, owed [][]byte) ([]string, error) {
	ids, err := j.Journal.Append(ctx, owed)
	j.mu.Lock()
	j.kept = append(j.kept, ids...)
	j.mu.Unlock()
	return ids, err
}

func (j *forgetting) Ack(ctx context.Context, ids []string) error {
	err := j.Journal.Ack(ctx, ids)
	j.mu.Lock()
	for _, id := range ids {
		j.forgotten[id] = err == nil
	}
	j.mu.Unlock()
	return err
}

// A process killed the moment Telegram takes a chat's message must not
// send the chat's message before it again: when Telegram takes message
// i, the journal has forgotten message i-1 already. (Acks were written
// in the background, so a kill at message i could find i-1 still kept,
// and the next process sent it a second time: a card posted twice in
// TestE2ETeamPollSurvivesACrashMidSend under load.)
func TestAChatsMessageIsForgottenBeforeItsNextIsSent(t *testing.T) {
	srv, api := newAPI(t)
	st, _ := newJournalStore(t)
	user := telegramtest.User(42, "Ann", "", "en")
	chat := telegramtest.PrivateChat(user)
	srv.PushUpdate(srv.TextMessage(chat, user, "/start")) // a chat the fake knows

	j := &forgetting{Journal: outbox.StoreJournal(st, "p1", 10*time.Second, time.Hour), forgotten: map[string]bool{}}
	var mu sync.Mutex
	var keptWhenNextSent []string
	cancel := srv.OnMessage(func(c telegramtest.Call, m telegramtest.Msg) {
		var i int
		if _, err := fmt.Sscanf(m.Text, "m%d", &i); err != nil || i == 0 {
			return
		}
		j.mu.Lock()
		prev := j.kept[i-1]
		forgotten := j.forgotten[prev]
		j.mu.Unlock()
		if !forgotten {
			mu.Lock()
			keptWhenNextSent = append(keptWhenNextSent, fmt.Sprintf("m%d", i-1))
			mu.Unlock()
		}
	})
	defer cancel()

	opts, _ := fast()
	opts.Journal = j
	ob := outbox.New(api, opts)
	run(t, ob)
	const n = 20
	for i := range n {
		if err := ob.Enqueue(outbox.Reply{Req: tgbotapi.NewMessage(chat.ID, fmt.Sprintf("m%d", i)), ChatID: chat.ID}); err != nil {
			t.Fatal(err)
		}
	}
	flush(t, ob)
	j.mu.Lock()
	kept := len(j.kept)
	j.mu.Unlock()
	if kept != n {
		t.Fatalf("the journal kept %d messages, want %d", kept, n)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(keptWhenNextSent) > 0 {
		slices.Sort(keptWhenNextSent)
		t.Errorf("still kept by the journal when Telegram took the chat's next message: %v", keptWhenNextSent)
	}
}
