package main

import (
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bashni/bashni/internal/telegramtest"
	"github.com/bashni/bashni/internal/testkit"
)

// buttonData is the data of the first button of m whose data starts with
// prefix, or "".
func buttonData(m telegramtest.Msg, prefix string) string {
	for _, b := range buttons(m) {
		if strings.HasPrefix(b[1], prefix) {
			return b[1]
		}
	}
	return ""
}

// saveBoard writes a board the chat showed to $BASHNI_ARTIFACTS/chat (else
// artifacts/chat at the top of the repository, not committed), for people
// to look at.
func saveBoard(t *testing.T, name string, png []byte) {
	t.Helper()
	dir := os.Getenv("BASHNI_ARTIFACTS")
	if dir == "" {
		dir = filepath.Join("..", "..", "artifacts")
	}
	dir = filepath.Join(dir, "chat")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name), png, 0o644); err != nil {
		t.Fatal(err)
	}
}

// A tower tapped in the picker is highlighted on a redrawn board, and the
// caption lists it top first; /rules says how a tower is read. In English
// and in Russian.
func TestE2ETowerTappedIsListedAndHighlighted(t *testing.T) {
	for _, tc := range []struct {
		lang, topFirst, reading string
	}{
		{"en", ", top first: ⚪", "Reading a tower in the picture"},
		{"ru", ", сверху вниз: ⚪", "Как читать башню на картинке"},
	} {
		t.Run(tc.lang, func(t *testing.T) {
			srv := telegramtest.New(t)
			startBot(t, srv, nil)
			alice := newUser(1101, "Alice", tc.lang)
			say(srv, alice.chat, alice, "/rules")
			waitMessage(t, srv, alice.chat.ID, "rules", func(m telegramtest.Msg) bool { return strings.Contains(m.Text, tc.reading) })

			c := startAIGame(t, srv, alice, "1 white")
			// Play until the picker's first stage offers a tower with several
			// moves ("c3 ▸"): in the first moves every move is a button.
			var tower string
			for moves := 0; tower == "" && moves < 30; moves++ {
				m := waitTurn(t, srv, alice.chat.ID, c.ID)
				if gameOver(m) {
					t.Skip("the game ended before a tower with several moves came up")
				}
				for _, b := range buttons(m) {
					if isPick(b[1]) && strings.HasSuffix(b[0], "▸") && !strings.HasPrefix(b[0], "⚔") {
						tower = b[1]
					}
				}
				if tower == "" {
					pickFirstMove(t, srv, alice.chat, alice, c.ID)
				}
			}
			if tower == "" {
				t.Fatal("no tower with several quiet moves in 30 moves")
			}
			before := card(t, srv, alice.chat.ID, c.ID)
			if toast := tap(t, srv, alice.chat, alice, c.ID, tower); toast != "" {
				t.Fatalf("tower tap refused: %s", toast)
			}
			after := waitMessage(t, srv, alice.chat.ID, "the card after the tower tap", func(m telegramtest.Msg) bool {
				return m.ID == c.ID && m.Edits > before.Edits && hasBack(m)
			})
			if !strings.Contains(after.Text, tc.topFirst) {
				t.Errorf("caption after the tap %q does not list the tower (%q)", after.Text, tc.topFirst)
			}
			if string(after.Data) == string(before.Data) {
				t.Error("the board was not redrawn with the tapped tower highlighted")
			}
			checkPNG(t, after.Data)
			saveBoard(t, "tower_tapped_"+tc.lang+".png", after.Data)
			t.Logf("caption: %q", after.Text)
		})
	}
}

