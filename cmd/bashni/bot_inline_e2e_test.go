package main

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/bashni/bashni/internal/telegramtest"
)

// waitInline waits until an inline message satisfies ok.
func waitInline(t *testing.T, srv *telegramtest.Server, id, what string, ok func(telegramtest.Msg) bool) telegramtest.Msg {
	t.Helper()
	var m telegramtest.Msg
	if srv.WaitUntil(15*time.Second, func() bool {
		var found bool
		m, found = srv.InlineMessage(id)
		return found && ok(m)
	}) {
		return m
	}
	m, _ = srv.InlineMessage(id)
	t.Fatalf("inline message %s never %s; it is %s %q %v", id, what, m.Kind, m.Text, buttons(m))
	return telegramtest.Msg{}
}

// tapInline presses a button on an inline message and returns the toast.
func tapInline(t *testing.T, srv *telegramtest.Server, from user, inlineID, data string) string {
	t.Helper()
	u := srv.CallbackOnInlineMessage(from.u, inlineID, data)
	srv.PushUpdate(u)
	return waitAnswer(t, srv, u.CallbackQuery.ID, data)
}

// An inline game from the query to the result: offered in any chat,
// accepted by a tap, played on the inline message by taps with boards
// shown by file_id, resigned from the private chat, rematched.
func TestE2EInlineGame(t *testing.T) {
	srv := telegramtest.New(t)
	startBot(t, srv, nil)
	alice, bob := newUser(601, "Alice", "en"), newUser(602, "Bob", "en")
	inlineID, offer := startInlineGame(t, srv, alice, bob)
	board := waitInline(t, srv, inlineID, "shows the game", func(m telegramtest.Msg) bool { return strings.Contains(m.Text, "Alice vs ⚫ Bob") })
	if board.Kind != "photo" || board.FileID == offer.FileID {
		t.Errorf("the inline message is %s with file %q (offer's %q); want a new board photo", board.Kind, board.FileID, offer.FileID)
	}
	// Uploads to a player's DM are deleted once their file_id is taken.
	srv.WaitFor(t, 10*time.Second, func(c telegramtest.Call) bool { return c.Method == "deleteMessage" && c.ChatID() == alice.chat.ID })

	// Alice (White) moves by taps on the inline message.
	for taps := 0; taps < 3; taps++ {
		m, _ := srv.InlineMessage(inlineID)
		data := firstPick(m)
		edits := m.Edits
		if toast := tapInline(t, srv, alice, inlineID, data); toast != "" {
			t.Fatalf("tap refused: %s", toast)
		}
		after := waitInline(t, srv, inlineID, "edited", func(x telegramtest.Msg) bool { return x.Edits > edits })
		if !hasBack(after) {
			break
		}
	}
	waitInline(t, srv, inlineID, "at Black's turn", func(m telegramtest.Msg) bool { return strings.Contains(m.Text, "Black to move") })
	// Bob resigns from his private chat: the inline game is his only one.
	// He never moved, so the game is aborted (play/abort.go).
	resign(t, srv, bob.chat, bob)
	final := waitInline(t, srv, inlineID, "shows the result", func(m telegramtest.Msg) bool { return strings.Contains(m.Text, "Game aborted") })
	var rematch string
	for _, b := range buttons(final) {
		if strings.HasPrefix(b[1], "r|") {
			rematch = b[1]
		}
	}
	if rematch == "" {
		t.Fatalf("no rematch button on %v", buttons(final))
	}
	// Bob offers a rematch; it takes Alice's consent.
	if toast := tapInline(t, srv, bob, inlineID, rematch); !strings.Contains(toast, "Rematch offered to Alice") {
		t.Errorf("Bob's rematch tap: toast %q, want the offer confirmed", toast)
	}
	offered := waitInline(t, srv, inlineID, "shows the rematch offer", func(m telegramtest.Msg) bool {
		for _, b := range buttons(m) {
			if strings.HasPrefix(b[1], "ry|") {
				return true
			}
		}
		return false
	})
	if toast := tapInline(t, srv, bob, inlineID, rematch); !strings.Contains(toast, "offered a rematch already") {
		t.Errorf("Bob's second rematch tap: toast %q, want already offered", toast)
	}
	for _, b := range buttons(offered) {
		if strings.HasPrefix(b[1], "ry|") {
			tapInline(t, srv, alice, inlineID, b[1])
		}
	}
	waitInline(t, srv, inlineID, "shows the rematch, colours swapped", func(m telegramtest.Msg) bool {
		return strings.Contains(m.Text, "Bob vs ⚫ Alice") && strings.Contains(m.Text, "Move 1")
	})
	// Ratings did not move: the game was aborted before Bob's first move.
	say(srv, alice.chat, alice, "/stats")
	waitMessage(t, srv, alice.chat.ID, "stats", func(m telegramtest.Msg) bool {
		return strings.Contains(m.Text, "0 games") && strings.Contains(m.Text, "rating 1500")
	})
}

