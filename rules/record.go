package rules

import (
	"fmt"
	"strings"
	"unicode"
)

// ParseRecord replays a game record in numbered notation ("1. c3-d4 f6-e5
// 2. …", "1... f6-e5" for a start with Black to move) from start. Move
// numbers, a trailing result ("1-0", "0-1", "1/2-1/2", "*"), comments in
// braces and move marks (!, ?) are skipped. A result the board does not
// explain (a resignation, a draw agreed, a loss on time) is returned for
// the caller to apply, with ok reporting whether one was given.
func ParseRecord(start Position, text string) (g *Game, result Result, ok bool, err error) {
	g = NewGame(start)
	for i, tok := range recordTokens(text) {
		switch tok {
		case "1-0":
			return g, WhiteWins, true, nil
		case "0-1":
			return g, BlackWins, true, nil
		case "1/2-1/2", "½-½":
			return g, Draw, true, nil
		case "*":
			return g, Ongoing, true, nil
		}
		if isMoveNumber(tok) {
			continue
		}
		tok = strings.TrimRight(tok, "!?")
		if _, err := g.PlayText(tok); err != nil {
			return g, Ongoing, false, fmt.Errorf("rules: record token %d (%q): %w", i+1, tok, err)
		}
	}
	return g, Ongoing, false, nil
}

// recordTokens splits a record on white space, dropping {comments}.
func recordTokens(text string) []string {
	var b strings.Builder
	depth := 0
	for _, r := range text {
		switch {
		case r == '{':
			depth++
		case r == '}' && depth > 0:
			depth--
			b.WriteByte(' ')
		case depth == 0:
			b.WriteRune(r)
		}
	}
	var out []string
	for _, f := range strings.Fields(b.String()) {
		// "1.c3-d4" written without a space after the number.
		if i := strings.LastIndex(f, "."); i >= 0 && i < len(f)-1 && isMoveNumber(f[:i+1]) {
			out = append(out, f[:i+1], f[i+1:])
			continue
		}
		out = append(out, f)
	}
	return out
}

// isMoveNumber reports whether tok is "12." or "12...".
func isMoveNumber(tok string) bool {
	digits := strings.TrimRight(tok, ".")
	if digits == tok || digits == "" {
		return false
	}
	for _, r := range digits {
		if !unicode.IsDigit(r) {
			return false
		}
	}
	return true
}
