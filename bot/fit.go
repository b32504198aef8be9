package bot

import (
	"html"
	"regexp"
	"strings"
	"unicode/utf16"
)

// Telegram's limits on what the bot composes, counted as Telegram counts
// them: UTF-16 code units of the text users see, after its HTML is parsed
// (a tag counts nothing, an entity such as &amp; one character). A text
// that grows with its players or voters is fitted to them by
// construction (fitList), not trimmed where Telegram would refuse it.
const (
	maxMessage = 4096
	maxCaption = 1024
)

var htmlTag = regexp.MustCompile(`<[^>]*>`)

// units counts text as Telegram does; isHTML says it is sent with
// parse_mode HTML.
func units(text string, isHTML bool) int {
	if isHTML {
		text = html.UnescapeString(htmlTag.ReplaceAllString(text, ""))
	}
	n := 0
	for _, r := range text {
		n += utf16.RuneLen(r)
	}
	return n
}

// fitList joins items with sep, as many from the front as fit in budget
// units together with the line more(n) that says how many were left out
// (with sep before it); all of them when they fit. An item longer than
// the whole budget is left out with the rest.
func fitList(items []string, sep string, budget int, isHTML bool, more func(n int) string) string {
	total := 0
	for i, it := range items {
		if i > 0 {
			total += units(sep, isHTML)
		}
		total += units(it, isHTML)
	}
	if total <= budget {
		return strings.Join(items, sep)
	}
	var b strings.Builder
	used := 0
	for i, it := range items {
		n := units(it, isHTML)
		if i > 0 {
			n += units(sep, isHTML)
		}
		tail := units(sep+more(len(items)-i-1), isHTML)
		if used+n+tail > budget {
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
