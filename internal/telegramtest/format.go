package telegramtest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf16"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"
)

// Limits of the Bot API, counted in UTF-16 code units after parsing.
const (
	maxText    = 4096
	maxCaption = 1024
)

// formatted is a text as Telegram stores it: the plain text users see and
// a signature of its formatting entities.
type formatted struct {
	text     string
	entities string
}

// entity is a formatting entity, offsets in UTF-16 units of the plain text.
type entity struct {
	kind          string
	start, length int
	attrs         string
}

// format parses text in parse_mode and trims white space around it as
// Telegram does. Only HTML is parsed; Markdown texts are kept as sent.
func format(text, parseMode string) (formatted, *Failure) {
	plain, ents := text, []entity(nil)
	switch strings.ToLower(parseMode) {
	case "":
	case "html":
		var f *Failure
		if plain, ents, f = parseHTML(text); f != nil {
			return formatted{}, f
		}
	case "markdown", "markdownv2":
		ents = []entity{{kind: parseMode}}
	default:
		return formatted{}, badRequest("unsupported parse_mode")
	}
	trimmed := strings.TrimLeftFunc(plain, unicode.IsSpace)
	lead := utf16Len(plain[:len(plain)-len(trimmed)])
	trimmed = strings.TrimRightFunc(trimmed, unicode.IsSpace)
	n := utf16Len(trimmed)
	sig := make([]string, 0, len(ents))
	for _, e := range ents {
		start := min(max(e.start-lead, 0), n)
		end := min(max(e.start+e.length-lead, 0), n)
		if end > start || e.length == 0 {
			sig = append(sig, fmt.Sprintf("%s:%d:%d:%s", e.kind, start, end-start, e.attrs))
		}
	}
	return formatted{text: trimmed, entities: strings.Join(sig, ";")}, nil
}

func utf16Len(s string) int { return len(utf16.Encode([]rune(s))) }

// htmlEntities maps the tags Telegram's HTML accepts to the entity they make.
var htmlEntities = map[string]string{
	"b": "bold", "strong": "bold",
	"i": "italic", "em": "italic",
	"u": "underline", "ins": "underline",
	"s": "strikethrough", "strike": "strikethrough", "del": "strikethrough",
	"a": "text_link", "code": "code", "pre": "pre",
	"tg-spoiler": "spoiler", "span": "spoiler",
}

// parseHTML parses Telegram's HTML subset, refusing what Telegram refuses: an
// unsupported or unclosed tag, or a stray "<", which unescaped user input
// (a name like "<3") makes.
func parseHTML(s string) (string, []entity, *Failure) {
	type open struct {
		name, attrs string
		start       int // in UTF-16 units of the plain text
	}
	var (
		b     strings.Builder
		stack []open
		ents  []entity
	)
	fail := func(format string, args ...any) (string, []entity, *Failure) {
		return "", nil, badRequest("can't parse entities: "+format, args...)
	}
	for i := 0; i < len(s); {
		switch s[i] {
		case '<':
			j := strings.IndexByte(s[i:], '>')
			if j < 0 {
				return fail("Can't find end of the tag starting at byte offset %d", i)
			}
			tag := s[i+1 : i+j]
			if name, ok := strings.CutPrefix(tag, "/"); ok {
				name = strings.ToLower(strings.TrimSpace(name))
				if len(stack) == 0 {
					return fail("Unexpected end tag at byte offset %d", i)
				}
				top := stack[len(stack)-1]
				if name != top.name {
					return fail("Unmatched end tag at byte offset %d, expected \"</%s>\", found \"</%s>\"", i, top.name, name)
				}
				stack = stack[:len(stack)-1]
				ents = append(ents, entity{htmlEntities[top.name], top.start, utf16Len(b.String()) - top.start, top.attrs})
			} else {
				name, attrs, _ := strings.Cut(tag, " ")
				name = strings.ToLower(name)
				if _, ok := htmlEntities[name]; !ok {
					return fail("Unsupported start tag %q at byte offset %d", name, i)
				}
				stack = append(stack, open{name: name, attrs: strings.TrimSpace(attrs), start: utf16Len(b.String())})
			}
			i += j + 1
		case '&':
			if r, n := htmlEntity(s[i:]); n > 0 {
				b.WriteRune(r)
				i += n
				continue
			}
			b.WriteByte('&')
			i++
		default:
			b.WriteByte(s[i])
			i++
		}
	}
	if len(stack) > 0 {
		return fail("Can't find end tag corresponding to start tag %q", stack[len(stack)-1].name)
	}
	return b.String(), ents, nil
}

// htmlEntity decodes an entity at the start of s: the four named ones
// Telegram knows and numeric ones. n is 0 when there is none.
func htmlEntity(s string) (r rune, n int) {
	end := strings.IndexByte(s, ';')
	if end < 2 || end > 10 {
		return 0, 0
	}
	name := s[1:end]
	switch name {
	case "lt":
		return '<', end + 1
	case "gt":
		return '>', end + 1
	case "amp":
		return '&', end + 1
	case "quot":
		return '"', end + 1
	}
	if num, ok := strings.CutPrefix(name, "#"); ok {
		base := 10
		if hex, ok := strings.CutPrefix(strings.ToLower(num), "x"); ok {
			num, base = hex, 16
		}
		if v, err := strconv.ParseUint(num, base, 32); err == nil {
			return rune(v), end + 1
		}
	}
	return 0, 0
}

