package main

import (
	"bytes"
	"context"
	"fmt"
	"image/png"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/bashni/bashni/internal/telegramtest"
	"github.com/bashni/bashni/internal/testkit"
)

// botProcess is `bashni bot` running inside the test through run, talking
// to the fake Bot API, with state in a real bbolt file (or Redis).
type botProcess struct {
	t      testing.TB
	srv    *telegramtest.Server
	env    map[string]string
	cancel context.CancelFunc
	done   chan error
	logs   *testkit.Buffer
}

// startBot runs the bot against srv. The environment is what a host would
// set: the token, the fake's endpoint, a store file; plus a cap on AI nodes
// so AI replies are instant in tests.
func startBot(t testing.TB, srv *telegramtest.Server, env map[string]string) *botProcess {
	t.Helper()
	return launch(t, srv, withDefaults(t, srv, env))
}

// withDefaults is the environment of a test bot, overridden by env.
func withDefaults(t testing.TB, srv *telegramtest.Server, env map[string]string) map[string]string {
	t.Helper()
	full := map[string]string{
		"TELEGRAM_BOT_TOKEN":    srv.Token(),
		"TELEGRAM_API_ENDPOINT": srv.Endpoint(),
		"BASHNI_BOLT_PATH":      filepath.Join(t.TempDir(), "bashni.db"),
		"BASHNI_POLL_TIMEOUT":   "1s",
		"BASHNI_AI_MAX_NODES":   "2000",
		"BASHNI_LOG_LEVEL":      "warn",
		// The fake Bot API has no rate limits; Telegram's pacing would make
		// a whole game take minutes.
		"BASHNI_RATE_PER_CHAT":  "1000",
		"BASHNI_RATE_PER_GROUP": "60000",
		"BASHNI_RATE_GLOBAL":    "1000",
		// Turn notices after every move, as most tests expect; the tests
		// of notices for players who are away set a delay.
		"BASHNI_NOTICE_DELAY": "0",
	}
	for k, v := range env {
		full[k] = v
	}
	return full
}

func launch(t testing.TB, srv *telegramtest.Server, env map[string]string) *botProcess {
	t.Helper()
	before := len(srv.CallsTo("getUpdates"))
	p := spawn(t, srv, env)
	srv.WaitFor(t, 10*time.Second, func(c telegramtest.Call) bool {
		return c.Method == "getUpdates" && len(srv.CallsTo("getUpdates")) > before
	})
	return p
}

// spawn runs the bot without waiting for it to be ready.
func spawn(t testing.TB, srv *telegramtest.Server, env map[string]string) *botProcess {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	p := &botProcess{t: t, srv: srv, env: env, cancel: cancel, done: make(chan error, 1), logs: &testkit.Buffer{}}
	go func() {
		p.done <- run(ctx, []string{"bot"}, environ(env), strings.NewReader(""), &bytes.Buffer{}, p.logs)
	}()
	t.Cleanup(func() { p.stop() })
	return p
}

// startBotNoWait is startBot for modes that never poll (webhook).
func startBotNoWait(t *testing.T, srv *telegramtest.Server, env map[string]string) *botProcess {
	t.Helper()
	return spawn(t, srv, withDefaults(t, srv, env))
}

// environ turns variables into the "KEY=value" lines run takes.
func environ(vars map[string]string) []string {
	out := make([]string, 0, len(vars))
	for k, v := range vars {
		out = append(out, k+"="+v)
	}
	return out
}

// stop shuts the bot down as SIGTERM would and checks it exits cleanly.
func (p *botProcess) stop() {
	p.t.Helper()
	if p.cancel == nil {
		return
	}
	p.cancel()
	p.cancel = nil
	select {
	case err := <-p.done:
		if err != nil {
			p.t.Errorf("bot exited with %v\nlogs:\n%s", err, p.logs.String())
		}
	case <-time.After(20 * time.Second):
		p.t.Errorf("bot did not stop within 20 s\nlogs:\n%s", p.logs.String())
	}
}

// restart stops the bot and starts it again on the same store.
func (p *botProcess) restart() *botProcess {
	p.t.Helper()
	p.stop()
	return launch(p.t, p.srv, p.env)
}

// user is a person in the test, with their private chat.
type user struct {
	u    tgbotapi.User
	chat tgbotapi.Chat
}

