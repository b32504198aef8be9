package bot_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/bashni/bashni/ai"
	"github.com/bashni/bashni/bot"
	"github.com/bashni/bashni/bot/telegram/outbox"
	"github.com/bashni/bashni/internal/telegramtest"
	"github.com/bashni/bashni/internal/testkit"
	"github.com/bashni/bashni/play"
	"github.com/bashni/bashni/storage/bolt"
)

// A game begun in the Mini App's lobby by a player who never started the
// bot, the AI playing White: Telegram refuses the card in their private
// chat, and the AI's first move, which waited for the card, is made at
// once, rather than when its claim runs out (15 s and a clock tick). The
// clock here never moves, so only the refusal can set the move off.
func TestRefusedFirstCardLetsTheAIMove(t *testing.T) {
	ctx := t.Context()
	srv := telegramtest.New(t)
	clock := testkit.NewClock(time.Now())
	st, err := bolt.Open(filepath.Join(t.TempDir(), "bashni.db"), clock.Now)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	svc := play.New(st, play.NewEnginePool(1, 1, ai.Limits{Nodes: 2000}), play.DefaultConfig, clock.Now)
	api, err := tgbotapi.NewBotAPIWithAPIEndpoint(srv.Token(), srv.Endpoint())
	if err != nil {
		t.Fatal(err)
	}
	out := outbox.New(api, outbox.Options{PerChat: 1000, PerGroup: 1000, Global: 1000,
		Journal: outbox.StoreJournal(st, "p1", time.Minute, 24*time.Hour)})
	b := wiredBot(ctx, svc, st, out, bot.Config{Username: "bashni_test_bot"})
	go out.Run(ctx)
	moved := make(chan string, 1)
	hooks := b.AIHooks()
	show := hooks.Moved
	hooks.Moved = func(ctx context.Context, o *play.Outcome) {
		show(ctx, o)
		moved <- o.Move.String()
	}
	go svc.RunAI(ctx, 1, hooks)

	dana := telegramtest.User(971, "Dana", "", "en")
	srv.SetChatMember(dana.ID, srv.Bot().ID, "kicked") // Telegram answers 403 to the bot there
	g, err := svc.NewAIGame(play.Detached(ctx), play.AIGameRequest{
		ChatID: dana.ID, Human: play.Player{UserID: dana.ID, Name: "Dana"}, Level: 1, Color: play.ColorBlack, OwesCard: true,
	})
	if err != nil {
		t.Fatal(err)
	}
	select {
	case m := <-moved:
		after, err := svc.Game(ctx, g.ID())
		if err != nil || after.Ply() != 1 {
			t.Fatalf("the AI played %s; the game is at ply %d (%v), want 1", m, after.Ply(), err)
		}
	case <-time.After(30 * time.Second):
		t.Fatalf("the AI never moved after its card was refused (Bot API calls: %v)", srv.Calls())
	}
	if n := len(srv.Messages(dana.ID)); n != 0 {
		t.Errorf("%d messages in Dana's chat; the bot may not write there", n)
	}
}
