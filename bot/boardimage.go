package bot

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/bashni/bashni/play"
	"github.com/bashni/bashni/render"
	"github.com/bashni/bashni/rules"
)

// Inline messages can show a photo by URL, and Telegram fetches it itself.
// When the Mini App's HTTPS address is configured, the bot serves each
// board of a game there (BoardImage, mounted by cmd/bashni) and shows it
// on inline messages by URL: no upload to anyone's private chat, and a
// picture however the challenge was posted. The URL names the game and
// the board's version, so Telegram's cache of a URL never shows an old
// board.

// ErrNoBoard is returned for a board version a game never had.
var ErrNoBoard = errors.New("bot: no such board")

// startBoardID names the start position's board in a board URL (inline
// offers are drawn before any game exists).
const startBoardID = "start"

// boardVersion names what a card's picture shows: the ply, a picked tower
// ("-c3"), and "-end" for the final board, which carries the result.
func boardVersion(g *play.Game, v cardView) string {
	s := strconv.Itoa(g.Ply())
	if v.selected != nil {
		s += "-" + v.selected.String()
	}
	if !g.Active() {
		s += "-end"
	}
	return s
}

// BoardImage draws the board a board URL names: game id (or "start") at
// version (boardVersion), as an inline card shows it.
func (b *Bot) BoardImage(ctx context.Context, id, version string) ([]byte, error) {
	if id == startBoardID {
		if version != "0" {
			return nil, ErrNoBoard
		}
		return b.render.PNG(rules.Start(rules.Bashni), render.Options{})
	}
	parts := strings.Split(version, "-")
	ply, err := strconv.Atoi(parts[0])
	if err != nil || ply < 0 {
		return nil, ErrNoBoard
	}
	g, err := b.svc.Game(ctx, id)
	if err != nil {
		return nil, err
	}
	moves := g.Rules().Moves()
	if ply > len(moves) {
		return nil, ErrNoBoard
	}
	p := g.Rules().StartPosition()
	for _, m := range moves[:ply] {
		p = p.Play(m)
	}
	var o render.Options
	if ply > 0 {
		o.LastMove = &moves[ply-1]
	}
	for _, part := range parts[1:] {
		switch {
		case part == "end" && !g.Active() && ply == len(moves):
			lang := cardLang(g)
			o.Caption = finalBoardCaption(b.texts, lang, g)
		case part != "end":
			sq, err := rules.ParseSquare(part)
			if err != nil {
				return nil, ErrNoBoard
			}
			o.Selected, o.LastMove = &sq, nil
			for _, m := range p.Legal() {
				if m.From() == sq {
					o.Targets = append(o.Targets, m.To())
				}
			}
		default:
			return nil, ErrNoBoard
		}
	}
	png, err := b.render.PNG(p, o)
	if err != nil {
		return nil, fmt.Errorf("bot: drawing board %s/%s: %w", id, version, err)
	}
	return png, nil
}
