package miniapp

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/bashni/bashni/internal/telegramtest"
	"github.com/bashni/bashni/rules"
)

func TestMoveThroughTheAPI(t *testing.T) {
	h := newHarness(t, nil)
	r := h.reps[0]
	path := "/api/games/" + h.gameID
	var st state
	if code := h.call(r, "GET", path, h.initData(h.alice), "", &st); code != http.StatusOK {
		t.Fatalf("state: %d", code)
	}
	if st.You != "w" || st.Turn != "w" || st.Ply != 0 || len(st.Legal) != 7 {
		t.Fatalf("state: you %q turn %q ply %d legal %d; want w w 0 7", st.You, st.Turn, st.Ply, len(st.Legal))
	}
	var errBody errorBody
	if code := h.call(r, "POST", path+"/move", h.initData(h.bob), `{"ply":0,"move":"c3-d4"}`, &errBody); code != http.StatusForbidden {
		t.Errorf("Bob moving for White: %d %q; want 403", code, errBody.Error)
	}
	if code := h.call(r, "POST", path+"/move", h.initData(h.alice), `{"ply":0,"move":"c3-d4"}`, &st); code != http.StatusOK {
		t.Fatalf("move: %d", code)
	}
	if g := h.stored(); g.Ply() != 1 || g.Moves()[0] != "c3-d4" {
		t.Errorf("stored moves %v; want [c3-d4]", g.Moves())
	}
	h.waitCard("c3-d4")
	// The same move again, on the board as it was: stale.
	errBody = errorBody{}
	if code := h.call(r, "POST", path+"/move", h.initData(h.alice), `{"ply":0,"move":"e3-f4"}`, &errBody); code != http.StatusConflict || errBody.State == nil || errBody.State.Ply != 1 {
		t.Errorf("stale move: %d %+v; want 409 with the game at ply 1", code, errBody)
	}
	if code := h.call(r, "POST", path+"/move", h.initData(h.bob), `{"ply":1,"move":"h6-h5"}`, &errBody); code != http.StatusUnprocessableEntity {
		t.Errorf("illegal move: %d; want 422", code)
	}
	if g := h.stored(); g.Ply() != 1 {
		t.Errorf("refused moves changed the game: ply %d", g.Ply())
	}
}

func TestUnauthorized(t *testing.T) {
	h := newHarness(t, nil)
	r := h.reps[0]
	good := h.initData(h.alice)
	u := User{ID: h.alice.ID, FirstName: "Alice"}
	bad := map[string]string{
		"none":    "",
		"forged":  SignUser("999:not-the-token", u, h.gameID, time.Now()),
		"altered": strings.Replace(good, "Alice", "Mallory", 1),
		"day old": SignUser(h.tg.Token(), u, h.gameID, time.Now().Add(-25*time.Hour)),
	}
	for name, auth := range bad {
		t.Run(name, func(t *testing.T) {
			for _, req := range []struct{ method, path, body string }{
				{"GET", "/api/games/" + h.gameID, ""},
				{"POST", "/api/games/" + h.gameID + "/move", `{"ply":0,"move":"c3-d4"}`},
				{"POST", "/api/games/" + h.gameID + "/resign", ""},
				{"GET", "/api/games/" + h.gameID + "/events", ""},
			} {
				if code := h.call(r, req.method, req.path, auth, req.body, nil); code != http.StatusUnauthorized {
					t.Errorf("%s %s: %d; want 401", req.method, req.path, code)
				}
			}
		})
	}
	if g := h.stored(); g.Ply() != 0 || !g.Active() {
		t.Errorf("refused requests changed the game: ply %d, active %v", g.Ply(), g.Active())
	}
}

// events opens the game's event stream on replica r as u and returns the
// states it sends.
func (h *harness) events(r *replica, auth string) <-chan state {
	h.t.Helper()
	req, err := http.NewRequestWithContext(h.ctx, "GET", r.web.URL+"/api/games/"+h.gameID+"/events", nil)
	if err != nil {
		h.t.Fatal(err)
	}
	req.Header.Set("Authorization", "tma "+auth)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		h.t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK {
		h.t.Fatalf("events: %d", resp.StatusCode)
	}
	ch := make(chan state, 16)
	go func() {
		defer resp.Body.Close()
		defer close(ch)
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			data, ok := strings.CutPrefix(sc.Text(), "data: ")
			if !ok {
				continue
			}
			var st state
			if json.Unmarshal([]byte(data), &st) == nil {
				ch <- st
			}
		}
	}()
	return ch
}

