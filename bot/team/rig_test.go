package team

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/bashni/bashni/bot"
	"github.com/bashni/bashni/bot/telegram/outbox"
	"github.com/bashni/bashni/play"
	vote "github.com/bashni/bashni/play/team"
	"github.com/bashni/bashni/render"
	"github.com/bashni/bashni/storage/bolt"
)

// discard is a sender that sends nothing.
type discard struct{}

func (discard) Enqueue(outbox.Reply) error { return nil }

// newKit is the vocabulary of a bot with this module plugged in, as a
// module's handler is given it: a probe module's command, handled by the
// bot, hands it out.
func newKit(t *testing.T) *bot.Kit {
	t.Helper()
	st, err := bolt.Open(filepath.Join(t.TempDir(), "bashni.db"), time.Now)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	svc := play.New(st, nil, play.DefaultConfig, time.Now)
	var kit *bot.Kit
	probe := bot.Module{Name: "probe", Commands: map[string]bot.CommandFunc{"probe": func(_ context.Context, k *bot.Kit, _ bot.Command) error {
		kit = k
		return nil
	}}}
	b := bot.New(context.Background(), svc, st, discard{}, render.New(), bot.Config{Modules: []bot.Module{Module(vote.New(svc, st, nil)), probe}})
	chat := &tgbotapi.Chat{ID: -100, Type: "supergroup", Title: "Club"}
	b.Handle(context.Background(), tgbotapi.Update{UpdateID: 1, Message: &tgbotapi.Message{MessageID: 1, Chat: chat,
		From: &tgbotapi.User{ID: 1, FirstName: "Ann"}, Text: "/probe", Entities: []tgbotapi.MessageEntity{{Type: "bot_command", Length: 6}}}})
	if kit == nil {
		t.Fatal("the probe's command was not handled")
	}
	return kit
}
