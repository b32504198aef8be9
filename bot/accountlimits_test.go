package bot_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/bashni/bashni/bot"
	"github.com/bashni/bashni/bot/standings"
	"github.com/bashni/bashni/bot/telegram/outbox"
	"github.com/bashni/bashni/internal/telegramtest"
	"github.com/bashni/bashni/play"
	"github.com/bashni/bashni/storage"
	"github.com/bashni/bashni/texts"
)

// longestUser is a user with the longest name Telegram allows: a first
// and a last name of 64 characters each, characters that count two UTF-16
// units (as Telegram counts a text) and one that HTML escapes.
func longestUser(id int64, lang string) tgbotapi.User {
	u := telegramtest.User(id, fmt.Sprintf("%02d", id%100)+strings.Repeat("😀", 62), fmt.Sprintf("user%d", id), lang)
	u.LastName = strings.Repeat("&", 64)
	return u
}

// refusedTexts lists the calls Telegram (the fake, which refuses what
// Telegram refuses) turned down for their size.
func refusedTexts(srv *telegramtest.Server) []string {
	var out []string
	for _, c := range srv.Calls() {
		if !c.OK() && strings.Contains(c.Error, "too long") {
			out = append(out, c.Method+": "+c.Error)
		}
	}
	return out
}

// botSaid is the bot's last message in chat whose text has want, "" if none.
func botSaid(srv *telegramtest.Server, chat int64, want string) string {
	text := ""
	for _, m := range srv.Messages(chat) {
		if m.FromBot && strings.Contains(m.Text, want) {
			text = m.Text
		}
	}
	return text
}

// /games, /stats, /top, /challenge's offer and the inline offers at their
// worst, in English and Russian: players with the longest names Telegram
// allows, in 40 games at once, a leaderboard full of them, a challenge to
// an "@name" as long as a message allows. Telegram takes each: a list is
// cut to its top with "… and N more", an @word no username can be is
// refused with a clear answer and no challenge.
func TestAccountTextsAtTheirWorstAreShown(t *testing.T) {
	for _, lang := range []string{"en", "ru"} {
		t.Run(lang, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			r := newBareRig(t, -1005550091, play.DefaultConfig)
			r.alice = longestUser(11, lang)
			alice := play.Player{UserID: r.alice.ID, Name: r.alice.FirstName + " " + r.alice.LastName}
			// The process as Main wires it, with /stats and /top.
			api, err := tgbotapi.NewBotAPIWithAPIEndpoint(r.srv.Token(), r.srv.Endpoint())
			if err != nil {
				t.Fatal(err)
			}
			out := outbox.New(api, outbox.Options{PerChat: 1000, PerGroup: 1000, Global: 1000,
				Journal: outbox.StoreJournal(r.store, "live", time.Minute, 24*time.Hour)})
			b := wiredBot(ctx, r.svc, r.store, out, bot.Config{Username: "bashni_test_bot", Modules: []bot.Module{standings.Module()}})
			go out.Run(ctx)
			say := func(chat tgbotapi.Chat, text string) {
				b.Handle(ctx, r.srv.TextMessage(chat, r.alice, text))
				settle(t, ctx, b, out)
			}
			private := telegramtest.PrivateChat(r.alice)
			say(private, "/start")

			// 40 games at once against opponents of the longest names.
			for i := range 40 {
				opp := longestUser(int64(100+i), lang)
				c, err := r.svc.Challenge(ctx, play.ChallengeRequest{ChatID: int64(-1005551000 - i), From: alice, Color: play.ColorWhite, Lang: lang})
				if err != nil {
					t.Fatal(err)
				}
				if _, err := r.svc.Accept(ctx, c.ID, play.Player{UserID: opp.ID, Name: opp.FirstName + " " + opp.LastName}, ""); err != nil {
					t.Fatal(err)
				}
				// A full leaderboard in the group, of such names.
				if err := r.store.SetStanding(ctx, r.group.ID, &storage.Standing{UserID: opp.ID, Name: opp.FirstName + " " + opp.LastName, Rating: float64(2000 - i), Games: 1000 + i}); err != nil {
					t.Fatal(err)
				}
			}
			say(private, "/games")
			more := map[string]string{"en": "more", "ru": "ещё"}[lang]
			if text := botSaid(r.srv, private.ID, "11😀"); !strings.Contains(text, more) {
				t.Errorf("/games of 40 games: %q; want the list cut to its top", text)
			}
			say(private, "/stats")
			say(r.group, "/top")
			if botSaid(r.srv, r.group.ID, "00😀") == "" {
				t.Errorf("/top of the longest names was not shown")
			}
			say(r.group, "/challenge white")
			say(r.group, "/challenge black @"+strings.Repeat("x", 32)) // the longest username
			say(r.group, "/challenge @"+strings.Repeat("x", texts.MessageLimit-len("/challenge @")))
			bad := map[string]string{"en": "not a Telegram username", "ru": "не может быть именем"}[lang]
			if botSaid(r.srv, r.group.ID, bad) == "" {
				t.Errorf("a challenge to an @name no username can be was not refused")
			}

			// The inline offers, answered as Telegram would show them.
			q := r.srv.InlineQuery(r.alice, "")
			r.srv.PushUpdate(q) // the fake learns the query to be answered; nobody polls
			b.Handle(ctx, q)
			settle(t, ctx, b, out)
			results, ok := r.srv.InlineAnswer(q.InlineQuery.ID)
			if !ok || len(results) == 0 {
				t.Fatal("the inline query was not answered")
			}
			for _, raw := range results {
				var res struct {
					Caption   string `json:"caption"`
					ParseMode string `json:"parse_mode"`
					Content   struct {
						Text      string `json:"message_text"`
						ParseMode string `json:"parse_mode"`
					} `json:"input_message_content"`
				}
				if err := json.Unmarshal(raw, &res); err != nil {
					t.Fatal(err)
				}
				if n := texts.TelegramLen(res.Caption, res.ParseMode); n > texts.CaptionLimit {
					t.Errorf("an inline offer's caption: %d characters", n)
				}
				if n := texts.TelegramLen(res.Content.Text, res.Content.ParseMode); n > texts.MessageLimit {
					t.Errorf("an inline offer's text: %d characters", n)
				}
			}
			if refused := refusedTexts(r.srv); len(refused) > 0 {
				t.Errorf("Telegram refused %v", refused)
			}
		})
	}
}
