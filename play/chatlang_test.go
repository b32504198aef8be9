package play

import (
	"context"
	"testing"
	"time"

	"github.com/bashni/bashni/internal/testkit"
	"github.com/bashni/bashni/storage"
)

// A game in a group is made in the group's chosen language, else in its
// challenger's; choosing one rewrites it on the group's active games (not
// on games elsewhere or over), on both stores.
func TestGroupLanguage(t *testing.T) {
	for name, open := range replicaStores {
		t.Run(name, func(t *testing.T) {
			clock := testkit.NewClock(time.Now())
			s := New(open(t, clock.Now), nil, DefaultConfig, clock.Now)
			ctx := context.Background()
			start := func(chat int64, from, to storage.Player, lang string) *Game {
				t.Helper()
				c, err := s.Challenge(ctx, ChallengeRequest{ChatID: chat, From: from, Color: ColorWhite, Lang: lang})
				if err != nil {
					t.Fatal(err)
				}
				g, err := s.Accept(ctx, c.ID, to, "")
				if err != nil {
					t.Fatal(err)
				}
				return g
			}
			lang := func(g *Game) string {
				t.Helper()
				stored, err := s.Game(ctx, g.ID())
				if err != nil {
					t.Fatal(err)
				}
				return stored.Lang()
			}
			if l, err := s.ChatLang(ctx, -100); l != "" || err != nil {
				t.Errorf("a group that chose nothing: %q, %v; want none", l, err)
			}
			ru := start(-100, alice, bob, "ru")
			en := start(-100, carol, bob, "en")
			elsewhere := start(-200, alice, carol, "en")
			over := start(-100, carol, alice, "en")
			if _, err := s.Resign(ctx, over.ID(), carol.UserID); err != nil {
				t.Fatal(err)
			}
			for _, c := range []struct {
				g    *Game
				want string
			}{{ru, "ru"}, {en, "en"}, {elsewhere, "en"}} {
				if got := lang(c.g); got != c.want {
					t.Errorf("game %s before a choice: %q, want the challenger's %q", c.g.ID(), got, c.want)
				}
			}
			if err := s.SetChatLang(ctx, -100, "ru"); err != nil {
				t.Fatal(err)
			}
			if l, err := s.ChatLang(ctx, -100); l != "ru" || err != nil {
				t.Errorf("the group's language: %q, %v; want ru", l, err)
			}
			for _, c := range []struct {
				g    *Game
				want string
			}{{ru, "ru"}, {en, "ru"}, {elsewhere, "en"}, {over, "en"}} {
				if got := lang(c.g); got != c.want {
					t.Errorf("game %s after the group chose ru: %q, want %q", c.g.ID(), got, c.want)
				}
			}
			if got := lang(start(-100, carol, alice, "en")); got != "ru" {
				t.Errorf("a new game of an English challenger in the group: %q, want the group's ru", got)
			}
			if err := s.SetChatLang(ctx, alice.UserID, "ru"); err == nil {
				t.Errorf("a private chat took a language of its own")
			}
			if l, _ := s.ChatLang(ctx, alice.UserID); l != "" {
				t.Errorf("a private chat's language: %q, want none", l)
			}
		})
	}
}
