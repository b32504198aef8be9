package main

import (
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/bashni/bashni/ai"
	"github.com/bashni/bashni/internal/telegramtest"
)

// waitTurn waits until a card offers the first picker stage (a human is to
// move) or the end-of-game buttons, and returns it.
func waitTurn(t *testing.T, srv *telegramtest.Server, chatID int64, cardID int) telegramtest.Msg {
	t.Helper()
	return waitMessage(t, srv, chatID, "waiting for a turn or the end", func(m telegramtest.Msg) bool {
		if m.ID != cardID {
			return false
		}
		for _, b := range buttons(m) {
			if strings.HasPrefix(b[1], "r|") || (isPick(b[1]) && !hasBack(m)) {
				return true
			}
		}
		return false
	})
}

func gameOver(m telegramtest.Msg) bool {
	for _, b := range buttons(m) {
		if strings.HasPrefix(b[1], "r|") {
			return true
		}
	}
	return false
}

// A whole game against the AI in a private chat, by taps only.
func TestE2EPrivateGameAgainstAI(t *testing.T) {
	srv := telegramtest.New(t)
	startBot(t, srv, nil)
	alice := newUser(101, "Alice", "en")

	say(srv, alice.chat, alice, "/start")
	greet := waitMessage(t, srv, alice.chat.ID, "greeting", func(m telegramtest.Msg) bool { return strings.Contains(m.Text, "Welcome") })
	if len(buttons(greet)) != 4 {
		t.Errorf("greeting buttons %v, want play AI, challenge, rules, settings", buttons(greet))
	}
	// The menu path: Play the AI → level → colour.
	tap(t, srv, alice.chat, alice, greet.ID, buttons(greet)[0][1])
	levels := waitMessage(t, srv, alice.chat.ID, "level picker", func(m telegramtest.Msg) bool { return strings.Contains(m.Text, "level") })
	// Two steps: a band of six levels, then a level; three rows each.
	if want := (len(ai.Levels) + 5) / 6; len(buttons(levels)) != want || len(levels.ReplyMarkup.InlineKeyboard) != want {
		t.Fatalf("level bands %v, want %d rows", buttons(levels), want)
	}
	colours := chooseLevel(t, srv, alice.chat, alice, levels, 1)
	tap(t, srv, alice.chat, alice, colours.ID, buttons(colours)[0][1]) // White

	c := waitMessage(t, srv, alice.chat.ID, "board card", func(m telegramtest.Msg) bool { return m.Kind == "photo" })
	checkPNG(t, c.Data)
	if !strings.Contains(c.Text, "Alice") || !strings.Contains(c.Text, "White to move") {
		t.Errorf("card caption %q", c.Text)
	}
	for moves := 0; moves < 200; moves++ {
		m := waitTurn(t, srv, alice.chat.ID, c.ID)
		if gameOver(m) {
			break
		}
		pickFirstMove(t, srv, alice.chat, alice, c.ID)
	}
	final := card(t, srv, alice.chat.ID, c.ID)
	if !gameOver(final) {
		t.Fatalf("no result after 200 moves: %q", final.Text)
	}
	checkPNG(t, final.Data)
	waitMessage(t, srv, alice.chat.ID, "result message", func(m telegramtest.Msg) bool { return strings.Contains(m.Text, "Game over") })
	typingOnlyWhileThinking(t, srv, alice.chat.ID)
	// The PDN button sends the record as a file.
	var pdn string
	for _, b := range buttons(final) {
		if strings.HasPrefix(b[1], "f|") {
			pdn = b[1]
		}
	}
	tap(t, srv, alice.chat, alice, c.ID, pdn)
	doc := srv.WaitFor(t, 10*time.Second, func(c telegramtest.Call) bool { return c.Method == "sendDocument" })
	if f := doc.Files["document"]; !strings.Contains(string(f.Data), `[White "Alice"]`) || !strings.Contains(string(f.Data), "1. ") {
		t.Errorf("PDN file %q: %q", f.Name, f.Data)
	}
}

