package training

import (
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bashni/bashni/play"
	"github.com/bashni/bashni/texts"
)

// sentinels is every error training names, with the kind the doors answer
// it by. TestEverySentinelHasAKind keeps it complete.
var sentinels = map[string]struct {
	err  error
	kind play.Kind
}{
	"ErrNoPuzzle":      {ErrNoPuzzle, play.NotFound},
	"ErrStalePuzzle":   {ErrStalePuzzle, play.Conflict},
	"ErrPuzzleTooFast": {ErrPuzzleTooFast, play.TooMany},
	"ErrNoPuzzlesSet":  {ErrNoPuzzlesSet, play.NotFound},
	"ErrNoTheme":       {ErrNoTheme, play.Invalid},
	"ErrDailyClosed":   {ErrDailyClosed, play.Conflict},
	"ErrDailyTried":    {ErrDailyTried, play.TooMany},
	"ErrNoDaily":       {ErrNoDaily, play.NotFound},
	"ErrNotTheTask":    {ErrNotTheTask, play.Invalid},
	"ErrStaleLesson":   {ErrStaleLesson, play.Conflict},
	"ErrCourseDone":    {ErrCourseDone, play.NotFound},
}

// errVars lists the package-level variables of the production files whose
// names start with Err, and the file of each.
func errVars(t *testing.T) map[string]string {
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
			if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.VAR {
				for _, s := range gd.Specs {
					for _, id := range s.(*ast.ValueSpec).Names {
						if strings.HasPrefix(id.Name, "Err") {
							vars[id.Name] = name
						}
					}
				}
			}
		}
	}
	return vars
}

// Every error training exports is in the table above with its kind, is
// declared in errors.go, is a *play.Error, and play.KindOf finds that
// kind through wrapping: the doors answer it as they answer play's own.
func TestEverySentinelHasAKind(t *testing.T) {
	vars := errVars(t)
	for name, file := range vars {
		if _, ok := sentinels[name]; !ok {
			t.Errorf("%s (%s) is not in the table of sentinels: give it a kind", name, file)
		} else if file != "errors.go" {
			t.Errorf("%s is a refusal declared in %s; refusals live in errors.go", name, file)
		}
	}
	for name, s := range sentinels {
		if _, ok := vars[name]; !ok {
			t.Errorf("the table names %s, which training no longer declares", name)
		}
		if got := play.KindOf(fmt.Errorf("training: user 1: %w", s.err)); got != s.kind {
			t.Errorf("KindOf(wrapped %s) = %v, want %v", name, got, s.kind)
		}
		if _, ok := errors.AsType[*play.Error](s.err); !ok {
			t.Errorf("%s is not a *play.Error", name)
		}
	}
}

// A refusal that names its text is said by it, wrapped or not, in every
// language: the text exists (a missing one is said as its bare id).
func TestRefusalsSaidByTheirText(t *testing.T) {
	c := texts.New()
	for name, s := range sentinels {
		var e *play.Error
		if !errors.As(s.err, &e) || e.Text == "" {
			continue
		}
		for _, lang := range texts.Languages {
			got := c.Error(lang, fmt.Errorf("training: user 1: %w", s.err), false)
			if got == e.Text || got != c.T(lang, e.Text) {
				t.Errorf("%s in %s: %q, want its text %s", name, lang, got, e.Text)
			}
		}
	}
}
