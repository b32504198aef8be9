package bot

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/bashni/bashni/play"
	"github.com/bashni/bashni/render"
	"github.com/bashni/bashni/rules"
)

// PDN writes a game in Portable Draughts Notation: tag pairs, then the
// numbered moves and the result. Bashni has no official GameType number, so
// the Variant tag names it, and a non-standard start is given as FEN in the
// project's position format.
func PDN(g *play.Game) string {
	var b strings.Builder
	tag := func(k, v string) { fmt.Fprintf(&b, "[%s %q]\n", k, v) }
	tag("Event", "Bashni on Telegram")
	tag("Site", "Telegram")
	tag("Date", g.CreatedAt.UTC().Format("2006.01.02"))
	tag("White", g.White.Name)
	tag("Black", g.Black.Name)
	result := g.Result
	if result == "" {
		result = "*"
	}
	tag("Result", result)
	tag("Variant", g.Variant)
	if start := g.Rules().StartPosition(); start.String() != rules.StartText {
		tag("FEN", start.String())
	}
	if g.Reason != "" {
		tag("Termination", g.Reason)
	}
	b.WriteByte('\n')
	rec := g.Rules().Record()
	if !g.Active() && !strings.HasSuffix(rec, result) {
		rec += " " + result
	}
	if g.Active() {
		rec += " *"
	}
	b.WriteString(strings.TrimSpace(rec))
	b.WriteByte('\n')
	return b.String()
}

// replayOptions draws a replay from the side a human played in an AI game.
func replayOptions(g *play.Game) render.Options {
	o := render.Options{Size: 480}
	if g.AgainstAI() && g.White.AILevel > 0 {
		o.Perspective = rules.Black
	}
	return o
}

// PDNGame is a game read from PDN.
type PDNGame struct {
	Tags map[string]string
	Game *rules.Game
}

// ParsePDN reads one game written by PDN (or any PDN of a Bashni or Russian
// draughts game in this notation). A result the board does not explain is
// applied with the reason of the Termination tag.
func ParsePDN(text string) (*PDNGame, error) {
	tags := map[string]string{}
	var moves strings.Builder
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "[") && strings.HasSuffix(line, "]") {
			k, v, ok := strings.Cut(strings.Trim(line, "[]"), " ")
			if !ok {
				return nil, fmt.Errorf("bot: PDN tag %q", line)
			}
			uq, err := strconv.Unquote(strings.TrimSpace(v))
			if err != nil {
				return nil, fmt.Errorf("bot: PDN tag %q: %v", line, err)
			}
			tags[k] = uq
			continue
		}
		moves.WriteString(line)
		moves.WriteByte(' ')
	}
	v, err := rules.ParseVariant(tags["Variant"])
	if err != nil {
		return nil, err
	}
	start := rules.Start(v)
	if fen, ok := tags["FEN"]; ok {
		p, err := rules.ParsePosition(fen)
		if err != nil {
			return nil, fmt.Errorf("bot: PDN FEN: %w", err)
		}
		start = p.WithVariant(v)
	}
	g, result, ok, err := rules.ParseRecord(start, moves.String())
	if err != nil {
		return nil, err
	}
	if ok && result != rules.Ongoing && !g.Over() {
		loser := rules.Black
		if result == rules.BlackWins {
			loser = rules.White
		}
		switch {
		case result == rules.Draw:
			err = g.AgreeDraw()
		case tags["Termination"] == rules.Timeout.String():
			err = g.LoseOnTime(loser)
		default:
			err = g.Resign(loser)
		}
		if err != nil {
			return nil, err
		}
	}
	return &PDNGame{Tags: tags, Game: g}, nil
}