// /resign asks first, in a reply to the command where the asker typed it
// (the card may be far up the chat): the question and its confirm button
// name the asker, only they can answer, a second button withdraws, and
// the question is taken away when its 30 s are up by the bot's clock.
func TestE2EResignAsksFirst(t *testing.T) {
	for _, tc := range []struct {
		lang, ask, yes, notYours, kept, expired string
	}{
		{"en", "Bob, resign your game against Alice?", "🏳 Bob: yes, resign", "Only the player who asked", "The game goes on", "has expired"},
		{"ru", "Bob, сдать партию против Alice?", "🏳 Bob: да, сдаюсь", "Ответить может только", "Партия продолжается", "Вопрос устарел"},
	} {
		t.Run(tc.lang, func(t *testing.T) {
			srv := telegramtest.New(t)
			clock := testkit.NewClock(time.Now())
			startBotWithClock(t, srv, clock)
			group := telegramtest.GroupChat(-1001100000001, "Club")
			alice, bob := newUser(1201, "Alice", tc.lang), newUser(1202, "Bob", tc.lang)
			c := startGroupGame(t, srv, group, alice, bob)
			waitTurn(t, srv, group.ID, c.ID)
			// The first turn is called once the card is recorded: from then
			// on the bot knows where the card is, and still asks by a reply.
			waitMessage(t, srv, group.ID, "the turn notice", func(m telegramtest.Msg) bool { return m.FromBot && m.ReplyTo == c.ID })

			ask := func() telegramtest.Msg {
				t.Helper()
				cmd := srv.TextMessage(group, bob.u, "/resign")
				srv.PushUpdate(cmd)
				q := waitMessage(t, srv, group.ID, "the question in reply to /resign", func(m telegramtest.Msg) bool {
					return m.FromBot && m.ReplyTo == cmd.Message.MessageID && buttonData(m, "rs|") != ""
				})
				if !strings.Contains(q.Text, tc.ask) {
					t.Errorf("the question says %q; want %q", q.Text, tc.ask)
				}
				for _, b := range buttons(q) {
					if strings.HasPrefix(b[1], "rs|") && b[0] != tc.yes {
						t.Errorf("confirm button %q, want %q", b[0], tc.yes)
					}
				}
				if m := card(t, srv, group.ID, c.ID); buttonData(m, "rs|") != "" || gameOver(m) {
					t.Errorf("the card changed on /resign: %v", buttons(m))
				}
				return q
			}
			gone := func(q telegramtest.Msg, what string) {
				t.Helper()
				waitMessage(t, srv, group.ID, what, func(m telegramtest.Msg) bool { return m.ID == q.ID && m.Deleted })
			}

			q := ask()
			if toast := tap(t, srv, group, alice, q.ID, buttonData(q, "rs|")); !strings.Contains(toast, tc.notYours) {
				t.Errorf("the opponent's tap on the confirmation: toast %q, want %q", toast, tc.notYours)
			}
			if toast := tap(t, srv, group, bob, q.ID, buttonData(q, "rk|")); !strings.Contains(toast, tc.kept) {
				t.Errorf("keep playing: toast %q, want %q", toast, tc.kept)
			}
			gone(q, "the question withdrawn")

			// Unanswered, the question goes when its 30 s are up.
			q = ask()
			clock.Advance(31 * time.Second)
			gone(q, "the question expired")
			if toast := tap(t, srv, group, bob, q.ID, buttonData(q, "rs|")); !strings.Contains(toast, tc.expired) {
				t.Errorf("an expired confirmation: toast %q, want %q", toast, tc.expired)
			}
			if m := card(t, srv, group.ID, c.ID); gameOver(m) {
				t.Fatal("an expired confirmation ended the game")
			}

			q = ask()
			if toast := tap(t, srv, group, bob, q.ID, buttonData(q, "rs|")); toast != "" {
				t.Fatalf("confirmation refused: %s", toast)
			}
			// At move 0 the resignation aborts the game (play/abort.go).
			waitMessage(t, srv, group.ID, "the final card", func(m telegramtest.Msg) bool {
				return m.ID == c.ID && gameOver(m) && strings.Contains(m.Text, "🏁")
			})
			gone(q, "the question answered")
		})
	}
}

