package rules

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// PDN is a game in Portable Draughts Notation: tag pairs, then the
// numbered moves and the result. Russian draughts has GameType 25 in PDN;
// Bashni and its other school have no GameType number, so the Variant tag
// names every ruleset, and a start other than the standard one is given as
// a FEN tag in this package's position format.
type PDN struct {
	// Tags are the tag pairs. Writing fills Result, GameType (Russian
	// draughts only), Variant and FEN from Game when they are missing;
	// reading gives every tag found.
	Tags map[string]string
	Game *Game
}

// pdnTagOrder is the order tags are written in: PDN's seven-tag roster,
// then the tags this package adds; any others follow by name.
var pdnTagOrder = []string{"Event", "Site", "Date", "Round", "White", "Black", "Result", "GameType", "Variant", "FEN", "Termination"}

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
	if _, ok := tags["GameType"]; !ok && start.Variant() == Russian {
		tags["GameType"] = pdnGameTypeRussian
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
	v, err := pdnVariant(tags)
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
	if tags["Termination"] == Aborted.String() && !g.Over() {
		// "*" with an abort's termination: ended, with no result.
		if err := g.Abort(); err != nil {
			return nil, err
		}
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

// pdnGameTypeRussian is Russian draughts' number in PDN's GameType list.
const pdnGameTypeRussian = "25"

// pdnVariant says which rules a PDN game is played under: the Variant tag
// when there is one, else the GameType tag (whose first field is the number;
// only Russian draughts, 25, is played on this board with these rules),
// else Bashni.
func pdnVariant(tags map[string]string) (Variant, error) {
	if name := tags["Variant"]; name != "" {
		return ParseVariant(name)
	}
	gt, _, _ := strings.Cut(tags["GameType"], ",")
	switch strings.TrimSpace(gt) {
	case "":
		return Bashni, nil
	case pdnGameTypeRussian:
		return Russian, nil
	}
	return 0, fmt.Errorf("rules: PDN GameType %q is not a game this package plays (25, Russian draughts, is; Bashni is named by the Variant tag)", tags["GameType"])
}
