package main

import (
	"strings"
	"testing"

	"github.com/bashni/bashni/internal/telegramtest"
)

// Rematch in a group is an offer Bob must accept: Alice's taps make no
// game, Bob is told in a new message, his tap starts one game, and later
// taps, forged and outdated buttons get a short true answer, no error.
func TestE2ERematchNeedsTheOpponentsTap(t *testing.T) {
	srv := telegramtest.New(t)
	p := startBot(t, srv, nil)
	group := telegramtest.GroupChat(-1007777777777, "Rematch club")
	alice, bob := newUser(801, "Alice", "en"), newUser(802, "Bob", "en")
	c := startGroupGame(t, srv, group, alice, bob)
	resign(t, srv, group, bob) // at move 0: aborted (play/abort.go), a rematch all the same
	final := waitMessage(t, srv, group.ID, "final card", func(m telegramtest.Msg) bool {
		return m.ID == c.ID && strings.Contains(m.Text, "Game aborted")
	})
	var rematch string
	for _, b := range buttons(final) {
		if strings.HasPrefix(b[1], "r|") {
			rematch = b[1]
		}
	}
	if rematch == "" {
		t.Fatalf("no Rematch button on %v", buttons(final))
	}
	photos := func() int { return len(srv.CallsTo("sendPhoto")) }
	before := photos()

	if toast := tap(t, srv, group, alice, c.ID, rematch); !strings.Contains(toast, "Rematch offered to Bob") {
		t.Errorf("Alice's Rematch: toast %q", toast)
	}
	waitMessage(t, srv, group.ID, "the offer, told to Bob", func(m telegramtest.Msg) bool {
		return strings.Contains(m.Text, "Alice offers Bob a rematch")
	})
	for range 3 {
		if toast := tap(t, srv, group, alice, c.ID, rematch); !strings.Contains(toast, "offered a rematch already") {
			t.Errorf("Alice's Rematch again: toast %q", toast)
		}
	}
	if n := photos(); n != before {
		t.Fatalf("%d new boards after Alice's taps alone, want none", n-before)
	}
	offered := waitMessage(t, srv, group.ID, "card with the offer", func(m telegramtest.Msg) bool {
		return m.ID == c.ID && strings.Contains(strings.Join(flat(buttons(m)), " "), "ry|")
	})
	var accept string
	for _, b := range buttons(offered) {
		if strings.HasPrefix(b[1], "ry|") {
			accept = b[1]
		}
	}
	tap(t, srv, group, bob, c.ID, accept)
	waitMessage(t, srv, group.ID, "the rematch's card", func(m telegramtest.Msg) bool {
		return m.Kind == "photo" && m.ID != c.ID && strings.Contains(m.Text, "Bob vs ⚫ Alice")
	})
	for _, tt := range []struct {
		who  user
		data string
		want string
	}{
		{bob, accept, "started already"},
		{alice, rematch, "started already"},
		{bob, rematch, "started already"},
		{alice, "r|nosuchgame|-1|", "no longer stored"},
		{alice, "ry|nosuchgame|-1|", "no longer stored"},
		{alice, "rn|" + strings.Split(rematch, "|")[1] + "|-1|", "started already"},
	} {
		if toast := tap(t, srv, group, tt.who, c.ID, tt.data); !strings.Contains(toast, tt.want) {
			t.Errorf("%s taps %s: toast %q, want %q", tt.who.u.FirstName, tt.data, toast, tt.want)
		}
	}
	if n := photos(); n != before+1 {
		t.Errorf("%d boards posted after the offer, want the 1 rematch", n-before)
	}
	if strings.Contains(p.logs.String(), `"level":"ERROR"`) {
		t.Errorf("errors logged:\n%s", p.logs)
	}
}

// flat lists every button's data.
func flat(bs [][2]string) []string {
	var out []string
	for _, b := range bs {
		out = append(out, b[1])
	}
	return out
}
