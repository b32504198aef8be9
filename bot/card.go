package bot

import (
	"strconv"
	"time"

	"github.com/bashni/bashni/play"
	"github.com/bashni/bashni/rules"
	"github.com/bashni/bashni/texts"
)

// A game is one live card: the board photo, a caption (players, whose move,
// last move, move number) and the move picker for the player to move. It is
// edited in place after each move; edits notify nobody, which is why the
// player to move also gets a notice (notify.go).
//
// The card's home is the bot/card*.go files, one purpose each:
//
//   - cardtext.go: the caption (the result line is texts.Catalog.ResultLine,
//     the one every finished game's text uses); cardclock.go its clocks;
//   - cardkeyboard.go: its buttons; cardtowers.go the Towers button;
//   - cardboard.go: the board's picture;
//   - cardpost.go: posting a new card; cardrecord.go recording it as the
//     game's; cardrepost.go edits waiting for a card in flight;
//   - cardedit.go: editing it in place, cardEdit the one request that
//     redraws a chat's card; cardlazy.go the edit drawn when it is sent;
//     cardinline.go an inline message's card; cardshown.go a shown board;
//   - cardgameover.go: the end of a game, on the card and in the chat.
//
// Names say what a function does to the world: a noun (caption, keyboard,
// boardPNG, cardEdit, lazyEdit, cardReplyRecord, finalBoardCaption) only computes, reading at
// most; post, edit, strip, send and show queue requests to Telegram;
// record writes the store. locateCard fills in where a game's card is,
// writing nothing.

// cardView says how to draw a card.
type cardView struct {
	lang     string
	selected *rules.Square // picked tower, highlighted
	targets  []rules.Square
	stage    [][]pickEntry // picker stage; nil = first stage
	thinking bool          // the AI is searching: no picker
	// sent, if set, runs once the card's edit has gone out (not when a
	// newer board replaced it unsent).
	sent func()
	// hold keeps the edit back this long in case a newer board replaces
	// it (outbox.Reply.Delay).
	hold time.Duration
}

// cardLang is the language a game's card is written in.
func cardLang(g *play.Game) string {
	if g.Lang() != "" {
		return texts.Lang(g.Lang())
	}
	return "en"
}

// cardKey keys the edits of what of a game's card message (see
// outbox.Reply.Key).
func cardKey(what string, g *play.Game) string {
	return what + ":" + strconv.FormatInt(g.ChatID(), 10) + ":" + strconv.Itoa(g.MessageID())
}
