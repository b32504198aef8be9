package main

import (
	"bytes"
	"image/png"
	"strings"
	"testing"

	"github.com/bashni/bashni/internal/telegramtest"
	"github.com/bashni/bashni/render"
)

// The engine working for a player against the AI, end to end through the
// bot: hints drawn on the board until none are left, a takeback that makes
// the game casual (so it counts in no statistics) and turns the old
// board's buttons stale, and after the game the analysis graph.
func TestE2EHintTakebackAndAnalysis(t *testing.T) {
	srv := telegramtest.New(t)
	startBot(t, srv, nil)
	alice := newUser(301, "Alice", "en")
	chat := alice.chat

	say(srv, chat, alice, "/play 2 white")
	c := waitMessage(t, srv, chat.ID, "board card", func(m telegramtest.Msg) bool { return m.Kind == "photo" })
	pickFirstMove(t, srv, chat, alice, c.ID)
	waitTurn(t, srv, chat.ID, c.ID)

	// Three hints, each a board photo naming the move, then a refusal.
	for i, left := range []string{"2 hints left", "1 hint left", "0 hints left"} {
		say(srv, chat, alice, "/hint")
		h := waitMessage(t, srv, chat.ID, "hint "+left, func(m telegramtest.Msg) bool {
			return m.Kind == "photo" && strings.Contains(m.Text, "Hint: ") && strings.Contains(m.Text, left)
		})
		checkPNG(t, h.Data)
		if i == 0 && !strings.Contains(h.Text, "-") && !strings.Contains(h.Text, ":") {
			t.Errorf("hint caption %q names no move", h.Text)
		}
		if i == 0 {
			// The hint is drawn as a picked tower, in the theme's
			// Selected colour, never in the last move's colours: both are
			// on the board.
			img, err := png.Decode(bytes.NewReader(h.Data))
			if err != nil {
				t.Fatal(err)
			}
			sel, n := render.Classic().Selected, 0
			b := img.Bounds()
			for y := b.Min.Y; y < b.Max.Y; y += 2 {
				for x := b.Min.X; x < b.Max.X; x += 2 {
					r, g, bl, _ := img.At(x, y).RGBA()
					if uint8(r>>8) == sel.R && uint8(g>>8) == sel.G && uint8(bl>>8) == sel.B {
						n++
					}
				}
			}
			if n < 100 {
				t.Errorf("the hint board has %d pixels of the Selected colour: the hinted tower is not marked apart from the last move", n)
			}
		}
	}
	say(srv, chat, alice, "/hint")
	waitMessage(t, srv, chat.ID, "no hints left", func(m telegramtest.Msg) bool { return strings.Contains(m.Text, "No hints left") })

	// A second move, then take it back: the card shows the board after
	// the first full move again and its old buttons are stale.
	before := card(t, srv, chat.ID, c.ID)
	pickFirstMove(t, srv, chat, alice, c.ID)
	after := waitTurn(t, srv, chat.ID, c.ID)
	var oldPick string
	for _, b := range buttons(after) {
		if isPick(b[1]) {
			oldPick = b[1]
			break
		}
	}
	say(srv, chat, alice, "/takeback")
	waitMessage(t, srv, chat.ID, "takeback", func(m telegramtest.Msg) bool {
		return strings.Contains(m.Text, "taken back") && strings.Contains(m.Text, "casual")
	})
	back := waitMessage(t, srv, chat.ID, "card after the takeback", func(m telegramtest.Msg) bool {
		return m.ID == c.ID && m.Edits > after.Edits && m.Text == before.Text
	})
	if !bytes.Equal(back.Data, before.Data) {
		t.Error("the card's board after the takeback differs from the board before the taken-back move")
	}
	if toast := tap(t, srv, chat, alice, c.ID, oldPick); !strings.Contains(toast, "changed") {
		t.Errorf("a tap on the board before the takeback: toast %q, want it refused as stale", toast)
	}

	// Resign; the casual game counts in no statistics.
	resign(t, srv, chat, alice)
	final := waitMessage(t, srv, chat.ID, "finished card", func(m telegramtest.Msg) bool { return m.ID == c.ID && gameOver(m) })
	say(srv, chat, alice, "/stats")
	waitMessage(t, srv, chat.ID, "stats", func(m telegramtest.Msg) bool { return strings.Contains(m.Text, "0 games") })

	// Analyse: a graph of the whole game as a PNG of the graph's size.
	analyse := analyseButton(t, final)
	tap(t, srv, chat, alice, c.ID, analyse)
	a := waitMessage(t, srv, chat.ID, "analysis", func(m telegramtest.Msg) bool {
		return m.Kind == "photo" && strings.Contains(m.Text, "Analysis")
	})
	img, err := png.Decode(bytes.NewReader(a.Data))
	if err != nil {
		t.Fatalf("analysis graph is not a PNG: %v", err)
	}
	if got := img.Bounds().Size(); got.X != render.DefaultGraphWidth || got.Y != render.DefaultGraphHeight {
		t.Errorf("graph size %v, want %dx%d", got, render.DefaultGraphWidth, render.DefaultGraphHeight)
	}
	if !strings.Contains(a.Text, "Analysis: Alice vs") || !strings.Contains(a.Text, "0-1, 🤖 Beginner (2) wins") || !strings.Contains(a.Text, "mistakes") && !strings.Contains(a.Text, "No clear mistakes") {
		t.Errorf("analysis caption %q: want the players, the result and the mistakes (or that there were none)", a.Text)
	}
	t.Logf("analysis caption: %q", a.Text)
	if strings.Contains(a.Text, "better") && !strings.Contains(a.Text, " men · better") {
		t.Errorf("analysis caption %q gives a loss without its unit (men)", a.Text)
	}
	saveBoard(t, "analysis_graph.png", a.Data)

	// Whoever taps reads it in their own language. (The mistakes may
	// differ: the engines' tables are warmer the second time.)
	boris := newUser(302, "Boris", "ru")
	tap(t, srv, chat, boris, c.ID, analyse)
	waitMessage(t, srv, chat.ID, "analysis in Russian", func(m telegramtest.Msg) bool {
		return m.Kind == "photo" && strings.Contains(m.Text, "Анализ: Alice") &&
			(strings.Contains(m.Text, " шашки · лучше") || strings.Contains(m.Text, "Явных ошибок нет"))
	})
}
