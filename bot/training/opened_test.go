package training

import (
	"strings"
	"testing"

	"github.com/bashni/bashni/play/training"
	"github.com/bashni/bashni/puzzle"
	"github.com/bashni/bashni/texts"
)

// A mined puzzle's first caption, with the game it came from between the
// longest names Telegram allows, fits a caption in every language.
func TestOriginFitsTheCaption(t *testing.T) {
	set, err := puzzle.Shipped()
	if err != nil {
		t.Fatal(err)
	}
	tx := texts.New()
	st := training.PuzzleState{Puzzle: &set[0], Position: set[0].Position, PlayerRating: 3999}
	o := training.Origin{Game: "g1", White: longestName, Black: longestName}
	for _, lang := range texts.Languages {
		line := originText(tx, lang, o)
		if !strings.Contains(line, longestName) {
			t.Errorf("%s: origin %q names no player", lang, line)
		}
		checkFits(t, lang+" mined puzzle", puzzleCaption(tx, lang, &st)+line, texts.CaptionLimit)
	}
}