// The small frictions of the chat, in English and Russian: /lang takes
// its argument, /help lists /hint and /takeback, the settings name themes
// in the user's language and a tap on them pops no toast, and a rematch
// offer mentions the opponent.
func TestE2ESmallFrictions(t *testing.T) {
	for _, tc := range []struct {
		lang, other, set, classic, contrast string
	}{
		{"en", "ru", "Язык: русский.", "классическая", "контрастная"},
		{"ru", "en", "Language: English.", "classic", "high contrast"},
	} {
		t.Run(tc.lang, func(t *testing.T) {
			srv := telegramtest.New(t)
			startBot(t, srv, nil)
			alice := newUser(1301, "Alice", tc.lang)
			say(srv, alice.chat, alice, "/lang "+tc.other)
			waitMessage(t, srv, alice.chat.ID, "the language set", func(m telegramtest.Msg) bool { return m.Text == tc.set })
			say(srv, alice.chat, alice, "/help")
			waitMessage(t, srv, alice.chat.ID, "help with /hint and /takeback", func(m telegramtest.Msg) bool {
				return strings.Contains(m.Text, "/hint") && strings.Contains(m.Text, "/takeback")
			})
			say(srv, alice.chat, alice, "/settings")
			s := waitMessage(t, srv, alice.chat.ID, "settings", func(m telegramtest.Msg) bool { return strings.Contains(m.Text, tc.classic) })
			if toast := tap(t, srv, alice.chat, alice, s.ID, buttons(s)[0][1]); toast != "" {
				t.Errorf("a settings tap popped the toast %q; the message shows the change", toast)
			}
			waitMessage(t, srv, alice.chat.ID, "the next theme", func(m telegramtest.Msg) bool { return m.ID == s.ID && strings.Contains(m.Text, tc.contrast) })
		})
	}

	srv := telegramtest.New(t)
	startBot(t, srv, nil)
	group := telegramtest.GroupChat(-1001300000001, "Club")
	alice, bob := newUser(1311, "Alice", "en"), newUser(1312, "Bob", "en")
	c := startGroupGame(t, srv, group, alice, bob)
	waitTurn(t, srv, group.ID, c.ID)
	resign(t, srv, group, bob)
	final := waitMessage(t, srv, group.ID, "final card", func(m telegramtest.Msg) bool { return m.ID == c.ID && gameOver(m) })
	tap(t, srv, group, alice, c.ID, buttonData(final, "r|"))
	offer := srv.WaitFor(t, 10*time.Second, func(c telegramtest.Call) bool {
		return c.Method == "sendMessage" && strings.Contains(c.Text(), "rematch")
	})
	if want := "tg://user?id=" + strconv.FormatInt(bob.u.ID, 10); !strings.Contains(offer.Text(), want) || offer.Params["parse_mode"] != "HTML" {
		t.Errorf("rematch offer %q (%s) does not mention Bob (%s)", offer.Text(), offer.Params["parse_mode"], want)
	}
}

