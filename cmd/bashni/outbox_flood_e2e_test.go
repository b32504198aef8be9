package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/bashni/bashni/internal/telegramtest"
	"github.com/bashni/bashni/miniapp"
	"github.com/bashni/bashni/storage/bolt"
)

// The flood of issue 38: 150 draw offers and declines from the Mini App,
// as fast as a script sends them, in a group where another game is
// played, at a group pace of one message a second. A draw offer and its
// decline cost the group no message (they are shown on the card, whose
// edits coalesce into the newest board) and the one asked is told in
// their private chat, by a DM keyed by the game: so every offer and
// decline is admitted and stored, the card ends showing the last of
// them, Bob's chat holds at most one DM waiting however many offers come
// (not one an offer), and a move in the other game shows on its card
// after at most the one message being sent when it was made. Then a
// flood that does owe the group messages (typed /help) fills the group's
// lane to its bound (100): the commands past it, and a Mini App request,
// are refused at the door (429, "chat_busy") before anything changes,
// and every reply an admitted command owes is sent or still kept in the
// store, none dropped.
func TestE2EMiniAppDrawFloodLosesNothingAndKeepsTheOtherCardMoving(t *testing.T) {
	if testing.Short() {
		t.Skip("floods a group with 300 requests")
	}
	srv := telegramtest.New(t)
	app, ops := freeAddr(t), freeAddr(t)
	p := startBot(t, srv, map[string]string{
		"BASHNI_RATE_PER_GROUP": "60", // one message a second: the flood outruns it
		"BASHNI_RATE_PER_CHAT":  "1",  // and Bob's private chat's pace too
		"BASHNI_MINIAPP_URL":    "https://board.example.org/",
		"BASHNI_MINIAPP_NAME":   "board",
		"BASHNI_MINIAPP_LISTEN": app,
		"BASHNI_OPS_LISTEN":     ops,
		"BASHNI_LOG_LEVEL":      "info", // for the "listening" lines
	})
	waitListening(t, p.logs, "miniapp", "ops")
	group := telegramtest.GroupChat(-1003838383838, "Flood club")
	alice, bob := newUser(3801, "Alice", "en"), newUser(3802, "Bob", "en")
	carol, dave := newUser(3803, "Carol", "en"), newUser(3804, "Dave", "en")
	startGame := func(white, black user) (telegramtest.Msg, string) {
		t.Helper()
		before := map[int]bool{}
		for _, m := range srv.Messages(group.ID) {
			before[m.ID] = true
		}
		say(srv, group, white, "/challenge white")
		ch := waitMessage(t, srv, group.ID, "challenge", func(m telegramtest.Msg) bool {
			return !before[m.ID] && strings.Contains(m.Text, "challenges anyone")
		})
		tap(t, srv, group, black, ch.ID, buttons(ch)[0][1])
		card := waitMessage(t, srv, group.ID, "board card", func(m telegramtest.Msg) bool { return !before[m.ID] && m.Kind == "photo" })
		for _, row := range card.ReplyMarkup.InlineKeyboard {
			for _, b := range row {
				if b.URL != nil {
					id, _ := strings.CutPrefix(*b.URL, "https://t.me/"+srv.Bot().UserName+"/board?startapp=")
					return card, id
				}
			}
		}
		t.Fatal("no Open board link on the card")
		return card, ""
	}
	// Bob started the bot: an offer to him is told by DM.
	say(srv, bob.chat, bob, "/start")
	waitMessage(t, srv, bob.chat.ID, "greeting", func(m telegramtest.Msg) bool { return strings.Contains(m.Text, "Welcome") })
	floodedCard, flooded := startGame(alice, bob)
	other, otherID := startGame(carol, dave)
	waitTurn(t, srv, group.ID, other.ID)

	post := func(u user, game, path, body string) (int, string) {
		t.Helper()
		auth := miniapp.SignUser(srv.Token(), miniapp.User{ID: u.u.ID, FirstName: u.u.FirstName}, game, time.Now())
		req, _ := http.NewRequest("POST", "http://"+app+"/api/games/"+game+path, strings.NewReader(body))
		req.Header.Set("Authorization", "tma "+auth)
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	const pairs = 150
	admitted := map[string]int{}
	refused, moveAt := 0, 0
	start := time.Now()
	for i := range pairs {
		for _, step := range []struct {
			who    user
			action string
		}{{alice, "offer"}, {bob, "decline"}} {
			code, body := post(step.who, flooded, "/draw", `{"action":"`+step.action+`"}`)
			switch {
			case code == http.StatusOK:
				admitted[step.action]++
			case code == http.StatusTooManyRequests && strings.Contains(body, `"reason":"chat_busy"`):
				refused++
			case code == http.StatusConflict:
				// The offer was refused, so there is nothing to decline;
				// or its decline was, so an offer still waits.
			default:
				t.Fatalf("pair %d, %s: %d %s", i, step.action, code, body)
			}
		}
		if i == 10 {
			// The other game moves while the flood's replies queue.
			moveAt = len(srv.Calls())
			if code, body := post(carol, otherID, "/move", `{"ply":0,"move":"c3-d4"}`); code != http.StatusOK {
				t.Fatalf("the other game's move: %d %s", code, body)
			}
		}
	}
	t.Logf("%d pairs in %v: %d offers and %d declines admitted, %d requests refused", pairs, time.Since(start).Round(time.Millisecond), admitted["offer"], admitted["decline"], refused)
	if admitted["offer"] != pairs || admitted["decline"] != pairs || refused != 0 {
		t.Errorf("%d offers and %d declines admitted, %d refused: want all %d of each admitted, as none owes the group a message", admitted["offer"], admitted["decline"], refused, pairs)
	}

	// The other card shows the move after at most the message being sent
	// when it was made: counted in the group's messages, each one pace.
	waitMessageWithin(t, srv, group.ID, 60*time.Second, "the other card with its move", func(m telegramtest.Msg) bool {
		return m.ID == other.ID && strings.Contains(m.Text, "c3-d4")
	})
	ahead := 0
	for _, c := range srv.Calls()[moveAt:] {
		if c.ChatID() != group.ID || !c.OK() || !strings.HasPrefix(c.Method, "send") && !strings.HasPrefix(c.Method, "edit") {
			continue
		}
		if c.MessageID() == other.ID {
			break
		}
		ahead++
	}
	t.Logf("%d messages to the group went out between the other game's move and its card's edit", ahead)
	if ahead > 1 {
		t.Errorf("%d messages to the group went ahead of the other card's edit, want at most the one being sent (one pace)", ahead)
	}

	// The flooded card ends showing the last change: Bob's decline.
	waitMessageWithin(t, srv, group.ID, 60*time.Second, "the flooded card with the last decline", func(m telegramtest.Msg) bool {
		return m.ID == floodedCard.ID && strings.Contains(m.Text, "Bob declined the draw")
	})

	// A flood that owes the group messages: typed commands, each answered
	// by a message. Past the lane's bound they are refused at the door.
	const typed = 250 // past the bound, faster than the pace sends
	for range typed {
		say(srv, group, dave, "/help")
	}
	// The first command refused is counted (its chat-busy reply waits
	// behind the lane it was refused for).
	refusals := func() float64 {
		_, metrics := get(t, "http://"+ops+"/metrics")
		return metricValue(t, metrics, `bashni_outbox_refused_total{reason="lane_full"}`)
	}
	if !srv.WaitUntil(60*time.Second, func() bool { return refusals() > 0 }) {
		t.Fatalf("%d commands typed and none refused: the group's lane never filled", typed)
	}
	srv.WaitConfirmed(t, 30*time.Second)
	if code, body := post(alice, flooded, "/draw", `{"action":"offer"}`); code != http.StatusTooManyRequests || !strings.Contains(body, `"reason":"chat_busy"`) {
		t.Errorf("a draw offer while the group's lane is full: %d %s, want 429 chat_busy", code, body)
	}

	_, metrics := get(t, "http://"+ops+"/metrics")
	refusedAll := metricValue(t, metrics, `bashni_outbox_refused_total{reason="lane_full"}`)
	if refusedAll < 2 {
		t.Errorf("refusals counted %v, want at least a command and the Mini App's request", refusedAll)
	}
	if v := metricValue(t, metrics, "bashni_outbox_lane_depth_max"); v < 90 || v > 110 {
		t.Errorf("the deepest lane holds %v replies, want about the bound (100)", v)
	}

	// Stopped mid-flood: what was not sent stays kept for the next process.
	p.cancel()
	<-p.done // the drain gives up on what the pace leaves unsent
	p.cancel = nil
	if strings.Contains(p.logs.String(), "reply dropped") {
		t.Errorf("replies were dropped:\n%s", p.logs)
	}
	st, err := bolt.Open(p.env["BASHNI_BOLT_PATH"], time.Now)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	kept, err := st.ClaimOutbox(context.Background(), "inspector", time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	count := func(chatID int64, text string) (sent, still int) {
		for _, c := range srv.CallsTo("sendMessage") {
			if c.ChatID() == chatID && c.OK() && strings.Contains(c.Text(), text) {
				sent++
			}
		}
		for _, o := range kept {
			if bytes.Contains(o.Data, []byte(text)) {
				still++
			}
		}
		return sent, still
	}
	// Bob was told of the offers, and at most one DM waited at a time.
	sent, still := count(bob.chat.ID, "offers you a draw")
	t.Logf("draw DMs to Bob: %d sent, %d still owed, for %d offers", sent, still, admitted["offer"])
	if sent+still == 0 || still > 1 {
		t.Errorf("draw DMs to Bob: %d sent and %d still owed for %d offers; want him told, with at most one waiting", sent, still, admitted["offer"])
	}
	// Every /help admitted is answered or still owed: the refused ones
	// (all but the Mini App's request counted) got the chat-busy reply.
	sent, still = count(group.ID, "Commands:")
	refusedTyped := int(refusedAll) - 1
	t.Logf("/help: %d typed, %d refused at the door, %d answers sent, %d still owed", typed, refusedTyped, sent, still)
	if sent+still+refusedTyped != typed {
		t.Errorf("/help: %d typed and %d refused, but %d answers sent and %d still owed: %d lost", typed, refusedTyped, sent, still, typed-refusedTyped-sent-still)
	}
	g, err := st.Game(context.Background(), flooded)
	if err != nil {
		t.Fatal(err)
	}
	if g.DrawOfferBy != 0 || g.DrawDeclinedBy != bob.u.ID {
		t.Errorf("the flooded game is stored with offer by %d, declined by %d; want the last decline, Bob's", g.DrawOfferBy, g.DrawDeclinedBy)
	}
}
