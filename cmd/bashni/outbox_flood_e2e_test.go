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
// played, at a group pace of one message a second. The group's outgoing
// lane fills to its bound (100) and the requests past it are refused at
// the door (429, "chat_busy") before anything changes; every reply an
// admitted request owes is sent or still kept in the store, none
// dropped; and a move in the other game shows on its card after at most
// the one message being sent when it was made: the card's edit does not
// wait behind the flood.
func TestE2EMiniAppDrawFloodLosesNothingAndKeepsTheOtherCardMoving(t *testing.T) {
	if testing.Short() {
		t.Skip("floods a group with 300 requests")
	}
	srv := telegramtest.New(t)
	app, ops := freeAddr(t), freeAddr(t)
	p := startBot(t, srv, map[string]string{
		"BASHNI_RATE_PER_GROUP": "60", // one message a second: the flood outruns it
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
	_, flooded := startGame(alice, bob)
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
	if refused == 0 {
		t.Errorf("no request refused: the flood was taken on without bound")
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

	_, metrics := get(t, "http://"+ops+"/metrics")
	if v := metricValue(t, metrics, `bashni_outbox_refused_total{reason="lane_full"}`); v < float64(refused) {
		t.Errorf("refusals counted %v, want at least the %d requests refused", v, refused)
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
	for action, text := range map[string]string{"offer": " offers ", "decline": "declined the draw"} {
		sent, still := 0, 0
		for _, c := range srv.CallsTo("sendMessage") {
			if c.ChatID() == group.ID && c.OK() && strings.Contains(c.Text(), text) {
				sent++
			}
		}
		for _, o := range kept {
			if bytes.Contains(o.Data, []byte(text)) {
				still++
			}
		}
		t.Logf("%s: %d admitted, %d sent, %d still owed", action, admitted[action], sent, still)
		if sent+still != admitted[action] {
			t.Errorf("%s: %d admitted, but %d sent and %d still owed: %d lost", action, admitted[action], sent, still, admitted[action]-sent-still)
		}
	}
}
