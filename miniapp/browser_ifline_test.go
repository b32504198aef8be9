package miniapp

import (
	"context"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/bashni/bashni/play/manners"
)

// In a game at days per move, on Bob's move, Alice enters "If…", plays
// the reply she expects for Black and her answer on the board, saves,
// and sees the line saved; the store has it.
func TestBrowserConditionalLine(t *testing.T) {
	browser := newBrowser(t)
	h := newHarnessWith(t, gameSpec{daysPerMove: 3}, nil)
	r := h.reps[0]
	if _, err := r.svc.Move(h.ctx, h.gameID, h.alice.ID, 0, "c3-d4"); err != nil {
		t.Fatal(err)
	}
	alice := h.tab(browser, r, h.initData(h.alice), lightTheme)
	waitPly(t, alice, 1)
	if pace, err := chromedp.Run(alice, chromedp.Evaluate[string](`document.getElementById("pace").textContent`)); err != nil || pace == "" {
		t.Errorf("no pace shown (%v)", err)
	}
	if err := do(alice, chromedp.Click(chromedp.CSS(`#if-start`))); err != nil {
		t.Fatal(err)
	}
	waitIf(t, alice, 0)
	tap(t, alice, "f6") // Black's reply, played for Bob
	tap(t, alice, "e5")
	waitIf(t, alice, 1)
	tap(t, alice, "d4") // Alice's answer: the capture
	tap(t, alice, "f6")
	waitIf(t, alice, 2)
	screenshot(t, alice, "if-line-light.png")
	if err := do(alice, chromedp.Click(chromedp.CSS(`#if-save`))); err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Run(alice, chromedp.Poll[bool](`document.getElementById("if-line").textContent.includes("d4:f6")`,
		chromedp.WithPollingTimeout(10*time.Second))); err != nil {
		got, _ := chromedp.Run(alice, chromedp.Evaluate[string](`document.getElementById("if-line").textContent + " | " + document.getElementById("toast").textContent`))
		t.Fatalf("the saved line is not shown: %v (%q)", err, got)
	}
	if line := manners.LineOf(h.stored(), h.alice.ID); !slices.Equal(line, []string{"f6-e5", "d4:f6"}) {
		t.Fatalf("stored %v; want [f6-e5 d4:f6]", line)
	}
}

// waitIf waits until the line being entered on the board has n moves.
func waitIf(t *testing.T, ctx context.Context, n int) {
	t.Helper()
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](`document.body.dataset.ifMoves === "`+strconv.Itoa(n)+`"`,
		chromedp.WithPollingTimeout(10*time.Second))); err != nil {
		got, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`String(document.body.dataset.ifMoves) + " " + document.getElementById("toast").textContent`))
		t.Fatalf("the line being entered has not %d moves: %v (%q)", n, err, got)
	}
}
