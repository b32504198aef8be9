package texts

import (
	"io/fs"
	"path"
	"strings"
	"testing"
	"testing/fstest"

	"gopkg.in/yaml.v3"
)

// idsByLanguage reads the catalogue files as plain YAML: which ids each
// language has.
func idsByLanguage(t *testing.T) (ids map[string]map[string]bool, plural map[string]bool) {
	t.Helper()
	files, err := fs.Glob(catalogFiles, "catalog/*.yaml")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]map[string]bool{}
	plural = map[string]bool{}
	for _, f := range files {
		name := strings.TrimSuffix(path.Base(f), ".yaml")
		lang := name[strings.LastIndex(name, ".")+1:]
		data, err := fs.ReadFile(catalogFiles, f)
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := yaml.Unmarshal(data, &m); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if out[lang] == nil {
			out[lang] = map[string]bool{}
		}
		for id := range m {
			if out[lang][id] {
				t.Errorf("%s: %q is defined twice in %s", f, id, lang)
			}
			out[lang][id] = true
			if forms, ok := m[id].(map[string]any); ok && forms["one"] != nil {
				plural[id] = true
			}
		}
	}
	return out, plural
}

// Every text exists in every language, and every one of them renders: a
// template that does not parse would show its id to a player.
func TestEveryTextInEveryLanguage(t *testing.T) {
	ids, plural := idsByLanguage(t)
	if len(ids) != len(Languages) {
		t.Fatalf("catalogues for %d languages, want %v", len(ids), Languages)
	}
	c := New()
	for _, lang := range Languages {
		for id := range ids[Languages[0]] {
			if !ids[lang][id] {
				t.Errorf("%q has no %s text", id, lang)
			}
		}
		for id := range ids[lang] {
			if !ids[Languages[0]][id] {
				t.Errorf("%q is in %s only", id, lang)
			}
			var count any
			if plural[id] {
				count = 2
			}
			if _, err := c.render(lang, id, count, nil); err != nil {
				t.Errorf("%s %q does not render: %v", lang, id, err)
			}
		}
	}
	if n := len(ids["en"]); n < 300 {
		t.Errorf("only %d texts loaded", n)
	}
}

// Russian plurals take the right form (1 ход, 2 хода, 5 ходов, 21 ход).
func TestPlurals(t *testing.T) {
	c := New()
	for _, tt := range []struct {
		lang string
		n    int
		want string
	}{
		{"ru", 1, "1 ход"}, {"ru", 2, "2 хода"}, {"ru", 5, "5 ходов"}, {"ru", 21, "21 ход"}, {"ru", 11, "11 ходов"}, {"ru", 22, "22 хода"},
		{"en", 1, "1 move"}, {"en", 2, "2 moves"}, {"en", 21, "21 moves"},
	} {
		if got := c.N(tt.lang, "plies", tt.n); got != tt.want {
			t.Errorf("%s plural of %d: got %q, want %q", tt.lang, tt.n, got, tt.want)
		}
	}
}

func TestLang(t *testing.T) {
	for code, want := range map[string]string{"ru-RU": "ru", "uk": "ru", "": "en", "de": "en", "EN-us": "en"} {
		if got := Lang(code); got != want {
			t.Errorf("Lang(%q) = %s, want %s", code, got, want)
		}
	}
}

// A catalogue that does not parse is refused with its file named, and an
// unknown id or language falls back rather than failing a message.
func TestBadCatalogueAndUnknownIDs(t *testing.T) {
	_, err := load(fstest.MapFS{"catalog/x.en.yaml": {Data: []byte("a: [unclosed")}})
	if err == nil || !strings.Contains(err.Error(), "x.en.yaml") {
		t.Errorf("bad file: err = %v", err)
	}
	if _, err := load(fstest.MapFS{}); err == nil {
		t.Error("no files: no error")
	}
	c := New()
	if got := c.T("en", "no_such_text"); got != "no_such_text" {
		t.Errorf("unknown id: %q", got)
	}
	if got, want := c.T("xx", "btn_rules"), c.T("en", "btn_rules"); got != want {
		t.Errorf("unknown language: %q, want %q", got, want)
	}
}
