package main

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bashni/bashni/internal/telegramtest"
	"github.com/bashni/bashni/play"
	"github.com/bashni/bashni/rating"
	"github.com/bashni/bashni/storage"
	"github.com/bashni/bashni/storage/bolt"
)

// A rated game between two people ends and /stats shows the new Glicko-2
// ratings: Alice's Elo 1620 from before, carried over, goes up as
// Glicko-2 says with the game a period of its own; her line in the group,
// a newcomer's until then, too; both provisional ("?"), as /top shows,
// with the note that says what "?" means.
func TestE2EGameRatedWithGlicko(t *testing.T) {
	for _, tc := range []struct {
		lang, rating, group, game, explained, carried, note string
	}{
		{"en", "Alice: rating ", "In this group: ", " (1 game)", "Ratings are Glicko-2", "carried over once", "? — a provisional rating (deviation above 110)"},
		{"ru", "Alice: рейтинг ", "В этой группе: ", " (1 партия)", "по системе Глико-2", "перенесены один раз", "? — предварительный рейтинг (отклонение больше 110)"},
	} {
		t.Run(tc.lang, func(t *testing.T) {
			srv := telegramtest.New(t)
			path := filepath.Join(t.TempDir(), "bashni.db")
			alice, bob := newUser(9421, "Alice", tc.lang), newUser(9422, "Bob", tc.lang)
			st, err := bolt.Open(path, time.Now)
			if err != nil {
				t.Fatal(err)
			}
			elo := &storage.User{ID: alice.u.ID, Name: "Alice", Lang: tc.lang, Rating: 1620, Stats: storage.Stats{Games: 30, Wins: 20, Losses: 10}}
			if err := st.PutUser(t.Context(), elo); err != nil {
				t.Fatal(err)
			}
			st.Close()
			startBot(t, srv, map[string]string{"BASHNI_BOLT_PATH": path})
			group := telegramtest.GroupChat(-1005555504242, "Glicko club")

			c := startGroupGame(t, srv, group, alice, bob)
			say(srv, group, alice, "/m c3-d4")
			say(srv, group, bob, "/m f6-e5")
			waitMessage(t, srv, group.ID, "both moves on the card", func(m telegramtest.Msg) bool {
				return m.ID == c.ID && strings.Contains(m.Text, "1. c3-d4 f6-e5")
			})
			resign(t, srv, group, bob)
			waitMessage(t, srv, group.ID, "the final card", func(m telegramtest.Msg) bool { return m.ID == c.ID && gameOver(m) })

			global, _ := rating.Game(rating.FromElo(1620, play.StartRating), rating.New(play.StartRating), 1)
			inGroup, bobInGroup := rating.Game(rating.New(play.StartRating), rating.New(play.StartRating), 1)
			say(srv, group, alice, "/stats")
			waitMessage(t, srv, group.ID, "Alice's stats", func(m telegramtest.Msg) bool {
				return strings.Contains(m.Text, tc.rating+global.Shown()+"\n") &&
					strings.Contains(m.Text, tc.group+inGroup.Shown()+tc.game) &&
					strings.Contains(m.Text, tc.explained) && strings.Contains(m.Text, tc.carried)
			})
			if !strings.HasSuffix(global.Shown(), "?") || global.R <= 1620 {
				t.Errorf("Alice's rating after a win %+v: want above her Elo 1620 and still provisional", global)
			}
			say(srv, group, bob, "/top")
			waitMessage(t, srv, group.ID, "the group's board", func(m telegramtest.Msg) bool {
				return strings.Contains(m.Text, "1. Alice — "+inGroup.Shown()+tc.game) &&
					strings.Contains(m.Text, "2. Bob — "+bobInGroup.Shown()+tc.game) && strings.Contains(m.Text, tc.note)
			})
		})
	}
}
