package miniapp

import (
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/bashni/bashni/internal/telegramtest"
	"github.com/bashni/bashni/play"
)

// Every answer carries the security headers: the page may be framed by
// Telegram's web clients only and run its own and Telegram's scripts.
func TestSecurityHeaders(t *testing.T) {
	h := newHarness(t, nil)
	r := h.reps[0]
	for _, path := range []string{"/", "/app.js", "/api/games/" + h.gameID} {
		req, _ := http.NewRequestWithContext(h.ctx, "GET", r.web.URL+path, nil)
		req.Header.Set("Authorization", "tma "+h.initData(h.alice))
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		csp := resp.Header.Get("Content-Security-Policy")
		for _, want := range []string{"script-src 'self' https://telegram.org;", "frame-ancestors https://web.telegram.org", "object-src 'none'"} {
			if !strings.Contains(csp, want) {
				t.Errorf("%s: policy %q lacks %q", path, csp, want)
			}
		}
		if strings.Contains(csp, "frame-ancestors *") || strings.Contains(csp, "'unsafe-eval'") {
			t.Errorf("%s: policy %q is too open", path, csp)
		}
		if got := resp.Header.Get("X-Content-Type-Options"); got != "nosniff" {
			t.Errorf("%s: X-Content-Type-Options %q; want nosniff", path, got)
		}
		if got := resp.Header.Get("Referrer-Policy"); got != "no-referrer" {
			t.Errorf("%s: Referrer-Policy %q; want no-referrer", path, got)
		}
		if got := resp.Header.Get("X-Frame-Options"); got != "" {
			t.Errorf("%s: X-Frame-Options %q; Telegram Web frames the app", path, got)
		}
	}
}

// A user's streams beyond their limit end their oldest; an address's
// beyond its limit are refused with a reason; API requests are served
// all along.
func TestStreamLimits(t *testing.T) {
	h := newHarnessWith(t, gameSpec{streams: StreamLimits{PerUser: 2, PerAddr: 3}}, nil)
	r := h.reps[0]
	first := h.events(r, h.initData(h.alice))
	nextState(t, first, 0)
	second := h.events(r, h.initData(h.alice))
	nextState(t, second, 0)
	third := h.events(r, h.initData(h.alice))
	nextState(t, third, 0)
	for range first { // the oldest ends: the channel closes
	}
	bobs := h.events(r, h.initData(h.bob))
	nextState(t, bobs, 0)
	if n := r.app.OpenStreams(); n != 3 {
		t.Errorf("%d streams open; want 3 (Alice's two newest, Bob's)", n)
	}
	carol := telegramtest.User(13, "Carol", "carol", "en")
	var eb errorBody
	if code := h.call(r, "GET", "/api/games/"+h.gameID+"/events", h.initData(carol), "", &eb); code != http.StatusTooManyRequests || !strings.Contains(eb.Error, "Too many boards") {
		t.Errorf("a fourth stream from the address: %d %q; want 429 with the reason", code, eb.Error)
	}
	var st state
	if code := h.call(r, "GET", "/api/games/"+h.gameID, h.initData(carol), "", &st); code != http.StatusOK {
		t.Errorf("the state beside full streams: %d; want 200", code)
	}
	if _, err := r.svc.Move(h.ctx, h.gameID, h.alice.ID, 0, "c3-d4"); err != nil {
		t.Fatal(err)
	}
	for _, ch := range []<-chan state{second, third, bobs} {
		nextState(t, ch, 1)
	}
}

// Streams whose reader stopped reading are closed once a write stalls,
// rather than held with a growing send queue. The boards here send a
// request and never read; the game's clock changes the state each
// millisecond, so every change is a new state to write.
func TestStalledStreamsAreClosed(t *testing.T) {
	open := make(chan int, 256)
	h := newHarnessWith(t, gameSpec{control: "5+0", streams: StreamLimits{WriteTimeout: 200 * time.Millisecond},
		onStreams: func(n int) { open <- n }}, nil)
	r := h.reps[0]
	u, err := url.Parse(r.web.URL)
	if err != nil {
		t.Fatal(err)
	}
	const stalled = 3
	for range stalled {
		c, err := net.Dial("tcp", u.Host)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		_ = c.(*net.TCPConn).SetReadBuffer(4 << 10) // a small window: the server's queue fills sooner
		fmt.Fprintf(c, "GET /api/games/%s/events HTTP/1.1\r\nHost: %s\r\nAuthorization: tma %s\r\n\r\n", h.gameID, u.Host, h.initData(h.bob))
	}
	bound := time.After(60 * time.Second) // a bound for a broken server, not a measurement
	waitOpen := func(want int) {
		t.Helper()
		for {
			select {
			case n := <-open:
				if n == want {
					return
				}
			case <-bound:
				t.Fatalf("streams never reached %d open (%d now)", want, r.app.OpenStreams())
			}
		}
	}
	waitOpen(stalled)
	// A board that reads is not closed: it reads all along (a reader that
	// stopped would rightly be closed too).
	reader := h.events(r, h.initData(h.alice))
	waitOpen(stalled + 1)
	moved := make(chan bool, 1)
	go func() {
		for st := range reader {
			if st.Ply == 1 {
				moved <- true
				for range reader {
				}
				return
			}
		}
		moved <- false
	}()
	done := make(chan struct{})
	changes := make(chan int, 1)
	go func() {
		n := 0
		defer func() { changes <- n }()
		tick := time.NewTicker(time.Millisecond) // the load's pace
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
			}
			h.clock.Advance(time.Millisecond)
			r.broker.Changed(h.ctx, h.gameID)
			n++
		}
	}()
	waitOpen(1)
	close(done)
	t.Logf("the stalled streams were closed after %d changes", <-changes)
	// The reading board still gets the game.
	if _, err := r.svc.Move(h.ctx, h.gameID, h.alice.ID, 0, "c3-d4"); err != nil {
		t.Fatal(err)
	}
	select {
	case ok := <-moved:
		if !ok {
			t.Error("the reading board's stream ended")
		}
	case <-bound:
		t.Error("the reading board never got the move")
	}
}

