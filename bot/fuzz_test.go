package bot

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/bashni/bashni/ai"
	"github.com/bashni/bashni/play"
	"github.com/bashni/bashni/storage/bolt"
)

// FuzzHandleText: whatever people type — commands with any arguments,
// moves, nonsense — in a group or a private chat with a game going on, and
// whatever button data a client sends, the bot answers without panicking.
func FuzzHandleText(f *testing.F) {
	for _, s := range []string{"/start", "/play 3 black", "/play 99", "/challenge @nobody white", "/move c3-d4", "/m c3:e5:c7",
		"c3-d4", "/resign", "/draw", "/board", "/games", "/stats", "/top", "/lang", "/settings", "/move", "/challenge@other_bot",
		"p|abcdefghij|0|ab", "a|zz|-1|", "l||-1|7", "c|x|-1|white", "s||-1|theme", "ln||-1|ru", "r|nope|-1|", "\x00", "ссс"} {
		f.Add(s, false)
		f.Add(s, true)
	}
	st, err := bolt.Open(filepath.Join(f.TempDir(), "fuzz.db"), time.Now)
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { st.Close() })
	ctx := context.Background()
	svc := play.New(st, play.NewEnginePool(1, 1, ai.Limits{Nodes: 500}), play.DefaultConfig, time.Now)
	b := New(ctx, svc, nil, discardSender{}, &optionsRecorder{}, Config{Username: "bashni_test_bot"})
	alice := &tgbotapi.User{ID: 1, FirstName: "Alice", UserName: "alice"}
	private := &tgbotapi.Chat{ID: 1, Type: "private"}
	group := &tgbotapi.Chat{ID: -100, Type: "supergroup", Title: "g"}
	if _, err := svc.NewAIGame(ctx, play.AIGameRequest{ChatID: 1, Human: play.Player{UserID: 1, Name: "Alice"}, Level: 1, Color: play.ColorWhite}); err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, text string, inGroup bool) {
		chat := private
		if inGroup {
			chat = group
		}
		msg := &tgbotapi.Message{MessageID: 5, From: alice, Chat: chat, Text: text}
		if len(text) > 0 && text[0] == '/' {
			n := len(text)
			for i, r := range text {
				if r == ' ' {
					n = i
					break
				}
			}
			msg.Entities = []tgbotapi.MessageEntity{{Type: "bot_command", Offset: 0, Length: n}}
		}
		b.Handle(ctx, tgbotapi.Update{Message: msg})
		b.Handle(ctx, tgbotapi.Update{CallbackQuery: &tgbotapi.CallbackQuery{ID: "q", From: alice, Message: msg, Data: text}})
		b.Wait()
	})
}
