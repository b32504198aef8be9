package texts

import (
	"io/fs"
	"path"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// ruForms are the CLDR plural categories of Russian whole numbers (1 ход,
// 2 хода, 5 ходов) and of fractions (1,5 хода).
var ruForms = []string{"one", "few", "many", "other"}

// countedWord is a placeholder followed by a word: "{{.Of}} голосов".
var countedWord = regexp.MustCompile(`\{\{\s*\.(\w+)\s*\}\}[ \t]*([а-яёА-ЯЁ]+)`)

// notCounts are the placeholders that hold no number (names, squares,
// moves, sides, a time control), whose next word does not agree with them,
// and decimals, after which Russian always takes the fraction's form
// ("−1.5 шашки").
var notCounts = map[string]bool{
	"From": true, "To": true, "By": true, "Player": true, "Opponent": true, "White": true, "Black": true,
	"Square": true, "Move": true, "Control": true, "Name": true, "Level": true,
	"Loss": true, // "%.1f"
}

// invariant are the words that read right after any number: a
// preposition, and units written short.
var invariant = map[string]bool{"из": true, "с": true, "мин": true}

// Every plural is right in Russian: a text with a count (a plural in the
// catalogue) has each of the forms Russian needs, and no other Russian
// text puts a number before a word that would have to agree with it (as
// "1 из 1 голосов" did, which must be "голоса").
func TestEveryRussianPluralAgrees(t *testing.T) {
	files, err := fs.Glob(catalogFiles, "catalog/*.ru.yaml")
	if err != nil {
		t.Fatal(err)
	}
	c := New()
	plurals := 0
	for _, f := range files {
		data, err := fs.ReadFile(catalogFiles, f)
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := yaml.Unmarshal(data, &m); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for id, v := range m {
			where := path.Base(f) + " " + id
			forms, plural := v.(map[string]any)
			if !plural {
				for _, w := range countedWord.FindAllStringSubmatch(v.(string), -1) {
					if !notCounts[w[1]] && !invariant[strings.ToLower(w[2])] {
						t.Errorf("%s: %q follows the count .%s without a plural form for it", where, w[2], w[1])
					}
				}
				continue
			}
			plurals++
			for _, form := range ruForms {
				if s, ok := forms[form].(string); !ok || s == "" {
					t.Errorf("%s: no %q form", where, form)
				}
			}
			// go-i18n chooses the forms by CLDR: each count shows its own
			// (checked where N is the form's only placeholder).
			for n, form := range map[int]string{1: "one", 21: "one", 2: "few", 24: "few", 5: "many", 11: "many", 0: "many"} {
				tmpl, _ := forms[form].(string)
				want := strings.ReplaceAll(tmpl, "{{.N}}", strconv.Itoa(n))
				if strings.Contains(want, "{{") {
					continue
				}
				if got := c.N("ru", id, n); got != want {
					t.Errorf("%s for %d = %q, want its %q form %q", where, n, got, form, want)
				}
			}
		}
	}
	if plurals < 5 {
		t.Errorf("only %d plural texts found", plurals)
	}
}

// The team vote's line, as the issue read it: "1 из 1 голосов" was wrong.
func TestTeamVoteLineAgrees(t *testing.T) {
	c := New()
	for of, want := range map[int]string{1: "1 из 1 голоса", 3: "1 из 3 голосов", 5: "1 из 5 голосов", 21: "1 из 21 голоса"} {
		if got := c.N("ru", "team_last_vote", of, "Move", "c3-d4", "Votes", 1, "Names", "Аня"); !strings.Contains(got, want) {
			t.Errorf("one vote of %d: %q, want %q in it", of, got, want)
		}
	}
	if got := c.N("en", "team_last_vote", 1, "Move", "c3-d4", "Votes", 1, "Names", "Ann"); !strings.Contains(got, "1 of 1 vote (") {
		t.Errorf("one vote of one in English: %q", got)
	}
}
