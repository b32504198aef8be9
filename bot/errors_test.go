package bot

import (
	"errors"
	"fmt"
	"testing"

	"github.com/bashni/bashni/play"
	"github.com/bashni/bashni/rules"
	"github.com/bashni/bashni/storage"
	"github.com/bashni/bashni/texts"
)

// Whether an error is logged as a fault follows from its kind alone: the
// store down and errors of no kind are faults, every other kind is an
// everyday refusal.
func TestExpectedByKind(t *testing.T) {
	faults := map[play.Kind]bool{play.Internal: true, play.Unavailable: true}
	for _, k := range play.Kinds() {
		err := fmt.Errorf("handler: %w", &play.Error{Kind: k, Message: "play: a refusal of kind " + k.String()})
		if got := expected(err); got == faults[k] {
			t.Errorf("kind %v: expected = %v, want %v", k, got, !faults[k])
		}
	}
}

// The kinds keep what the bot logged before they existed: illegal and
// ambiguous moves were expected, the store down was a fault, and so was
// anything else without a text (every error with a text of its own is a
// refusal: texts.TestEveryErrorWithATextIsARefusal).
func TestExpectedAsBeforeKinds(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want bool
	}{
		{&rules.MoveError{Input: "a1-b2", Cause: rules.CauseNotLegalHere}, true},
		{rules.ErrAmbiguousMove, true},
		{&play.TimeUpError{}, true},
		{play.ErrNoAI, false},
		{play.ErrBadAnswer, false},
		{errors.New("redis: connection refused"), false},
		{fmt.Errorf("wrapped: %w", storage.ErrUnavailable), false},
		{fmt.Errorf("wrapped: %w", storage.ErrNotFound), true},
	} {
		if got := expected(tc.err); got != tc.want {
			t.Errorf("%v: expected = %v, want %v", tc.err, got, tc.want)
		}
	}
}

// ErrGameNotOver is one error for two refusals, said in the words of each:
// the analysis (its own text, the Mini App's too) and a rematch tapped
// while the game goes on.
func TestGameNotOverSaidByContext(t *testing.T) {
	b := &Bot{core: &core{texts: texts.New()}}
	for _, lang := range []string{"en", "ru"} {
		err := fmt.Errorf("play: game g1: %w", play.ErrGameNotOver)
		if got, want := b.texts.Error(lang, err, false), b.texts.T(lang, "err_game_not_over"); got != want {
			t.Errorf("%s: the analysis refused: %q, want %q", lang, got, want)
		}
		if got, want := b.rematchRefusal(lang, err), b.texts.T(lang, "err_not_over"); got != want {
			t.Errorf("%s: a rematch refused: %q, want %q", lang, got, want)
		}
		if got, want := b.rematchRefusal(lang, play.ErrRematchOffered), b.texts.T(lang, "err_rematch_offered"); got != want {
			t.Errorf("%s: a second offer: %q, want %q", lang, got, want)
		}
	}
}
