package play

import (
	"context"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/bashni/bashni/rules"
	"github.com/bashni/bashni/storage"
)

// sentinels is every error play names, with the kind the doors answer it
// by. TestEverySentinelHasAKind keeps it complete.
var sentinels = map[string]struct {
	err  error
	kind Kind
}{
	"ErrNotYourTurn":     {ErrNotYourTurn, Forbidden},
	"ErrNotAPlayer":      {ErrNotAPlayer, Forbidden},
	"ErrStale":           {ErrStale, Conflict},
	"ErrGameOver":        {ErrGameOver, Conflict},
	"ErrGameNotOver":     {ErrGameNotOver, Conflict},
	"ErrTimeUp":          {ErrTimeUp, Conflict},
	"ErrNoChallenge":     {ErrNoChallenge, NotFound},
	"ErrNotForYou":       {ErrNotForYou, Forbidden},
	"ErrOwnChallenge":    {ErrOwnChallenge, Forbidden},
	"ErrNoDrawOffer":     {ErrNoDrawOffer, Conflict},
	"ErrDrawOfferOwn":    {ErrDrawOfferOwn, Forbidden},
	"ErrDrawPending":     {ErrDrawPending, Conflict},
	"ErrAIDeclinesDraw":  {ErrAIDeclinesDraw, Conflict},
	"ErrRematchOffered":  {ErrRematchOffered, Conflict},
	"ErrRematchStarted":  {ErrRematchStarted, Conflict},
	"ErrNoRematch":       {ErrNoRematch, NotFound},
	"ErrAITurn":          {ErrAITurn, Conflict},
	"ErrBadLevel":        {ErrBadLevel, Invalid},
	"ErrBadColour":       {ErrBadColour, Invalid},
	"ErrBadVariant":      {ErrBadVariant, Invalid},
	"ErrTooManyGames":    {ErrTooManyGames, TooMany},
	"ErrBadTimeControl":  {ErrBadTimeControl, Invalid},
	"ErrBusy":            {ErrBusy, Busy},
	"ErrNotAgainstAI":    {ErrNotAgainstAI, Invalid},
	"ErrNoHintsLeft":     {ErrNoHintsLeft, TooMany},
	"ErrNoTakeback":      {ErrNoTakeback, Conflict},
	"ErrNoTakebacksLeft": {ErrNoTakebacksLeft, TooMany},
	"ErrHintRunning":     {ErrHintRunning, Conflict},
	// Days per move (pace.go).
	"ErrBadPace":          {ErrBadPace, Invalid},
	"ErrNotYourChallenge": {ErrNotYourChallenge, Forbidden},
	// Faults.
	"ErrNoAI":      {ErrNoAI, Internal},
	"ErrBadAnswer": {ErrBadAnswer, Internal},
	// Not a refusal but a signal to the bot (an *AppliedError: show what
	// the change owes); one that escaped it would be a fault.
	"ErrApplied": {ErrApplied, Internal},
}

// exportedErrVars lists the package-level variables of play's production
// files whose names start with Err, and the file of each.
func exportedErrVars(t *testing.T) map[string]string {
	t.Helper()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	vars := map[string]string{}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.VAR {
				continue
			}
			for _, s := range gd.Specs {
				for _, id := range s.(*ast.ValueSpec).Names {
					if strings.HasPrefix(id.Name, "Err") {
						vars[id.Name] = name
					}
				}
			}
		}
	}
	return vars
}

// Every error play exports is in the table above with its kind, every
// refusal is declared in errors.go, and KindOf finds that kind through
// wrapping.
func TestEverySentinelHasAKind(t *testing.T) {
	vars := exportedErrVars(t)
	for name, file := range vars {
		s, ok := sentinels[name]
		if !ok {
			t.Errorf("%s (%s) is not in the table of sentinels: give it a kind", name, file)
			continue
		}
		if s.kind != Internal && file != "errors.go" {
			t.Errorf("%s is a refusal declared in %s; refusals live in errors.go", name, file)
		}
	}
	for name, s := range sentinels {
		if _, ok := vars[name]; !ok {
			t.Errorf("the table names %s, which play no longer declares", name)
		}
		if got := KindOf(s.err); got != s.kind {
			t.Errorf("KindOf(%s) = %v, want %v", name, got, s.kind)
		}
		if got := KindOf(fmt.Errorf("play: game g1: %w", s.err)); got != s.kind {
			t.Errorf("KindOf(wrapped %s) = %v, want %v", name, got, s.kind)
		}
		var e *Error
		if isRefusal := errors.As(s.err, &e); isRefusal != (s.kind != Internal) {
			t.Errorf("%s: a *play.Error is %v, yet its kind is %v", name, isRefusal, s.kind)
		}
	}
}

// The errors of the packages below play that reach the doors as they are,
// and errors play gives that are not sentinels.
func TestKindOfOtherErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		err  error
		want Kind
	}{
		{"an illegal move", &rules.MoveError{Input: "a1-b2", Cause: rules.CauseNotLegalHere}, Invalid},
		{"an ambiguous move", fmt.Errorf("move: %w", rules.ErrAmbiguousMove), Invalid},
		{"an invalid position", fmt.Errorf("setup: %w", rules.ErrInvalidPosition), Invalid},
		{"the rules' game over", rules.ErrGameOver, Conflict},
		{"a game not stored", fmt.Errorf("storage: game g1: %w", storage.ErrNotFound), NotFound},
		{"the store down", fmt.Errorf("storage: redis: get: %w: %w", storage.ErrUnavailable, errors.New("i/o timeout")), Unavailable},
		{"lost on time before the action", &TimeUpError{}, Conflict},
		{"a cancelled request", context.Canceled, Internal},
		{"anything else", errors.New("disk on fire"), Internal},
	} {
		if got := KindOf(tc.err); got != tc.want {
			t.Errorf("%s: KindOf = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// Only Internal and Unavailable are faults; every kind has a name.
func TestKindRefusalAndName(t *testing.T) {
	var faults []Kind
	names := map[string]bool{}
	for _, k := range Kinds() {
		if !k.Refusal() {
			faults = append(faults, k)
		}
		if n := k.String(); n == "" || strings.Contains(n, "?") || names[n] {
			t.Errorf("kind %d is named %q", k, n)
		} else {
			names[n] = true
		}
	}
	if !slices.Equal(faults, []Kind{Internal, Unavailable}) {
		t.Errorf("faults = %v, want [internal unavailable]", faults)
	}
}
