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

// FitList joins items with sep, cut to their top so that the result is
// at most room characters as Telegram counts them (TelegramLen, plain
// text): the items that fit, then "… and N more" for the rest. Items are
// whole: none is cut in the middle.
func (c *Catalog) FitList(lang string, items []string, sep string, room int) string {
	all := strings.Join(items, sep)
	if TelegramLen(all, "") <= room {
		return all
	}
	for keep := len(items) - 1; keep >= 0; keep-- {
		more := c.T(lang, "list_more", "N", len(items)-keep)
		text := strings.Join(append(items[:keep:keep], more), sep)
		if TelegramLen(text, "") <= room {
			return text
		}
	}
	return ""
}
