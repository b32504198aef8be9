package bot

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/bashni/bashni/rules"
)

// Callback is the data of an inline button, encoded in Telegram's 64 bytes
// as "kind|id|ply|arg". Picks carry the board's version (ply) so a tap on an
// old board is refused; squares are one character each so the longest
// capture path fits.
type Callback struct {
	Kind string // see the kind constants
	ID   string // game or challenge id (may be empty)
	Ply  int    // board version for picks; -1 when not used
	Arg  string // kind-specific
}

// Callback kinds: the first field of a button's data. They are exported
// for tools that press the bot's buttons (the load test's players).
const (
	KindPick      = "p"  // move picker: Arg = picked squares
	KindAccept    = "a"  // accept challenge: Arg = ArgText on an inline offer posted as text
	KindDecline   = "d"  // decline challenge
	KindCancel    = "x"  // cancel own challenge
	KindDrawYes   = "dy" // accept draw offer
	KindDrawNo    = "dn" // decline draw offer
	KindRematch   = "r"  // rematch after the end: offer, or accept the opponent's offer
	KindRematchOK = "ry" // accept the opponent's rematch offer
	KindRematchNo = "rn" // decline (or withdraw) a rematch offer
	KindPDN       = "f"  // send the game record as a PDN file
	KindReplay    = "g"  // send the replay GIF
	KindMenu      = "m"  // menu: Arg = item
	KindLevel     = "l"  // AI level chosen: Arg = level
	KindColor     = "c"  // AI colour chosen: ID = level (and ".code" of a ruleset other than Bashni), Arg = colour
	KindVariant   = "v"  // AI ruleset chosen: ID = level, Arg = ruleset code
	KindLang      = "ln" // language chosen: Arg = code
	KindSetting   = "s"  // settings toggle: Arg = which
	KindAnalyse   = "an" // analyse a finished game (the review module, bot/review)
	KindResign    = "rs" // confirm a resignation: Arg = deadline.player (resign.go)
	KindResignNo  = "rk" // keep playing: withdraw the question
)

// ArgText is the Arg of an inline offer's Accept when the offer was posted
// as text: the game accepted on it is made knowing that its card is text
// (play.Service.AcceptInline), for Telegram will not edit it into a photo.
const ArgText = "t"

// maxCallbackData is Telegram's limit on callback_data.
const maxCallbackData = 64

// squareChars maps squares 0..31 to one character each.
const squareChars = "abcdefghijklmnopqrstuvwxyzABCDEF"

// Encode returns the button data.
func (c Callback) Encode() string {
	return c.Kind + "|" + c.ID + "|" + strconv.Itoa(c.Ply) + "|" + c.Arg
}

// ParseCallback decodes button data; anything not made by Encode is an error.
func ParseCallback(data string) (Callback, error) {
	if len(data) == 0 || len(data) > maxCallbackData {
		return Callback{}, fmt.Errorf("bot: callback data of %d bytes", len(data))
	}
	parts := strings.SplitN(data, "|", 4)
	if len(parts) != 4 {
		return Callback{}, errors.New("bot: callback data is not kind|id|ply|arg")
	}
	ply, err := strconv.Atoi(parts[2])
	if err != nil || ply < -1 || ply > 100000 {
		return Callback{}, fmt.Errorf("bot: callback ply %q", parts[2])
	}
	c := Callback{Kind: parts[0], ID: parts[1], Ply: ply, Arg: parts[3]}
	if c.Kind == "" || strings.Contains(c.ID, "|") {
		return Callback{}, errors.New("bot: callback without kind")
	}
	if c.Kind == KindPick {
		if _, err := decodeSquares(strings.TrimSuffix(c.Arg, confirmMark)); err != nil {
			return Callback{}, err
		}
	}
	return c, nil
}

// encodeSquares writes squares one character each.
func encodeSquares(sq []rules.Square) string {
	b := make([]byte, len(sq))
	for i, s := range sq {
		b[i] = squareChars[s]
	}
	return string(b)
}

// decodeSquares reads what encodeSquares wrote.
func decodeSquares(s string) ([]rules.Square, error) {
	if len(s) > rules.MaxJumps+1 {
		return nil, errors.New("bot: too many squares in a pick")
	}
	out := make([]rules.Square, len(s))
	for i := 0; i < len(s); i++ {
		j := strings.IndexByte(squareChars, s[i])
		if j < 0 {
			return nil, fmt.Errorf("bot: %q is not a square code", s[i])
		}
		out[i] = rules.Square(j)
	}
	return out, nil
}