// formatCaption formats a caption and checks its length, as every method
// that takes one does.
func formatCaption(text, parseMode string) (formatted, *Failure) {
	caption, f := format(text, parseMode)
	if f != nil {
		return formatted{}, f
	}
	return caption, checkLength(caption, true)
}

// checkLength refuses texts over Telegram's limits.
func checkLength(f formatted, caption bool) *Failure {
	n := utf16Len(f.text)
	switch {
	case caption && n > maxCaption:
		return badRequest("message caption is too long")
	case !caption && n > maxText:
		return badRequest("message is too long")
	}
	return nil
}

// inlineKeyboard is an inline keyboard as a message holds it: parsed, and as
// canonical JSON to tell whether an edit changes it. It is never modified
// once made, so answers encoded after s.mu is released may share it; callers
// outside the fake get copies (clone).
type inlineKeyboard struct {
	markup tgbotapi.InlineKeyboardMarkup
	canon  []byte
}

// shared returns the keyboard itself, nil for none, for an answer that is
// only encoded.
func (k *inlineKeyboard) shared() *tgbotapi.InlineKeyboardMarkup {
	if k == nil {
		return nil
	}
	return &k.markup
}

// clone returns a deep copy of the keyboard, nil for none.
func (k *inlineKeyboard) clone() *tgbotapi.InlineKeyboardMarkup {
	if k == nil {
		return nil
	}
	rows := make([][]tgbotapi.InlineKeyboardButton, len(k.markup.InlineKeyboard))
	for i, row := range k.markup.InlineKeyboard {
		rows[i] = slices.Clone(row)
		for j := range rows[i] {
			b := &rows[i][j]
			b.URL, b.CallbackData = clonePtr(b.URL), clonePtr(b.CallbackData)
			b.SwitchInlineQuery, b.SwitchInlineQueryCurrentChat = clonePtr(b.SwitchInlineQuery), clonePtr(b.SwitchInlineQueryCurrentChat)
			b.LoginURL, b.CallbackGame = clonePtr(b.LoginURL), clonePtr(b.CallbackGame)
		}
	}
	if k.markup.InlineKeyboard == nil {
		rows = nil
	}
	return &tgbotapi.InlineKeyboardMarkup{InlineKeyboard: rows}
}

// clonePtr copies the value p points to; the values here hold no pointers.
func clonePtr[T any](p *T) *T {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}

// parseMarkup checks a reply_markup parameter and returns its inline
// keyboard; nil for none, an empty one or another kind of keyboard. Edits
// accept inline keyboards only.
func parseMarkup(raw string, inlineOnly bool) (*inlineKeyboard, *Failure) {
	if raw == "" {
		return nil, nil
	}
	var probe map[string]json.RawMessage
	if err := json.Unmarshal([]byte(raw), &probe); err != nil {
		return nil, badRequest("can't parse reply keyboard markup JSON object")
	}
	if len(probe) == 0 {
		return nil, nil
	}
	if _, ok := probe["inline_keyboard"]; !ok {
		_, kb := probe["keyboard"]
		_, rm := probe["remove_keyboard"]
		_, fr := probe["force_reply"]
		switch {
		case !kb && !rm && !fr:
			return nil, badRequest("can't parse reply keyboard markup JSON object")
		case inlineOnly:
			return nil, badRequest("inline keyboard expected")
		}
		return nil, nil
	}
	var m tgbotapi.InlineKeyboardMarkup
	if err := json.Unmarshal([]byte(raw), &m); err != nil {
		return nil, badRequest("can't parse inline keyboard button: %v", err)
	}
	total := 0
	for _, row := range m.InlineKeyboard {
		if len(row) > 8 {
			return nil, badRequest("reply markup is too long: more than 8 buttons in a row")
		}
		for _, btn := range row {
			total++
			if f := checkButton(btn); f != nil {
				return nil, f
			}
		}
	}
	switch {
	case total > 100:
		return nil, badRequest("reply markup is too long: more than 100 buttons")
	case total == 0:
		return nil, nil
	}
	canon, err := json.Marshal(m)
	if err != nil {
		return nil, badRequest("can't parse inline keyboard button: %v", err)
	}
	return &inlineKeyboard{markup: m, canon: canon}, nil
}

func checkButton(btn tgbotapi.InlineKeyboardButton) *Failure {
	if btn.Text == "" {
		return badRequest("can't parse inline keyboard button: Text must be non-empty")
	}
	if btn.CallbackData != nil && (len(*btn.CallbackData) == 0 || len(*btn.CallbackData) > 64) {
		return badRequest("BUTTON_DATA_INVALID")
	}
	if btn.URL == nil && btn.LoginURL == nil && btn.CallbackData == nil && btn.SwitchInlineQuery == nil &&
		btn.SwitchInlineQueryCurrentChat == nil && btn.CallbackGame == nil && !btn.Pay {
		return badRequest("can't parse inline keyboard button: Text buttons are unallowed in the inline keyboard")
	}
	return nil
}

// sameMarkup tells whether two keyboards are the same, nil being none.
func sameMarkup(a, b *inlineKeyboard) bool {
	if a == nil || b == nil {
		return a == b
	}
	return bytes.Equal(a.canon, b.canon)
}
