package rules

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// PDN is a game in Portable Draughts Notation: tag pairs, then the
// numbered moves and the result. Bashni has no official GameType number,
// so the Variant tag names it, and a start other than the standard one is
// given as a FEN tag in this package's position format.
type PDN struct {
	// Tags are the tag pairs. Writing fills Result, Variant and FEN from
	// Game when they are missing; reading gives every tag found.
	Tags map[string]string
	Game *Game
}

// pdnTagOrder is the order tags are written in: PDN's seven-tag roster,
// then the tags this package adds; any others follow by name.
var pdnTagOrder = []string{"Event", "Site", "Date", "Round", "White", "Black", "Result", "Variant", "FEN", "Termination"}

// String writes the game as PDN. A result in the Result tag that the board
// does not show (a resignation, a draw agreed, a loss on time) ends the
// move text, as ParsePDN expects; a game still going ends with "*".
func (p *PDN) String() string {
	tags := maps.Clone(p.Tags)
	if tags == nil {
		tags = map[string]string{}
	}
	r, _ := p.Game.Result()
	if tags["Result"] == "" {
		tags["Result"] = "*"
		if r != Ongoing {
			tags["Result"] = r.String()
		}
	}
	start := p.Game.StartPosition()
	if tags["Variant"] == "" {
		tags["Variant"] = start.Variant().String()
	}
	if _, ok := tags["FEN"]; !ok && start.String() != StartText {
		tags["FEN"] = start.String()
	}
	var b strings.Builder
	written := map[string]bool{}
	write := func(k string) {
		if v, ok := tags[k]; ok && !written[k] {
			fmt.Fprintf(&b, "[%s %q]\n", k, v)
			written[k] = true
		}
	}
	for _, k := range pdnTagOrder {
		write(k)
	}
	for _, k := range slices.Sorted(maps.Keys(tags)) {
		write(k)
	}
	b.WriteByte('\n')
	rec, result := p.Game.Record(), tags["Result"]
	if !strings.HasSuffix(rec, result) {
		rec += " " + result
	}
	b.WriteString(strings.TrimSpace(rec))
	b.WriteByte('\n')
	return b.String()
}

// ParsePDN reads one game written by PDN.String (or any PDN of a Bashni or
// Russian draughts game in this notation). A result the board does not
// explain is applied with the reason of the Termination tag: a loss on
// time, else a resignation, or a draw agreed.
func ParsePDN(text string) (*PDN, error) {
	tags := map[string]string{}
	var moves strings.Builder
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "[") && strings.HasSuffix(line, "]") {
			k, v, ok := strings.Cut(strings.Trim(line, "[]"), " ")
			if !ok {
				return nil, fmt.Errorf("rules: PDN tag %q", line)
			}
			uq, err := strconv.Unquote(strings.TrimSpace(v))
			if err != nil {
				return nil, fmt.Errorf("rules: PDN tag %q: %v", line, err)
			}
			tags[k] = uq
			continue
		}
		moves.WriteString(line)
		moves.WriteByte(' ')
	}
	v, err := ParseVariant(tags["Variant"])
	if err != nil {
		return nil, err
	}
	start := Start(v)
	if fen, ok := tags["FEN"]; ok {
		p, err := ParsePosition(fen)
		if err != nil {
			return nil, fmt.Errorf("rules: PDN FEN: %w", err)
		}
		start = p.WithVariant(v)
	}
	g, result, ok, err := ParseRecord(start, moves.String())
	if err != nil {
		return nil, err
	}
	if ok && result != Ongoing && !g.Over() {
		loser := Black
		if result == BlackWins {
			loser = White
		}
		switch {
		case result == Draw:
			err = g.AgreeDraw()
		case tags["Termination"] == Timeout.String():
			err = g.LoseOnTime(loser)
		default:
			err = g.Resign(loser)
		}
		if err != nil {
			return nil, err
		}
	}
	return &PDN{Tags: tags, Game: g}, nil
}