// In a group, a refused typed move spends none of the group's 20 messages
// a minute when the player has started the bot: a reaction on their
// message, the reason in their private chat. A player the bot cannot
// write to is answered in the group, as before. And the picker lists
// every move whole while there are at most 16.
func TestE2EGroupRefusalsSpendNoGroupMessage(t *testing.T) {
	for _, tc := range []struct {
		lang, why, notTurn string
	}{
		{"en", "cannot go there", "It's Alice's move"},
		{"ru", "так не ходит", "Сейчас ходит Alice"},
	} {
		t.Run(tc.lang, func(t *testing.T) {
			srv := telegramtest.New(t)
			startBot(t, srv, nil)
			group := telegramtest.GroupChat(-1001400000001, "Club")
			alice, bob := newUser(1401, "Alice", tc.lang), newUser(1402, "Bob", tc.lang)
			say(srv, alice.chat, alice, "/start") // Alice can be written to; Bob cannot
			waitMessage(t, srv, alice.chat.ID, "greeting", func(m telegramtest.Msg) bool { return m.FromBot })
			c := startGroupGame(t, srv, group, alice, bob)
			first := waitTurn(t, srv, group.ID, c.ID)
			for _, b := range buttons(first) {
				if isPick(b[1]) && len(strings.SplitN(b[1], "|", 4)[3]) < 2 {
					t.Errorf("the opening's picker in a group has a two-step button %q; want every move whole", b[0])
				}
			}

			botInGroup := func() int {
				n := 0
				for _, m := range srv.Messages(group.ID) {
					if m.FromBot && m.ID != c.ID {
						n++
					}
				}
				return n
			}
			before := botInGroup()
			wrong := srv.TextMessage(group, alice.u, "/m c3-c5")
			srv.PushUpdate(wrong)
			dm := waitMessage(t, srv, alice.chat.ID, "the reason, privately", func(m telegramtest.Msg) bool { return strings.Contains(m.Text, tc.why) })
			if !strings.Contains(dm.Text, "c3-c5") || !strings.Contains(dm.Text, "Club") {
				t.Errorf("the private reason %q does not say which move in which chat", dm.Text)
			}
			srv.WaitFor(t, 10*time.Second, func(call telegramtest.Call) bool {
				return call.Method == "setMessageReaction" && call.MessageID() == wrong.Message.MessageID && call.OK()
			})
			if m, _ := srv.Message(group.ID, wrong.Message.MessageID); m.Reaction != "👎" {
				t.Errorf("Alice's wrong move carries the reaction %q, want 👎", m.Reaction)
			}
			// Bob, whom the bot cannot write to, is answered in the group;
			// the group's replies keep their order, so by then any reply
			// about Alice's move would be there too.
			say(srv, group, bob, "/m f6-e5")
			waitMessage(t, srv, group.ID, "Bob's refusal in the group", func(m telegramtest.Msg) bool { return strings.Contains(m.Text, tc.notTurn) })
			if n := botInGroup() - before; n != 1 {
				t.Errorf("%d bot messages in the group for two refused moves, want 1 (Bob's)", n)
			}
		})
	}
}

