package main

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/bashni/bashni/internal/telegramtest"
)

// A Russian group reads Russian: every text, caption, button and toast the
// bot gives the group through a whole game (challenge, accept, moves, a
// draw offer declined and one accepted, the result, a rematch offered and
// accepted), a team game's card, the puzzle of the day and a tournament's
// card, is Russian. Either because an administrator chose it with
// /lang (the players' own Telegram is English, and a member who is not an
// administrator is refused), or because both players are Russian and the
// group chose nothing.
func TestE2ERussianGroupReadsRussian(t *testing.T) {
	for _, tc := range []struct {
		name   string
		lang   string // the players' Telegram language
		choose bool   // an administrator sets /lang ru first
	}{
		{"chosen by an administrator", "en", true},
		{"the players' own", "ru", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := telegramtest.New(t)
			startBot(t, srv, map[string]string{"BASHNI_CLOCK_INTERVAL": "20ms"}) // the daily card at once
			group := telegramtest.GroupChat(-1004242424242, "Шашисты")
			alice, bob := newUser(1901, "Alice", tc.lang), newUser(1902, "Bob", tc.lang)
			if tc.choose {
				srv.SetChatMember(group.ID, alice.u.ID, "administrator")
				srv.SetChatMember(group.ID, bob.u.ID, "member")
				say(srv, group, bob, "/lang ru")
				waitMessage(t, srv, group.ID, "the refusal to a member", func(m telegramtest.Msg) bool {
					return m.FromBot && strings.Contains(m.Text, "Only the group's administrators")
				})
				say(srv, group, alice, "/lang ru")
				waitMessage(t, srv, group.ID, "the group's language set", func(m telegramtest.Msg) bool {
					return m.FromBot && strings.Contains(m.Text, "Язык группы: русский")
				})
			}
			from := len(srv.Calls())
			playRussianGame(t, srv, group, alice, bob)
			// The chat's game against the AI, and the puzzle of the day,
			// asked for by Bob.
			say(srv, group, bob, "/team 1")
			waitMessage(t, srv, group.ID, "the team game's card", func(m telegramtest.Msg) bool { return m.Kind == "photo" && buttonData(m, "tv|") != "" })
			toggleDaily(t, srv, group, bob, "Задача дня включена")
			waitMessage(t, srv, group.ID, "the daily card", isDaily)
			say(srv, group, bob, "/tournament 5+3 30m")
			waitMessage(t, srv, group.ID, "the tournament card", func(m telegramtest.Msg) bool { return m.FromBot && buttonData(m, "tj|") != "" })
			checkRussian(t, srv.Calls()[from:], group.ID)
		})
	}
}

// playRussianGame plays through everything a group is shown of a game:
// the challenge, its accept, two moves, a draw declined, a draw agreed, a
// rematch offered and accepted.
func playRussianGame(t *testing.T, srv *telegramtest.Server, group tgbotapi.Chat, alice, bob user) {
	t.Helper()
	c := startGroupGame(t, srv, group, alice, bob)
	pickFirstMove(t, srv, group, alice, c.ID)
	waitTurn(t, srv, group.ID, c.ID)
	pickFirstMove(t, srv, group, bob, c.ID)
	waitTurn(t, srv, group.ID, c.ID)
	answerDraw := func(by, to user, answer string) {
		say(srv, group, by, "/draw")
		m := waitMessage(t, srv, group.ID, "the card with the offer", func(m telegramtest.Msg) bool { return m.ID == c.ID && buttonData(m, answer) != "" })
		if toast := tap(t, srv, group, to, c.ID, buttonData(m, answer)); toast != "" && !isCyrillic(toast) {
			t.Errorf("the draw answer's toast %q", toast)
		}
	}
	answerDraw(bob, alice, "dn|")
	waitMessage(t, srv, group.ID, "the card without the offer", func(m telegramtest.Msg) bool { return m.ID == c.ID && buttonData(m, "dy|") == "" })
	answerDraw(alice, bob, "dy|")
	final := waitMessage(t, srv, group.ID, "the final card", func(m telegramtest.Msg) bool { return m.ID == c.ID && buttonData(m, "r|") != "" })
	tap(t, srv, group, alice, c.ID, buttonData(final, "r|"))
	offered := waitMessage(t, srv, group.ID, "the card with the rematch offer", func(m telegramtest.Msg) bool { return m.ID == c.ID && buttonData(m, "ry|") != "" })
	tap(t, srv, group, bob, c.ID, buttonData(offered, "ry|"))
	waitMessage(t, srv, group.ID, "the rematch's card", func(m telegramtest.Msg) bool { return m.Kind == "photo" && m.ID != c.ID })
}