func newUser(id int64, name, lang string) user {
	u := telegramtest.User(id, name, strings.ToLower(name), lang)
	return user{u: u, chat: telegramtest.PrivateChat(u)}
}

// say sends text from a user in a chat.
func say(srv *telegramtest.Server, chat tgbotapi.Chat, from user, text string) {
	srv.PushUpdate(srv.TextMessage(chat, from.u, text))
}

// tap presses a button with data on a message and waits for the answer to
// the callback; it returns the toast text.
func tap(t *testing.T, srv *telegramtest.Server, chat tgbotapi.Chat, from user, messageID int, data string) string {
	t.Helper()
	u := srv.CallbackQuery(chat, from.u, messageID, data)
	srv.PushUpdate(u)
	return waitAnswer(t, srv, u.CallbackQuery.ID, data)
}

// waitAnswer waits until the callback query id is answered and returns the
// toast text.
func waitAnswer(t *testing.T, srv *telegramtest.Server, id, data string) string {
	t.Helper()
	var text string
	if !srv.WaitUntil(10*time.Second, func() bool {
		var ok bool
		text, _, ok = srv.CallbackAnswer(id)
		return ok
	}) {
		t.Fatalf("callback %q was never answered", data)
	}
	return text
}

// waitMessage waits until a message in chat satisfies ok and returns it.
func waitMessage(t testing.TB, srv *telegramtest.Server, chatID int64, what string, ok func(telegramtest.Msg) bool) telegramtest.Msg {
	t.Helper()
	return waitMessageWithin(t, srv, chatID, 15*time.Second, what, ok)
}

// waitMessageWithin is waitMessage giving up after timeout.
func waitMessageWithin(t testing.TB, srv *telegramtest.Server, chatID int64, timeout time.Duration, what string, ok func(telegramtest.Msg) bool) telegramtest.Msg {
	t.Helper()
	var found telegramtest.Msg
	if srv.WaitUntil(timeout, func() bool {
		for _, m := range srv.Messages(chatID) {
			if ok(m) {
				found = m
				return true
			}
		}
		return false
	}) {
		return found
	}
	var seen []string
	for _, m := range srv.Messages(chatID) {
		seen = append(seen, fmt.Sprintf("#%d %s %q deleted=%v edits=%d", m.ID, m.Kind, m.Text, m.Deleted, m.Edits))
	}
	t.Fatalf("no message in chat %d %s; messages:\n%s", chatID, what, strings.Join(seen, "\n"))
	return telegramtest.Msg{}
}

// card returns the current state of a game card.
func card(t *testing.T, srv *telegramtest.Server, chatID int64, id int) telegramtest.Msg {
	t.Helper()
	m, ok := srv.Message(chatID, id)
	if !ok {
		t.Fatalf("no message %d in chat %d", id, chatID)
	}
	return m
}

// buttons lists a message's buttons as (label, data).
// analyseButton is the callback data of a finished card's Analyse button.
func analyseButton(t *testing.T, final telegramtest.Msg) string {
	t.Helper()
	for _, b := range buttons(final) {
		if strings.HasPrefix(b[1], "an|") {
			return b[1]
		}
	}
	t.Fatalf("finished card has no Analyse button: %v", buttons(final))
	return ""
}

// firstPick is the data of a card's first picker button that is not Back
// (a square, or a whole move in a group's first stage), or "" if none.
func firstPick(m telegramtest.Msg) string {
	for _, b := range buttons(m) {
		if isPick(b[1]) && !isBack(b[1]) {
			return b[1]
		}
	}
	return ""
}

func buttons(m telegramtest.Msg) [][2]string {
	var out [][2]string
	if m.ReplyMarkup == nil {
		return nil
	}
	for _, row := range m.ReplyMarkup.InlineKeyboard {
		for _, b := range row {
			if b.CallbackData != nil {
				out = append(out, [2]string{b.Text, *b.CallbackData})
			}
		}
	}
	return out
}

// checkPNG decodes a board photo.
func checkPNG(t *testing.T, data []byte) {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("board photo is not a PNG: %v", err)
	}
	if b := img.Bounds(); b.Dx() < 300 || b.Dy() < 300 {
		t.Errorf("board photo is %v, too small to read", b)
	}
}

// isPick reports whether button data is a picker button.
func isPick(data string) bool { return strings.HasPrefix(data, "p|") }

