package bot

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/bashni/bashni/play"
	"github.com/bashni/bashni/storage/bolt"
)

// With the Mini App configured every card (private, group, inline: they
// share keyboard) ends with the Open board link; without it, no button.
func TestOpenBoardButton(t *testing.T) {
	st, err := bolt.Open(filepath.Join(t.TempDir(), "b.db"), time.Now)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ctx := context.Background()
	svc := play.New(st, nil, play.DefaultConfig, time.Now)
	g, err := svc.NewAIGame(ctx, play.AIGameRequest{ChatID: 42, Human: play.Player{UserID: 42, Name: "Alice"}, Level: 1, Color: play.ColorWhite})
	if err != nil {
		t.Fatal(err)
	}
	link := "https://t.me/bashni_bot/board?startapp=" + g.ID()
	with := New(ctx, svc, nil, discardSender{}, &optionsRecorder{}, Config{BoardURL: func(id string) string { return "https://t.me/bashni_bot/board?startapp=" + id }})
	without := New(ctx, svc, nil, discardSender{}, &optionsRecorder{}, Config{})
	for _, v := range []cardView{{lang: "en"}, {lang: "ru", thinking: true}} {
		kb := with.keyboard(g, v)
		last := kb.InlineKeyboard[len(kb.InlineKeyboard)-1]
		if len(last) != 1 || last[0].URL == nil || *last[0].URL != link {
			t.Errorf("%+v: last row %+v; want the Open board link", v, last)
		}
		for _, row := range without.keyboard(g, v).InlineKeyboard {
			for _, b := range row {
				if b.URL != nil {
					t.Errorf("%+v: a URL button without the Mini App: %s", v, *b.URL)
				}
			}
		}
	}
}