// latinWord is a word a Russian text has no business with, but for the
// players' names; squares and moves (c3, c3-d4) are too short to match.
var latinWord = regexp.MustCompile(`[A-Za-z]{3,}`)

// notEnglish are the Latin words a Russian text may hold: the players,
// and the names of file formats and of the time zone.
var notEnglish = map[string]bool{"Alice": true, "Bob": true, "PDN": true, "GIF": true, "UTC": true}

// notWords are what a Russian text holds in Latin letters but that is no
// English: HTML, a command (/vote), an id (#o5lid6cc), a username.
var notWords = regexp.MustCompile(`<[^>]*>|&[a-z]+;|/[a-z]+|#\w+|@\w+`)

// checkRussian fails for each text the bot gave chatID (a message, a
// caption, a button, a media's caption, a toast) with a Latin word in it.
func checkRussian(t *testing.T, calls []telegramtest.Call, chatID int64) {
	t.Helper()
	checked := 0
	for _, c := range calls {
		if c.Method != "answerCallbackQuery" && c.ChatID() != chatID {
			continue
		}
		var texts []string
		for _, k := range []string{"text", "caption"} {
			if s := c.Params[k]; s != "" {
				texts = append(texts, s)
			}
		}
		texts = append(texts, jsonTexts(t, c.Params["reply_markup"], "text")...)
		texts = append(texts, jsonTexts(t, c.Params["media"], "caption")...)
		for _, s := range texts {
			checked++
			for _, w := range latinWord.FindAllString(notWords.ReplaceAllString(s, " "), -1) {
				if !notEnglish[w] {
					t.Errorf("%s to the group has %q: %q", c.Method, w, s)
					break
				}
			}
		}
	}
	if checked < 20 {
		t.Errorf("only %d texts checked in %d calls: the game was not played through", checked, len(calls))
	}
}

// jsonTexts is every string under key anywhere in a JSON parameter.
func jsonTexts(t *testing.T, raw, key string) []string {
	t.Helper()
	if raw == "" {
		return nil
	}
	var v any
	if err := json.Unmarshal([]byte(raw), &v); err != nil {
		t.Fatalf("a JSON parameter %q: %v", raw, err)
	}
	var out []string
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			for k, e := range x {
				if s, ok := e.(string); ok && k == key {
					out = append(out, s)
				}
				walk(e)
			}
		case []any:
			for _, e := range x {
				walk(e)
			}
		}
	}
	walk(v)
	return out
}

func isCyrillic(s string) bool {
	return strings.ContainsAny(strings.ToLower(s), "абвгдеёжзийклмнопрстуфхцчшщъыьэюя")
}

// Until a group chooses its language, a game's messages there are in its
// players' language when they share one, else in the challenger's; a
// command is answered in its sender's.
func TestE2EGroupLanguageUntilChosen(t *testing.T) {
	srv := telegramtest.New(t)
	startBot(t, srv, nil)
	for i, tc := range []struct {
		challenger, accepter string
		want                 string // a word of the card's caption
	}{
		{"ru", "ru", "Ход"},
		{"ru", "en", "Ход"},
		{"en", "ru", "Move"},
		{"en", "en", "Move"},
	} {
		group := telegramtest.GroupChat(-1004343434300-int64(i), "Group")
		white, black := newUser(int64(2001+2*i), "Alice", tc.challenger), newUser(int64(2002+2*i), "Bob", tc.accepter)
		c := startGroupGame(t, srv, group, white, black)
		if !strings.Contains(c.Text, tc.want) {
			t.Errorf("challenger %s, accepter %s: the card reads %q, want %q in it", tc.challenger, tc.accepter, c.Text, tc.want)
		}
	}
}