// pickFirstMove plays the first legal move through the picker on a card,
// tapping as the player would: a tower, then a destination, then a path if
// several lead there. A picker stage past the first has a Back button
// (a pick of no squares); its absence after a tap means the move was made.
func pickFirstMove(t *testing.T, srv *telegramtest.Server, chat tgbotapi.Chat, from user, cardID int) {
	t.Helper()
	for taps := 0; taps < 3; taps++ {
		m := card(t, srv, chat.ID, cardID)
		data := firstPick(m)
		if data == "" {
			t.Fatalf("card has no picker buttons: %q %v", m.Text, buttons(m))
		}
		edits := m.Edits
		if toast := tap(t, srv, chat, from, cardID, data); toast != "" {
			t.Fatalf("tap %q refused: %s", data, toast)
		}
		after := waitMessage(t, srv, chat.ID, "edited after a tap", func(x telegramtest.Msg) bool { return x.ID == cardID && x.Edits > edits })
		if !hasBack(after) {
			return
		}
	}
	t.Fatalf("no move after three taps")
}

func isBack(data string) bool { return isPick(data) && strings.HasSuffix(data, "|") }

func hasBack(m telegramtest.Msg) bool {
	for _, b := range buttons(m) {
		if isBack(b[1]) {
			return true
		}
	}
	return false
}

// waitListening waits for a bot's "listening" log line of each named HTTP
// server (the bot logs it once the port is bound, at level info).
func waitListening(t *testing.T, logs *testkit.Buffer, servers ...string) {
	t.Helper()
	for _, name := range servers {
		if !logs.WaitFor(`"msg":"listening","server":"`+name+`"`, 15*time.Second) {
			t.Fatalf("the %s server never listened\nlogs:\n%s", name, logs)
		}
	}
}

// startGroupGame starts a game in group: white challenges anyone as White,
// black accepts. It returns the card.
func startGroupGame(t *testing.T, srv *telegramtest.Server, group tgbotapi.Chat, white, black user) telegramtest.Msg {
	t.Helper()
	say(srv, group, white, "/challenge white")
	ch := waitMessage(t, srv, group.ID, "challenge", func(m telegramtest.Msg) bool { return m.FromBot && len(buttons(m)) > 0 })
	tap(t, srv, group, black, ch.ID, buttons(ch)[0][1])
	return waitMessage(t, srv, group.ID, "board card", func(m telegramtest.Msg) bool { return m.Kind == "photo" })
}

// resign sends /resign from a player in chat and confirms it on the
// question's button, wherever it came (the card, or a reply in chat).
func resign(t *testing.T, srv *telegramtest.Server, chat tgbotapi.Chat, from user) {
	t.Helper()
	say(srv, chat, from, "/resign")
	var data string
	q := waitMessage(t, srv, chat.ID, "the resign question", func(m telegramtest.Msg) bool {
		for _, b := range buttons(m) {
			if strings.HasPrefix(b[1], "rs|") && !m.Deleted {
				data = b[1]
				return true
			}
		}
		return false
	})
	if toast := tap(t, srv, chat, from, q.ID, data); toast != "" {
		t.Fatalf("resign confirmation refused: %s", toast)
	}
}

// chooseLevel answers the two-step level choice on message levels (the
// bands of levels, then a level) and returns the colour question that
// replaces it.
func chooseLevel(t *testing.T, srv *telegramtest.Server, chat tgbotapi.Chat, from user, levels telegramtest.Msg, level int) telegramtest.Msg {
	t.Helper()
	bands := buttons(levels)
	band := bands[(level-1)/6][1]
	tap(t, srv, chat, from, levels.ID, band)
	want := "l||-1|" + strconv.Itoa(level)
	waitMessage(t, srv, chat.ID, "the levels of a band", func(m telegramtest.Msg) bool {
		for _, b := range buttons(m) {
			if m.ID == levels.ID && b[1] == want {
				return true
			}
		}
		return false
	})
	tap(t, srv, chat, from, levels.ID, want)
	// The colours, then the rulesets under them.
	return waitMessage(t, srv, chat.ID, "colour picker", func(m telegramtest.Msg) bool {
		b := buttons(m)
		return m.ID == levels.ID && len(b) == 6 && strings.HasPrefix(b[0][1], "c|") && strings.HasPrefix(b[3][1], "v|")
	})
}