// With the Mini App's HTTPS address configured, an inline game shows real
// boards by URL however the challenge was posted: no player started the
// bot and no media chat is set, yet the offer is the start board and each
// move a new picture, served by the bot at a URL naming the game and the
// board's version; nothing is uploaded anywhere.
func TestE2EInlineBoardsByURL(t *testing.T) {
	srv := telegramtest.New(t)
	addr := freeAddr(t)
	p := startBotNoWait(t, srv, map[string]string{
		"BASHNI_MINIAPP_URL":    "https://board.example.org/",
		"BASHNI_MINIAPP_NAME":   "board",
		"BASHNI_MINIAPP_LISTEN": addr,
		"BASHNI_LOG_LEVEL":      "info",
	})
	waitListening(t, p.logs, "miniapp")
	alice, bob := newUser(1501, "Alice", "en"), newUser(1502, "Bob", "en")

	q := srv.InlineQuery(alice.u, "")
	srv.PushUpdate(q)
	var results []json.RawMessage
	srv.WaitUntil(10*time.Second, func() bool {
		var ok bool
		results, ok = srv.InlineAnswer(q.InlineQuery.ID)
		return ok
	})
	if len(results) != 3 {
		t.Fatalf("inline answer has %d results", len(results))
	}
	var first struct {
		ID, Type string
		PhotoURL string `json:"photo_url"`
	}
	json.Unmarshal(results[0], &first)
	if first.Type != "photo" || first.PhotoURL != "https://board.example.org/board/start/0.png" {
		t.Errorf("the offer is a %s at %q; want the start board by URL", first.Type, first.PhotoURL)
	}
	chosen := srv.ChosenInlineResult(alice.u, first.ID, "")
	inlineID := chosen.ChosenInlineResult.InlineMessageID
	srv.PushUpdate(chosen)
	offer, _ := srv.InlineMessage(inlineID)
	tapInline(t, srv, bob, inlineID, buttonData(offer, "a|"))
	board := waitInline(t, srv, inlineID, "shows the game", func(m telegramtest.Msg) bool {
		return strings.Contains(m.MediaURL, "/0.png") && !strings.Contains(m.MediaURL, "/start/")
	})
	game, ok := strings.CutPrefix(board.MediaURL, "https://board.example.org/board/")
	if !ok || board.Kind != "photo" {
		t.Fatalf("the game's board is a %s at %q", board.Kind, board.MediaURL)
	}
	game, _, _ = strings.Cut(game, "/")

	// Alice moves; the picture is a new URL, one version on.
	m, _ := srv.InlineMessage(inlineID)
	data := buttonData(m, "p|")
	if toast := tapInline(t, srv, alice, inlineID, data); toast != "" {
		t.Fatalf("tap %q refused: %s (buttons %v)", data, toast, buttons(m))
	}
	moved := waitInline(t, srv, inlineID, "shows the move", func(m telegramtest.Msg) bool { return strings.HasSuffix(m.MediaURL, "/"+game+"/1.png") })
	if !strings.Contains(moved.Text, "Black to move") {
		t.Errorf("caption after the move: %q", moved.Text)
	}
	for _, c := range srv.Calls() {
		if c.Method == "sendPhoto" {
			t.Errorf("a board was uploaded (sendPhoto to %d): inline boards go by URL", c.ChatID())
		}
	}

	// The bot serves what the URLs name, for good; a version the game
	// never had is not found.
	for _, tc := range []struct {
		path string
		code int
	}{
		{"/board/start/0.png", 200}, {"/board/" + game + "/0.png", 200}, {"/board/" + game + "/1.png", 200},
		{"/board/" + game + "/2.png", 404}, {"/board/nosuchgame/0.png", 404},
	} {
		resp, err := http.Get("http://" + addr + tc.path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != tc.code {
			t.Errorf("GET %s: %d, want %d", tc.path, resp.StatusCode, tc.code)
			continue
		}
		if tc.code == 200 {
			checkPNG(t, body)
			if cc := resp.Header.Get("Cache-Control"); !strings.Contains(cc, "immutable") {
				t.Errorf("GET %s: Cache-Control %q; a version never changes", tc.path, cc)
			}
			if tc.path == "/board/"+game+"/1.png" {
				saveBoard(t, "inline_by_url.png", body)
			}
		}
	}
}

// Long polling names the update types the bot handles on every
// getUpdates: Telegram keeps the last list a token sent, and null keeps
// whatever another program once asked for.
func TestE2EPollingAsksForItsUpdates(t *testing.T) {
	srv := telegramtest.New(t)
	startBot(t, srv, nil)
	alice := newUser(1601, "Alice", "en")
	say(srv, alice.chat, alice, "/help")
	waitMessage(t, srv, alice.chat.ID, "help", func(m telegramtest.Msg) bool { return m.FromBot })
	calls := srv.CallsTo("getUpdates")
	if len(calls) == 0 {
		t.Fatal("no getUpdates")
	}
	for _, c := range calls {
		if got := c.Params["allowed_updates"]; got != `["message","callback_query","inline_query","poll_answer","chat_member"]` {
			t.Fatalf("getUpdates with allowed_updates %q, want the bot's list", got)
		}
	}
}

// Messages go out in the Bot API's current form: replies as
// reply_parameters, no link preview as link_preview_options, never the
// parameters the spec no longer lists (tgbotapi v5.5.1's), nor a null
// entities. A reply still arrives as a reply.
func TestE2EMessagesInTheCurrentBotAPI(t *testing.T) {
	srv := telegramtest.New(t)
	startBot(t, srv, nil)
	group := telegramtest.GroupChat(-1001700000001, "Club")
	alice, bob := newUser(1701, "Alice", "en"), newUser(1702, "Bob", "en")
	c := startGroupGame(t, srv, group, alice, bob) // the turn mention replies to the card
	waitTurn(t, srv, group.ID, c.ID)
	wrong := srv.TextMessage(group, bob.u, "/m f6-e5")
	srv.PushUpdate(wrong)
	refusal := waitMessage(t, srv, group.ID, "the refusal", func(m telegramtest.Msg) bool { return strings.Contains(m.Text, "Alice's move") })
	if refusal.ReplyTo != wrong.Message.MessageID {
		t.Errorf("the refusal replies to %d, want Bob's message %d", refusal.ReplyTo, wrong.Message.MessageID)
	}
	say(srv, group, alice, "/help")
	waitMessage(t, srv, group.ID, "help", func(m telegramtest.Msg) bool { return strings.Contains(m.Text, "/takeback") })
	resign(t, srv, group, bob)
	over := waitMessage(t, srv, group.ID, "the result message", func(m telegramtest.Msg) bool { return strings.Contains(m.Text, "Game over") })
	if over.ReplyTo != c.ID {
		t.Errorf("the result replies to %d, want the card %d", over.ReplyTo, c.ID)
	}
	var replies, noPreview int
	for _, call := range srv.CallsTo("sendMessage") {
		for _, old := range []string{"reply_to_message_id", "allow_sending_without_reply", "disable_web_page_preview", "entities"} {
			if _, ok := call.Params[old]; ok {
				t.Errorf("sendMessage with %s=%q: %.60q", old, call.Params[old], call.Text())
			}
		}
		if call.Params["reply_parameters"] != "" {
			replies++
		}
		if call.Params["link_preview_options"] == `{"is_disabled":true}` {
			noPreview++
		}
	}
	if replies == 0 || noPreview == 0 {
		t.Errorf("%d messages with reply_parameters and %d with link_preview_options; want some of each", replies, noPreview)
	}
}

// typingOnlyWhileThinking checks that every "typing" in chat went out while
// the card said the AI was thinking: the last board sent before it has the
// thinking line. "typing" lasts about 5 s on the phone, and an edit does
// not end it, so one sent after the AI's move shows over the player's turn.
func typingOnlyWhileThinking(t *testing.T, srv *telegramtest.Server, chatID int64) {
	t.Helper()
	var lastBoard string
	for _, c := range srv.Calls() {
		if c.ChatID() != chatID || !c.OK() {
			continue
		}
		switch c.Method {
		case "sendPhoto", "editMessageMedia":
			lastBoard = c.Text()
		case "sendChatAction":
			if !strings.Contains(lastBoard, "thinking") && !strings.Contains(lastBoard, "думает") {
				t.Errorf("\"typing\" sent while the card showed %q, not the AI thinking", lastBoard)
			}
		}
	}
}

// A slow search shows "typing", after the board that says the AI is
// thinking and never after its move.
func TestE2ETypingWhileTheAIThinks(t *testing.T) {
	srv := telegramtest.New(t)
	// A search of this size takes seconds under the race detector: long
	// enough for the thinking board and "typing" to go out.
	startBot(t, srv, map[string]string{"BASHNI_AI_MAX_NODES": "300000"})
	alice := newUser(1801, "Alice", "en")
	c := startAIGame(t, srv, alice, "18 white")
	waitTurn(t, srv, alice.chat.ID, c.ID)
	pickFirstMove(t, srv, alice.chat, alice, c.ID)
	waitTurn(t, srv, alice.chat.ID, c.ID)
	typingOnlyWhileThinking(t, srv, alice.chat.ID)
	t.Logf("%d typing actions in one search", len(srv.CallsTo("sendChatAction")))
}
