package review_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/bashni/bashni/ai"
	"github.com/bashni/bashni/bot"
	"github.com/bashni/bashni/bot/review"
	"github.com/bashni/bashni/bot/telegram/outbox"
	"github.com/bashni/bashni/internal/telegramtest"
	"github.com/bashni/bashni/internal/testkit"
	"github.com/bashni/bashni/play"
	playreview "github.com/bashni/bashni/play/review"
	"github.com/bashni/bashni/render"
	"github.com/bashni/bashni/storage"
	"github.com/bashni/bashni/storage/bolt"
	"github.com/bashni/bashni/texts"
)

// The Analyse button is the module's (the core's tap table no longer
// holds it: plugged in beside it, the module would be refused). Tapped on
// a game in progress, it says the analysis comes at the end; tapped on a
// finished one, it says the game is being analysed and the graph comes to
// the chat, captioned in the tapper's language.
func TestAnalyseIsTheModulesButton(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	srv := telegramtest.New(t)
	clock := testkit.NewClock(time.Now())
	st, err := bolt.Open(filepath.Join(t.TempDir(), "bashni.db"), clock.Now)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	pool := play.NewEnginePool(1, 1, ai.Limits{Nodes: 500})
	svc := play.New(st, pool, play.DefaultConfig, clock.Now)
	api, err := tgbotapi.NewBotAPIWithAPIEndpoint(srv.Token(), srv.Endpoint())
	if err != nil {
		t.Fatal(err)
	}
	out := outbox.New(api, outbox.Options{PerChat: 1000, PerGroup: 1000, Global: 1000})
	b := bot.New(ctx, svc, st, out, render.New(), bot.Config{Username: "bashni_test_bot", DrawsAtSend: true, Door: out,
		Modules: []bot.Module{review.Module(playreview.New(svc, st, pool))}})
	b.OutboxHooks().Install(out)
	svc.OnOwed(b.ShowDetached())
	go out.Run(ctx)
	t.Cleanup(b.Wait)

	group := telegramtest.GroupChat(-1005550077, "Club")
	olga := telegramtest.User(21, "Olga", "olga", "ru")
	white, black := storage.Player{UserID: 21, Name: "Olga"}, storage.Player{UserID: 22, Name: "Pavel"}
	c, err := svc.Challenge(ctx, play.ChallengeRequest{ChatID: group.ID, From: white, Color: play.ColorWhite})
	if err != nil {
		t.Fatal(err)
	}
	g, err := svc.Accept(ctx, c.ID, black, "pavel")
	if err != nil {
		t.Fatal(err)
	}
	words := texts.New()
	tap := func(update int) string {
		t.Helper()
		u := srv.CallbackQuery(group, olga, 1, bot.Callback{Kind: bot.KindAnalyse, ID: g.ID(), Ply: -1}.Encode())
		u.UpdateID = update
		b.Handle(ctx, u)
		answer := srv.WaitFor(t, 10*time.Second, func(c telegramtest.Call) bool {
			return c.Method == "answerCallbackQuery" && c.Params["callback_query_id"] == u.CallbackQuery.ID
		})
		return answer.Params["text"]
	}

	if got, want := tap(1), words.T("ru", "err_game_not_over"); got != want {
		t.Errorf("Analyse on a game in progress: toast %q, want %q", got, want)
	}
	for i, m := range []string{"c3-d4", "f6-e5"} {
		if _, err := svc.Move(ctx, g.ID(), []int64{white.UserID, black.UserID}[i], play.AnyPly, m); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := svc.Resign(ctx, g.ID(), white.UserID); err != nil {
		t.Fatal(err)
	}
	if got, want := tap(2), words.T("ru", "analysing"); got != want {
		t.Errorf("Analyse on a finished game: toast %q, want %q", got, want)
	}
	head := strings.SplitN(words.T("ru", "analysis_caption", "White", "Olga", "Black", "Pavel", "Result", ""), ",", 2)[0]
	if !srv.WaitUntil(20*time.Second, func() bool {
		for _, m := range srv.Messages(group.ID) {
			if m.FromBot && m.Kind == "photo" && strings.HasPrefix(m.Text, head) {
				return true
			}
		}
		return false
	}) {
		t.Fatalf("no analysis graph captioned %q… in the group: %+v", head, srv.Messages(group.ID))
	}
}