// nextState waits for the stream to send a state at ply.
func nextState(t testing.TB, ch <-chan state, ply int) state {
	t.Helper()
	timeout := time.After(10 * time.Second)
	for {
		select {
		case st, ok := <-ch:
			if !ok {
				t.Fatalf("the stream ended before ply %d", ply)
			}
			if st.Ply == ply {
				return st
			}
		case <-timeout:
			t.Fatalf("no state at ply %d", ply)
		}
	}
}

func TestLiveUpdatesInOneProcess(t *testing.T) {
	h := newHarness(t, nil)
	r := h.reps[0]
	watch := h.events(r, h.initData(h.bob))
	nextState(t, watch, 0)
	// A move by the picker's path (the service), not the app: heard too.
	if _, err := r.svc.Move(h.ctx, h.gameID, h.alice.ID, 0, "c3-d4"); err != nil {
		t.Fatal(err)
	}
	st := nextState(t, watch, 1)
	if st.You != "b" || st.Last == nil || st.Last.Text != "c3-d4" {
		t.Errorf("Bob's board: you %q last %+v; want b, c3-d4", st.You, st.Last)
	}
}

// A draw offered in the app reaches the chat as the card with its
// buttons (no message of its own: the group's pace is the board's);
// declined (the card says so), offered again and accepted, the game ends
// drawn. Resigning ends the next.
func TestDrawAndResignThroughTheAPI(t *testing.T) {
	h := newHarness(t, nil)
	r := h.reps[0]
	path := "/api/games/" + h.gameID
	var st state
	h.openBoth(r, path)
	if code := h.call(r, "POST", path+"/draw", h.initData(h.alice), `{"action":"offer"}`, &st); code != http.StatusOK || st.Draw != "w" {
		t.Fatalf("offer: %d, draw %q; want 200, w", code, st.Draw)
	}
	h.waitButtons("dy|", true)
	var eb errorBody
	if code := h.call(r, "POST", path+"/draw", h.initData(h.alice), `{"action":"accept"}`, &eb); code != http.StatusForbidden {
		t.Errorf("accepting one's own offer: %d; want 403", code)
	}
	if code := h.call(r, "POST", path+"/draw", h.initData(h.bob), `{"action":"decline"}`, &st); code != http.StatusOK || st.Draw != "" {
		t.Fatalf("decline: %d, draw %q", code, st.Draw)
	}
	h.waitCard("🤝 Bob")
	if code := h.call(r, "POST", path+"/draw", h.initData(h.bob), `{"action":"surrender"}`, &eb); code != http.StatusBadRequest {
		t.Errorf("unknown action: %d; want 400", code)
	}
	h.call(r, "POST", path+"/draw", h.initData(h.bob), `{"action":"offer"}`, &st)
	if code := h.call(r, "POST", path+"/draw", h.initData(h.alice), `{"action":"accept"}`, &st); code != http.StatusOK || st.Active || st.Result == "" {
		t.Fatalf("accept: %d, active %v, result %q", code, st.Active, st.Result)
	}
	if g := h.stored(); g.Active() || g.Result() != "1/2-1/2" || g.Reason() != "agreement" {
		t.Errorf("stored %s by %s; want 1/2-1/2 by agreement", g.Result(), g.Reason())
	}
	h.waitCard("1/2-1/2")

	g, err := h.newGame(gameSpec{})
	if err != nil {
		t.Fatal(err)
	}
	h.gameID = g.ID()
	carol := telegramtest.User(13, "Carol", "carol", "en")
	if code := h.call(r, "POST", "/api/games/"+g.ID()+"/resign", h.initData(carol), "", &eb); code != http.StatusForbidden {
		t.Errorf("a watcher resigning: %d; want 403", code)
	}
	h.openBoth(r, "/api/games/"+g.ID())
	if code := h.call(r, "POST", "/api/games/"+g.ID()+"/resign", h.initData(h.bob), "", &st); code != http.StatusOK || st.Result != "1-0, победа: Alice" { // Bob reads Russian
		t.Errorf("resign: %d, result %q", code, st.Result)
	}
	if code := h.call(r, "POST", "/api/games/"+g.ID()+"/move", h.initData(h.alice), `{"ply":2,"move":"c3-d4"}`, &eb); code != http.StatusConflict {
		t.Errorf("a move after the end: %d; want 409", code)
	}
}