// A group game: a challenge accepted, moves by taps and typed, turn notices,
// strangers and stale taps refused, a draw agreed, the leaderboard updated.
func TestE2EGroupGame(t *testing.T) {
	srv := telegramtest.New(t)
	startBot(t, srv, nil)
	group := telegramtest.GroupChat(-1001234567890, "Draughts club")
	alice, bob, carol := newUser(201, "Alice", "en"), newUser(202, "Bob", "en"), newUser(203, "Carol", "en")

	say(srv, bob.chat, bob, "/start") // Bob can be sent DMs; Alice cannot
	waitMessage(t, srv, bob.chat.ID, "greeting", func(m telegramtest.Msg) bool { return strings.Contains(m.Text, "Welcome") })

	say(srv, group, alice, "/challenge white")
	ch := waitMessage(t, srv, group.ID, "challenge", func(m telegramtest.Msg) bool { return strings.Contains(m.Text, "challenges anyone") })
	var accept, cancel string
	for _, b := range buttons(ch) {
		switch {
		case strings.HasPrefix(b[1], "a|"):
			accept = b[1]
		case strings.HasPrefix(b[1], "x|"):
			cancel = b[1]
		}
	}
	if toast := tap(t, srv, group, carol, ch.ID, cancel); !strings.Contains(toast, "someone else") {
		t.Errorf("Carol cancelling Alice's challenge: toast %q", toast)
	}
	tap(t, srv, group, bob, ch.ID, accept)
	waitMessage(t, srv, group.ID, "challenge accepted", func(m telegramtest.Msg) bool { return m.ID == ch.ID && strings.Contains(m.Text, "accepted") })
	c := waitMessage(t, srv, group.ID, "board card", func(m telegramtest.Msg) bool { return m.Kind == "photo" })
	checkPNG(t, c.Data)
	if !strings.Contains(c.Text, "Alice vs ⚫ Bob") {
		t.Errorf("caption %q", c.Text)
	}
	first := waitTurn(t, srv, group.ID, c.ID)
	oldButton := buttons(first)[0][1]

	// A stranger's tap changes nothing.
	if toast := tap(t, srv, group, carol, c.ID, oldButton); !strings.Contains(toast, "not playing") {
		t.Errorf("stranger's toast %q", toast)
	}
	if toast := tap(t, srv, group, bob, c.ID, oldButton); !strings.Contains(toast, "Alice's move") {
		t.Errorf("Bob tapping on Alice's turn: toast %q", toast)
	}
	if got := card(t, srv, group.ID, c.ID); got.Edits != first.Edits {
		t.Errorf("refused taps edited the card")
	}

	// Alice moves by taps (a3-b4); Bob is told by DM, with a link.
	pickFirstMove(t, srv, group, alice, c.ID)
	dm := waitMessage(t, srv, bob.chat.ID, "turn DM", func(m telegramtest.Msg) bool { return strings.Contains(m.Text, "Your move") })
	if len(dm.ReplyMarkup.InlineKeyboard) == 0 || !strings.Contains(*dm.ReplyMarkup.InlineKeyboard[0][0].URL, "t.me/c/1234567890/"+strconv.Itoa(c.ID)) {
		t.Errorf("DM without a link to the card: %+v", dm.ReplyMarkup)
	}
	// A stale tap: the board has moved on.
	if toast := tap(t, srv, group, bob, c.ID, oldButton); !strings.Contains(toast, "changed") {
		t.Errorf("stale tap: toast %q", toast)
	}

	// Bob answers by a typed reply to the card; Alice (no DM) gets a mention.
	srv.PushUpdate(srv.ReplyMessage(group, bob.u, c.ID, "f6-e5"))
	mention := srv.WaitFor(t, 10*time.Second, func(call telegramtest.Call) bool {
		return call.Method == "sendMessage" && call.ChatID() == group.ID && strings.Contains(call.Params["text"], "tg://user?id=201")
	})
	_ = mention
	// A wrong typed move says why and lists what is legal.
	say(srv, group, alice, "/move c3-c5")
	waitMessage(t, srv, group.ID, "illegal move reply", func(m telegramtest.Msg) bool {
		return strings.Contains(m.Text, "cannot go there") && strings.Contains(m.Text, "Legal moves:")
	})
	// Two taps at once on the same move: one lands.
	waitTurn(t, srv, group.ID, c.ID)
	before := card(t, srv, group.ID, c.ID)
	var moveData string
	for _, b := range buttons(before) {
		if isPick(b[1]) {
			moveData = b[1]
			break
		}
	}
	// Few moves are offered whole; otherwise a tower comes first.
	pickData := moveData
	if parts := strings.Split(moveData, "|"); len(parts[3]) == 1 {
		pickData = tapDestination(t, srv, group, alice, c.ID, moveData)
	}
	var wg sync.WaitGroup
	toasts := make([]string, 2)
	for i := range toasts {
		wg.Add(1)
		go func() { defer wg.Done(); toasts[i] = tap(t, srv, group, alice, c.ID, pickData) }()
	}
	wg.Wait()
	if (toasts[0] == "") == (toasts[1] == "") {
		t.Errorf("two simultaneous taps: toasts %q and %q; want exactly one move", toasts[0], toasts[1])
	}
	// The taps are answered at once; the card's edit follows.
	waitMessage(t, srv, group.ID, "Black to move at move 2 after two simultaneous taps", func(m telegramtest.Msg) bool {
		return m.ID == c.ID && strings.Contains(m.Text, "Move 2 · Black")
	})
	waitTurn(t, srv, group.ID, c.ID)
	// Alice's mention is removed once she has moved.
	srv.WaitFor(t, 10*time.Second, func(call telegramtest.Call) bool {
		return call.Method == "deleteMessage" && call.ChatID() == group.ID
	})

	// Bob offers a draw: the card shows it (Alice never started the bot,
	// so nothing tells her elsewhere), and she answers there.
	say(srv, group, bob, "/draw")
	withOffer := waitMessage(t, srv, group.ID, "the card with the offer", func(m telegramtest.Msg) bool {
		return m.ID == c.ID && buttonData(m, "dy|") != "" && strings.Contains(m.Text, "Bob offers a draw")
	})
	yes := buttonData(withOffer, "dy|")
	if toast := tap(t, srv, group, bob, c.ID, yes); toast == "" {
		t.Error("Bob accepted his own draw offer")
	}
	tap(t, srv, group, alice, c.ID, yes)
	waitMessage(t, srv, group.ID, "result", func(m telegramtest.Msg) bool { return strings.Contains(m.Text, "Game over: 1/2-1/2") })
	if final := card(t, srv, group.ID, c.ID); !gameOver(final) {
		t.Errorf("final card %q has no end buttons", final.Text)
	}
	say(srv, group, alice, "/top")
	waitMessage(t, srv, group.ID, "leaderboard", func(m telegramtest.Msg) bool {
		return strings.Contains(m.Text, "Leaderboard") && strings.Contains(m.Text, "Alice") && strings.Contains(m.Text, "Bob")
	})
}

// tapDestination taps a tower button and returns the data of its first
// destination button (without tapping it).
func tapDestination(t *testing.T, srv *telegramtest.Server, chat tgbotapi.Chat, from user, cardID int, towerData string) string {
	t.Helper()
	edits := card(t, srv, chat.ID, cardID).Edits
	if toast := tap(t, srv, chat, from, cardID, towerData); toast != "" {
		t.Fatalf("tower tap refused: %s", toast)
	}
	m := waitMessage(t, srv, chat.ID, "destinations", func(x telegramtest.Msg) bool { return x.ID == cardID && x.Edits > edits })
	for _, b := range buttons(m) {
		if isPick(b[1]) && !isBack(b[1]) {
			return b[1]
		}
	}
	t.Fatalf("no destination buttons: %v", buttons(m))
	return ""
}

// lastLine is the line of a card's caption with the last moves.
func lastLine(caption string) string {
	for _, l := range strings.Split(caption, "\n") {
		// caption_last in English and in Russian: a group game's card is
		// in its players' language when they share one (docs/playing.md).
		if strings.HasPrefix(l, "Last: ") || strings.HasPrefix(l, "Последний ход: ") {
			return l
		}
	}
	return ""
}
