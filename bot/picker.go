package bot

import (
	"slices"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/bashni/bashni/rules"
)

// The move picker: first the towers that can move, then the picked tower's
// destinations, then — only when several capture paths end on the same
// square — the paths. Any legal move takes at most three taps; Back undoes
// a pick. Each button carries the game id, the board's version (ply) and
// the squares picked so far.
//
// A move that can be chosen in one tap is: when the position has few moves
// the first stage lists them whole, and a tower with only one move is a
// button for that move. Besides saving the player a tap, this saves an edit
// of the card: in a group Telegram allows a bot about 20 messages a minute,
// edits included, and a keyboard shown for one tap costs one of them.

// pickResult is what a tap on the picker means.
type pickResult struct {
	move     *rules.Move   // a whole move was picked: play it
	keyboard [][]pickEntry // otherwise: show this stage
	selected *rules.Square // the tower picked, to highlight
}

// pickEntry is one button: its label and the squares it picks.
type pickEntry struct {
	label   string
	pick    []rules.Square
	confirm bool // the second tap on a picked move (pickconfirm.go)
}

// resolvePick decides what the picked squares mean in position p, where
// the first stage lists every move whole when there are at most whole.
func resolvePick(legal []rules.Move, picked []rules.Square, whole int) (pickResult, bool) {
	switch {
	case len(legal) == 1 && len(picked) == 0:
		return pickResult{keyboard: [][]pickEntry{{{label: "▶ " + legal[0].String(), pick: legal[0].Squares()}}}}, true
	case len(legal) <= whole && len(picked) == 0:
		return pickResult{keyboard: wholeMoveStage(legal)}, true
	case len(picked) == 0:
		return pickResult{keyboard: towerStage(legal)}, true
	case len(picked) == 1:
		from := picked[0]
		kb := destinationStage(legal, from)
		if kb == nil {
			return pickResult{}, false
		}
		return pickResult{keyboard: kb, selected: &from}, true
	}
	// A full path names one move exactly.
	for i := range legal {
		if slices.Equal(legal[i].Squares(), picked) {
			return pickResult{move: &legal[i]}, true
		}
	}
	if len(picked) != 2 {
		return pickResult{}, false
	}
	var paths []rules.Move
	for _, m := range legal {
		if m.From() == picked[0] && m.To() == picked[1] {
			paths = append(paths, m)
		}
	}
	switch len(paths) {
	case 0:
		return pickResult{}, false
	case 1:
		return pickResult{move: &paths[0]}, true
	}
	from := picked[0]
	var rows [][]pickEntry
	for _, m := range rules.SortedMoves(paths) {
		rows = append(rows, []pickEntry{{label: m.String(), pick: m.Squares()}})
	}
	rows = append(rows, []pickEntry{{label: backLabel, pick: []rules.Square{from}}})
	return pickResult{keyboard: rows, selected: &from}, true
}

// backLabel marks the Back button; the card code puts the localized text on it.
const backLabel = "\x00back"

// maxWholeMoves is the most moves the first stage lists whole in a
// private chat: two rows of quiet moves, four rows of captures. There a
// second stage costs a second of Telegram's pace.
const maxWholeMoves = 8

// maxWholeMovesGroup is the same in a group (and on inline messages),
// where each edit spends one of the bot's 20 messages a minute and a
// tower's destinations would come about 3 s after the tap: four rows of
// quiet moves, eight of captures, still a keyboard a phone shows whole,
// and most positions have no more moves than that.
const maxWholeMovesGroup = 16

// wholeMovesFor is how many moves g's first stage lists whole.
func wholeMovesFor(chatID int64) int {
	if chatID > 0 {
		return maxWholeMoves
	}
	return maxWholeMovesGroup
}

// wholeMoveStage lists every move as a button of its own.
func wholeMoveStage(legal []rules.Move) [][]pickEntry {
	var entries []pickEntry
	for _, m := range rules.SortedMoves(legal) {
		entries = append(entries, pickEntry{label: m.String(), pick: m.Squares()})
	}
	perRow := 4
	if legal[0].IsCapture() {
		perRow = 2 // paths are long
	}
	return chunk(entries, perRow)
}

// towerStage lists the towers that can move, four to a row. A tower with
// one move is that move's button.
func towerStage(legal []rules.Move) [][]pickEntry {
	var froms []rules.Square
	count := map[rules.Square]int{}
	only := map[rules.Square]rules.Move{}
	for _, m := range legal {
		if !slices.Contains(froms, m.From()) {
			froms = append(froms, m.From())
		}
		count[m.From()]++
		only[m.From()] = m
	}
	slices.SortFunc(froms, func(a, b rules.Square) int { return compareSquareNames(a, b) })
	capture := len(legal) > 0 && legal[0].IsCapture()
	var entries []pickEntry
	for _, s := range froms {
		if count[s] == 1 {
			m := only[s]
			entries = append(entries, pickEntry{label: m.String(), pick: m.Squares()})
			continue
		}
		label := s.String() + " ▸"
		if capture {
			label = "⚔ " + label
		}
		entries = append(entries, pickEntry{label: label, pick: []rules.Square{s}})
	}
	return chunk(entries, 4)
}

// destinationStage lists where the tower on from can go: one button per end
// square (a capture's end may be reached by several paths).
func destinationStage(legal []rules.Move, from rules.Square) [][]pickEntry {
	var tos []rules.Square
	capture := false
	for _, m := range legal {
		if m.From() == from && !slices.Contains(tos, m.To()) {
			tos = append(tos, m.To())
			capture = m.IsCapture()
		}
	}
	if len(tos) == 0 {
		return nil
	}
	slices.SortFunc(tos, func(a, b rules.Square) int { return compareSquareNames(a, b) })
	var entries []pickEntry
	for _, to := range tos {
		sep := "-"
		if capture {
			sep = ":"
		}
		entries = append(entries, pickEntry{label: from.String() + sep + to.String(), pick: []rules.Square{from, to}})
	}
	rows := chunk(entries, 4)
	return append(rows, []pickEntry{{label: backLabel, pick: nil}})
}

func compareSquareNames(a, b rules.Square) int {
	if a.File() != b.File() {
		return a.File() - b.File()
	}
	return a.Rank() - b.Rank()
}

func chunk(entries []pickEntry, n int) [][]pickEntry {
	var rows [][]pickEntry
	for len(entries) > 0 {
		k := min(n, len(entries))
		rows = append(rows, entries[:k])
		entries = entries[k:]
	}
	return rows
}

// pickerKeyboard turns a stage into buttons for game id at board version ply.
func (b *Bot) pickerKeyboard(lang, id string, ply int, stage [][]pickEntry) tgbotapi.InlineKeyboardMarkup {
	rows := make([][]tgbotapi.InlineKeyboardButton, 0, len(stage))
	for _, r := range stage {
		row := make([]tgbotapi.InlineKeyboardButton, 0, len(r))
		for _, e := range r {
			label := e.label
			if label == backLabel {
				label = b.texts.T(lang, "btn_back")
			}
			arg := encodeSquares(e.pick)
			if e.confirm {
				arg += confirmMark
			}
			data := Callback{Kind: KindPick, ID: id, Ply: ply, Arg: arg}.Encode()
			row = append(row, tgbotapi.NewInlineKeyboardButtonData(label, data))
		}
		rows = append(rows, row)
	}
	return tgbotapi.InlineKeyboardMarkup{InlineKeyboard: rows}
}
