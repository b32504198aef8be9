package texts

import (
	"html"
	"regexp"
	"strings"
	"unicode/utf16"
)

// Telegram's limits on what the bot composes, counted by TelegramLen.
const (
	MessageLimit = 4096 // a message's text
	CaptionLimit = 1024 // a photo's or document's caption
)

// tag matches an HTML tag: Telegram's HTML allows a few, and a literal
// "<" in text must be written "&lt;", so any "<…>" is markup.
var tag = regexp.MustCompile(`<[^>]*>`)

// TelegramLen is the length of text as Telegram counts it against its
// limits: UTF-16 code units (an emoji outside the basic plane is two) of
// the text after entity parsing. With parseMode "HTML" that is the visible
// text: tags dropped, each entity (&lt;, &amp;, &#8212;) one character.
// Any other parse mode counts the text as it is.
func TelegramLen(text, parseMode string) int {
	if parseMode == "HTML" {
		text = html.UnescapeString(tag.ReplaceAllString(text, ""))
	}
	n := 0
	for _, r := range text {
		n += utf16.RuneLen(r)
	}
	return n
}

// FitList joins items with sep, as many from the front as fit in room
// characters as Telegram counts them (TelegramLen in parseMode) together
// with the line more(n) that says how many were left out (with sep before
// it); all of them when they fit. Items are whole: none is cut in the
// middle, and one longer than the whole room is left out with the rest.
func FitList(items []string, sep string, room int, parseMode string, more func(n int) string) string {
	if TelegramLen(strings.Join(items, sep), parseMode) <= room {
		return strings.Join(items, sep)
	}
	var b strings.Builder
	used := 0
	for i, it := range items {
		n := TelegramLen(it, parseMode)
		if i > 0 {
			n += TelegramLen(sep, parseMode)
		}
		if used+n+TelegramLen(sep+more(len(items)-i-1), parseMode) > room {
			rest := more(len(items) - i)
			if i > 0 {
				rest = sep + rest
			}
			b.WriteString(rest)
			return b.String()
		}
		if i > 0 {
			b.WriteString(sep)
		}
		b.WriteString(it)
		used += n
	}
	return b.String()
}

// FitList is the package's FitList for plain text in lang, the rest told
// as "… and N more".
func (c *Catalog) FitList(lang string, items []string, sep string, room int) string {
	return FitList(items, sep, room, "", func(n int) string { return c.N(lang, "list_more", n) })
}
