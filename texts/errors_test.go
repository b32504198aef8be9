package texts

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/bashni/bashni/play"
	"github.com/bashni/bashni/rules"
)

// Every error with a text of its own is an everyday refusal (logged as a
// fault it would be a bug either way), and its text exists in every
// language.
func TestEveryErrorWithATextIsARefusal(t *testing.T) {
	c := New()
	for _, e := range errorTexts {
		if !play.KindOf(e.err).Refusal() {
			t.Errorf("%v has text %s but kind %v, a fault", e.err, e.text, play.KindOf(e.err))
		}
		for _, lang := range Languages {
			if _, err := c.render(lang, e.text, nil, nil); err != nil {
				t.Errorf("%v: %s text %s: %v", e.err, lang, e.text, err)
			}
		}
	}
}

// An error is said by its own text, wrapped or not; without one, by its
// kind; a fault gets an apology, never its details.
func TestErrorSaidByTextThenKind(t *testing.T) {
	c := New()
	for _, tc := range []struct {
		err  error
		want string
	}{
		{play.ErrNotYourTurn, "err_not_your_turn"},
		{fmt.Errorf("play: game g1: %w", play.ErrNotYourTurn), "err_not_your_turn"},
		{&play.Error{Kind: play.NotFound, Message: "gone"}, "err_game_gone"},
		{fmt.Errorf("x: %w", &play.Error{Kind: play.Unavailable, Message: "down"}), "err_unavailable"},
		{&play.Error{Kind: play.Busy, Message: "busy"}, "err_busy"},
		{errors.New("redis: secret details"), "err_internal"},
	} {
		for _, lang := range Languages {
			if got, want := c.Error(lang, tc.err, false), c.T(lang, tc.want); got != want {
				t.Errorf("%s %v: %q, want %q", lang, tc.err, got, want)
			}
		}
	}
}

// A refused move says why, and lists the legal moves when asked.
func TestMoveErrorSaysWhy(t *testing.T) {
	c := New()
	start := rules.Start(rules.Bashni)
	legal := start.Legal()
	err := &rules.MoveError{Input: "a1-b2", Cause: rules.CauseNotLegalHere, Legal: legal}
	short := c.Error("en", err, false)
	long := c.Error("en", err, true)
	if short == "" || short == c.T("en", "err_internal") || !strings.HasPrefix(long, short) || !strings.Contains(long, legal[0].String()) {
		t.Errorf("move error: %q / %q", short, long)
	}
}

// TestCaptureUnfinishedSaysSo: a capture typed only part of the way, in a
// game or a lesson, is told that the capture must go on, in both
// languages, and not that capturing is compulsory.
func TestCaptureUnfinishedSaysSo(t *testing.T) {
	c := New()
	p := rules.MustParsePosition("w:c3w,d4b,f4b,h8b")
	_, err := rules.ParseMove(&p, "c3:e5")
	for _, lang := range []string{"en", "ru"} {
		got := c.Error(lang, err, false)
		if got == c.T(lang, "move_must_capture") || !strings.Contains(got, "c3") || got == "move_capture_unfinished" {
			t.Errorf("%s: %q", lang, got)
		}
	}
}