// A draw offered to the AI in the app gets the AI's answer, as /draw does
// in the chat: declined, nothing pending, and no offer posted to a chat
// (which named user id 0, the AI, before).
func TestAIDeclinesADrawInTheApp(t *testing.T) {
	h := newHarness(t, nil)
	r := h.reps[0]
	g, err := r.svc.NewAIGame(h.ctx, play.AIGameRequest{ChatID: h.alice.ID, Human: play.Player{UserID: h.alice.ID, Name: "Alice"}, Level: 1, Color: play.ColorWhite})
	if err != nil {
		t.Fatal(err)
	}
	h.gameID = g.ID()
	var eb errorBody
	code := h.call(r, "POST", "/api/games/"+g.ID()+"/draw", h.initData(h.alice), `{"action":"offer"}`, &eb)
	if code != http.StatusConflict || !strings.Contains(eb.Error, "AI declines") || eb.State == nil || eb.State.Draw != "" {
		t.Errorf("offer to the AI: %d %q %+v; want 409, the AI's answer, no offer pending", code, eb.Error, eb.State)
	}
	if got := h.stored(); got.DrawOfferBy() != 0 {
		t.Errorf("stored offer by %d; want none", got.DrawOfferBy())
	}
	for _, c := range h.tg.Calls() {
		if strings.Contains(c.Params["text"], "tg://user?id=0") {
			t.Errorf("%s mentions user id 0: %q", c.Method, c.Params["text"])
		}
	}
}

// Drawing a live game after the flag fell (issue 27): the answer is
// refused as the game is over, the game is stored as lost on time, and the
// chat is told, as after the clock's tick.
func TestAFallenFlagCannotBeDrawn(t *testing.T) {
	h := newHarnessWith(t, gameSpec{control: "1+0"}, nil)
	r := h.reps[0]
	path := "/api/games/" + h.gameID
	var st state
	if code := h.call(r, "POST", path+"/move", h.initData(h.alice), `{"ply":0,"move":"c3-d4"}`, &st); code != http.StatusOK {
		t.Fatalf("move: %d", code)
	}
	if code := h.call(r, "POST", path+"/draw", h.initData(h.alice), `{"action":"offer"}`, &st); code != http.StatusOK || st.Draw != "w" {
		t.Fatalf("offer: %d, draw %q", code, st.Draw)
	}
	// Black's flag falls (his clock started when the card showed the
	// move, at the latest the grace after it); no clock tick runs here.
	h.clock.Advance(time.Minute + play.DefaultShowGrace)
	var eb errorBody
	code := h.call(r, "POST", path+"/draw", h.initData(h.bob), `{"action":"accept"}`, &eb)
	if code != http.StatusConflict || eb.State == nil || eb.State.Active || eb.State.Result == "" {
		t.Fatalf("accepting after the flag fell: %d %+v; want 409 with the game over", code, eb)
	}
	if g := h.stored(); !g.Aborted() { // Black never moved: aborted (play/abort.go)
		t.Errorf("stored %s by %q; want aborted on time", g.Result(), g.Reason())
	}
	h.tg.WaitFor(t, 10*time.Second, func(c telegramtest.Call) bool {
		return c.Method == "sendMessage" && c.ChatID() == h.group.ID && strings.Contains(c.Params["text"], "aborted")
	})
}

// OpenStreams is how many event streams the server holds.
func (s *Server) OpenStreams() int {
	s.streams.mu.Lock()
	defer s.streams.mu.Unlock()
	return s.streams.total
}
