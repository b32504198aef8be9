package bot

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/bashni/bashni/bot/telegram/outbox"
	"github.com/bashni/bashni/play"
	"github.com/bashni/bashni/render"
	"github.com/bashni/bashni/rules"
	"github.com/bashni/bashni/storage/bolt"
	"github.com/bashni/bashni/texts"
)

// optionsRecorder is a Renderer that remembers how it was asked to draw.
type optionsRecorder struct{ last render.Options }

func (r *optionsRecorder) PNG(_ rules.Position, o render.Options) ([]byte, error) {
	r.last = o
	return []byte("png"), nil
}

func (r *optionsRecorder) ReplayGIF(rules.Position, []rules.Move, render.Options) ([]byte, error) {
	return nil, nil
}

type discardSender struct{}

func (discardSender) Enqueue(outbox.Reply) error { return nil }

// A private game is drawn from the player's side in their theme, unless
// they chose White's view; group cards are from White's side.
func TestBoardFollowsUserSettings(t *testing.T) {
	st, err := bolt.Open(filepath.Join(t.TempDir(), "b.db"), time.Now)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ctx := context.Background()
	svc := play.New(st, nil, play.DefaultConfig, time.Now)
	rec := &optionsRecorder{}
	b := New(ctx, svc, nil, discardSender{}, rec, Config{})
	alice := play.Player{UserID: 42, Name: "Alice"}
	if _, err := svc.Touch(ctx, play.Profile{ID: 42, Name: "Alice", Private: true}); err != nil {
		t.Fatal(err)
	}
	g, err := svc.NewAIGame(ctx, play.AIGameRequest{ChatID: 42, Human: alice, Level: 1, Color: play.ColorBlack})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name      string
		theme     string
		flip      bool
		wantPersp rules.Color
		wantTheme string
	}{
		{"own side, classic", "", false, rules.Black, "classic"},
		{"White's view, contrast", "contrast", true, rules.White, "contrast"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := svc.UpdateUser(ctx, 42, func(u *play.User) { u.Theme, u.Flip = tt.theme, tt.flip }); err != nil {
				t.Fatal(err)
			}
			if _, err := b.boardPNG(g, cardView{}, ""); err != nil {
				t.Fatal(err)
			}
			theme := rec.last.Theme.Name
			if theme == "" {
				theme = "classic"
			}
			if rec.last.Perspective != tt.wantPersp || theme != tt.wantTheme {
				t.Errorf("drawn from %v in %q; want %v in %q", rec.last.Perspective, theme, tt.wantPersp, tt.wantTheme)
			}
		})
	}
}

// The caption lists a picked tower top first with each king in its place,
// which the picture's counts cannot show.
func TestTowerLine(t *testing.T) {
	b := &Bot{core: &core{texts: texts.New()}}
	for _, tc := range []struct {
		pos, lang, want string
	}{
		{"w:c3WwWbbBbb", "en", "🔎 c3, top first: ⚪♛ ⚪ ⚪♛ ⚫×2 ⚫♛ ⚫×2 (8 pieces)"},
		{"w:c3w", "en", "🔎 c3, top first: ⚪ (1 piece)"},
		{"b:c3bbwww", "ru", "🔎 c3, сверху вниз: ⚫×2 ⚪×3 (5 шашек)"},
	} {
		p := rules.MustParsePosition(tc.pos)
		s, _ := rules.ParseSquare("c3")
		if got := towerLine(b.texts, tc.lang, s, p.Tower(s)); got != tc.want {
			t.Errorf("%s in %s: %q, want %q", tc.pos, tc.lang, got, tc.want)
		}
	}
}