// waitButtons waits until some message of the group has (or, with want
// false, none has) a button whose data starts with prefix.
func (h *harness) waitButtons(prefix string, want bool) {
	h.t.Helper()
	has := func() bool {
		for _, m := range h.tg.Messages(h.group.ID) {
			if m.ReplyMarkup == nil || m.Deleted {
				continue
			}
			for _, row := range m.ReplyMarkup.InlineKeyboard {
				for _, b := range row {
					if b.CallbackData != nil && strings.HasPrefix(*b.CallbackData, prefix) {
						return true
					}
				}
			}
		}
		return false
	}
	if !h.tg.WaitUntil(10*time.Second, func() bool { return has() == want }) {
		h.t.Fatalf("a button %q in the chat: %v, want %v", prefix, has(), want)
	}
}

// The app and the chat agree about a draw: offered in the app, the chat
// has Accept and Decline on the card alone; declined in the app, or the
// game resigned there, no message in the chat keeps them.
func TestAppAndChatAgreeOnADraw(t *testing.T) {
	h := newHarness(t, nil)
	r := h.reps[0]
	path := "/api/games/" + h.gameID
	var st state
	for _, end := range []struct{ who, path, body string }{
		{"Bob declines", path + "/draw", `{"action":"decline"}`},
		{"Bob resigns", path + "/resign", ""},
	} {
		if code := h.call(r, "POST", path+"/draw", h.initData(h.alice), `{"action":"offer"}`, &st); code != http.StatusOK {
			t.Fatalf("offer: %d", code)
		}
		h.waitButtons("dy|", true)
		if code := h.call(r, "POST", end.path, h.initData(h.bob), end.body, &st); code != http.StatusOK {
			t.Fatalf("%s: %d", end.who, code)
		}
		h.waitButtons("dy|", false)
		h.waitButtons("dn|", false)
	}
}

// A game of Russian draughts on the live board: the page is told the rules,
// and a capture only Russian draughts allows (over the d4 emptied by White's
// capture) is taken through the API.
func TestRussianGameThroughTheAPI(t *testing.T) {
	h := newHarnessWith(t, gameSpec{variant: rules.Russian}, nil)
	r := h.reps[0]
	path := "/api/games/" + h.gameID
	var st state
	if code := h.call(r, "GET", path, h.initData(h.alice), "", &st); code != http.StatusOK {
		t.Fatalf("state: %d", code)
	}
	if st.Rules != "Russian draughts" || !strings.HasPrefix(st.Status, "Russian draughts · ") {
		t.Errorf("rules %q, status %q; want Russian draughts named", st.Rules, st.Status)
	}
	for i, mv := range []string{"a3-b4", "h6-g5", "b4-c5", "b6:d4", "c3:e5", "f6:d4"} {
		who := h.alice
		if i%2 == 1 {
			who = h.bob
		}
		if code := h.call(r, "POST", path+"/move", h.initData(who), fmt.Sprintf(`{"ply":%d,"move":%q}`, i, mv), &st); code != http.StatusOK {
			t.Fatalf("move %d %s: %d", i+1, mv, code)
		}
	}
	if g := h.stored(); g.Ply() != 6 || g.Moves()[5] != "f6:d4" {
		t.Errorf("stored moves %v", g.Moves())
	}
}

// A short capture that fits two paths is the request's fault, told why:
// 422 like any illegal move. Before refusals had kinds it was a 500 ("the
// server failed"), since only rules.ErrIllegalMove was mapped and an
// ambiguous move is not one.
func TestAmbiguousMoveThroughTheAPI(t *testing.T) {
	h := newHarnessFrom(t, "w:c1w,d2bb,d4b,b4b,b2b", nil)
	r := h.reps[0]
	var errBody errorBody
	code := h.call(r, "POST", "/api/games/"+h.gameID+"/move", h.initData(h.alice), `{"ply":0,"move":"c1:c1"}`, &errBody)
	if code != http.StatusUnprocessableEntity || !strings.Contains(errBody.Error, "Several captures from c1") {
		t.Errorf("ambiguous capture: %d %q; want 422 saying several captures fit", code, errBody.Error)
	}
	if g := h.stored(); g.Ply() != 0 {
		t.Errorf("a refused move changed the game: ply %d", g.Ply())
	}
}

// openBoth plays a move for each side of the game at path through the
// API, so that it is a game that counts, not one to abort (play/abort.go).
func (h *harness) openBoth(r *replica, path string) {
	h.t.Helper()
	var st state
	for i, mv := range []struct {
		who  tgbotapi.User
		move string
	}{{h.alice, "c3-d4"}, {h.bob, "f6-e5"}} {
		body := fmt.Sprintf(`{"ply":%d,"move":%q}`, i, mv.move)
		if code := h.call(r, "POST", path+"/move", h.initData(mv.who), body, &st); code != http.StatusOK {
			h.t.Fatalf("%s: %d", mv.move, code)
		}
	}
}