// startInlineGame has alice offer a game inline (as White) and bob accept
// it: the inline message's id, and the offer as it was posted.
func startInlineGame(t *testing.T, srv *telegramtest.Server, alice, bob user) (string, telegramtest.Msg) {
	t.Helper()
	for _, u := range []user{alice, bob} { // boards are uploaded to their DMs
		say(srv, u.chat, u, "/start")
		waitMessage(t, srv, u.chat.ID, "greeting", func(m telegramtest.Msg) bool { return strings.Contains(m.Text, "Welcome") })
	}

	q := srv.InlineQuery(alice.u, "")
	srv.PushUpdate(q)
	var results []json.RawMessage
	srv.WaitUntil(10*time.Second, func() bool {
		var ok bool
		results, ok = srv.InlineAnswer(q.InlineQuery.ID)
		return ok
	})
	if len(results) != 3 {
		t.Fatalf("inline answer has %d results, want White, Black, random", len(results))
	}
	var first struct {
		ID string `json:"id"`
	}
	json.Unmarshal(results[0], &first) // "as White"
	chosen := srv.ChosenInlineResult(alice.u, first.ID, "")
	inlineID := chosen.ChosenInlineResult.InlineMessageID
	if inlineID == "" {
		t.Fatal("the chosen result posted no inline message (no keyboard?)")
	}
	srv.PushUpdate(chosen)
	offer, _ := srv.InlineMessage(inlineID)
	var accept string
	for _, b := range buttons(offer) {
		if strings.HasPrefix(b[1], "a|") {
			accept = b[1]
		}
	}
	if toast := tapInline(t, srv, alice, inlineID, accept); toast == "" {
		t.Error("Alice accepted her own challenge")
	}
	tapInline(t, srv, bob, inlineID, accept)
	return inlineID, offer
}

// An inline card's edits are drawn when they are sent, as a chat card's
// are: the moves made while one edit is on its way (held at the Bot API)
// become one edit, showing the newest position, and no edit shows an
// older board than one sent before it.
func TestE2EInlineEditsWaitingBecomeOne(t *testing.T) {
	srv := telegramtest.New(t)
	startBot(t, srv, nil)
	alice, bob := newUser(611, "Alice", "en"), newUser(612, "Bob", "en")
	inlineID, _ := startInlineGame(t, srv, alice, bob)
	waitInline(t, srv, inlineID, "shows the game", func(m telegramtest.Msg) bool { return strings.Contains(m.Text, "Alice vs ⚫ Bob") })

	isEdit := func(c telegramtest.Call) bool {
		return c.Method == "editMessageMedia" && c.Params["inline_message_id"] == inlineID
	}
	before := len(srv.CallsTo("editMessageMedia"))
	held, release := srv.HoldWhen(isEdit)
	moves := []struct {
		by, next user
		move     string
	}{{alice, bob, "c3-d4"}, {bob, alice, "f6-g5"}, {alice, bob, "b2-c3"}, {bob, alice, "g7-f6"}}
	for i, m := range moves {
		say(srv, m.by.chat, m.by, m.move)
		// The turn notice: the move is stored, its replies queued.
		waitMessage(t, srv, m.next.chat.ID, "the notice of "+m.move, func(x telegramtest.Msg) bool {
			return strings.Contains(x.Text, "Your move") && strings.Contains(x.Text, m.move)
		})
		if i == 0 {
			select {
			case <-held: // the first move's edit is on its way; the others wait behind it
			case <-time.After(15 * time.Second):
				t.Fatal("the first move's edit never reached the Bot API")
			}
		}
	}
	release()
	waitInline(t, srv, inlineID, "shows the last move", func(m telegramtest.Msg) bool { return strings.Contains(m.Text, "g7-f6") })

	var edits []telegramtest.Call
	for _, c := range srv.CallsTo("editMessageMedia")[before:] {
		if isEdit(c) {
			edits = append(edits, c)
		}
	}
	shown := make([]string, len(edits))
	for i, c := range edits {
		shown[i] = c.Params["media"]
	}
	if len(edits) != 2 {
		t.Fatalf("%d edits of the inline card for the four moves, want two (the one on its way, then one for the three that waited):\n%s",
			len(edits), strings.Join(shown, "\n"))
	}
	if !strings.Contains(shown[0], "c3-d4") || strings.Contains(shown[0], "f6-g5") {
		t.Errorf("the edit on its way shows %s, want the board after c3-d4", shown[0])
	}
	if !strings.Contains(shown[1], "g7-f6") {
		t.Errorf("the edit for the moves that waited shows %s, want the newest board (after g7-f6)", shown[1])
	}
}
