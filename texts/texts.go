package texts

import (
	"embed"
	"fmt"
	"io/fs"
	"strings"

	"github.com/nicksnyder/go-i18n/v2/i18n"
	"golang.org/x/text/language"
	"gopkg.in/yaml.v3"
)

//go:embed catalog/*.yaml
var catalogFiles embed.FS

// Languages the players are spoken to in, by Telegram language_code
// prefix; the first is the fallback.
var Languages = []string{"en", "ru"}

// Catalog holds every text in every language.
type Catalog struct {
	locs map[string]*i18n.Localizer
}

// New loads the embedded catalogues. A file that does not parse is a
// build-time mistake, caught by the package's tests; New panics on it
// rather than run with texts missing.
func New() *Catalog {
	c, err := load(catalogFiles)
	if err != nil {
		panic(err)
	}
	return c
}

// load reads every catalog/*.yaml of fsys.
func load(fsys fs.FS) (*Catalog, error) {
	b := i18n.NewBundle(language.English)
	b.RegisterUnmarshalFunc("yaml", yaml.Unmarshal)
	files, err := fs.Glob(fsys, "catalog/*.yaml")
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("texts: no catalogue files")
	}
	for _, f := range files {
		if _, err := b.LoadMessageFileFS(fsys, f); err != nil {
			return nil, fmt.Errorf("texts: %s: %w", f, err)
		}
	}
	c := &Catalog{locs: map[string]*i18n.Localizer{}}
	for _, l := range Languages {
		c.locs[l] = i18n.NewLocalizer(b, l)
	}
	return c, nil
}

// Lang maps a Telegram language_code ("ru", "ru-RU", "uk", "") to one the
// catalogues have. Speakers of languages close to Russian get Russian.
func Lang(code string) string {
	code = strings.ToLower(code)
	for _, l := range []string{"ru", "uk", "be", "kk"} {
		if strings.HasPrefix(code, l) {
			return "ru"
		}
	}
	return "en"
}

// T returns text id in lang, filled from data (pairs of name, value).
func (c *Catalog) T(lang, id string, data ...any) string {
	return c.localize(lang, id, nil, data)
}

// N returns text id in lang in the plural form for count n; the template
// sees the count as .N.
func (c *Catalog) N(lang, id string, n int, data ...any) string {
	return c.localize(lang, id, n, append(data, "N", n))
}

func (c *Catalog) localize(lang, id string, count any, data []any) string {
	s, err := c.render(lang, id, count, data)
	if err != nil {
		// A missing text is a bug; show its id rather than nothing.
		return id
	}
	return s
}

func (c *Catalog) render(lang, id string, count any, data []any) (string, error) {
	loc, ok := c.locs[lang]
	if !ok {
		loc = c.locs[Languages[0]]
	}
	td := map[string]any{}
	for i := 0; i+1 < len(data); i += 2 {
		if k, ok := data[i].(string); ok {
			td[k] = data[i+1]
		}
	}
	return loc.Localize(&i18n.LocalizeConfig{MessageID: id, TemplateData: td, PluralCount: count})
}
