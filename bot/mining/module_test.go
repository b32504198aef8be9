package mining

import (
	"fmt"
	"net/url"
	"strings"
	"testing"

	"github.com/bashni/bashni/play/mining"
	"github.com/bashni/bashni/puzzle"
	"github.com/bashni/bashni/storage"
	"github.com/bashni/bashni/texts"
)

// longestName is the longest name Telegram allows (first_name 64 and
// last_name 64), of characters that count two UTF-16 units each.
var longestName = strings.Repeat("😀", 64) + " " + strings.Repeat("🎲", 64)

// A notice of a game that became many puzzles, with the longest names, in
// each language: its text fits a message, it offers at most maxButtons
// puzzles, each a link to the bot that opens it and Telegram's share page
// with that link, and its plural is the language's.
func TestNoticeFitsAndLinks(t *testing.T) {
	shipped, err := puzzle.Shipped()
	if err != nil {
		t.Fatal(err)
	}
	tx := texts.New()
	for _, c := range []struct {
		lang  string
		n     int
		count string
	}{{"en", 1, "became a puzzle"}, {"en", 7, "became 7 puzzles"}, {"ru", 1, "получилась задача"}, {"ru", 3, "3 задачи"}, {"ru", 7, "7 задач"}} {
		t.Run(fmt.Sprintf("%s/%d", c.lang, c.n), func(t *testing.T) {
			n := mining.Notice{Game: "g1"}
			for i := range c.n {
				n.Puzzles = append(n.Puzzles, storage.MinedPuzzle{ID: shipped[i].ID, Line: shipped[i].String(), Game: "g1", White: longestName, Black: longestName})
			}
			text := noticeText(tx, c.lang, n)
			if !strings.Contains(text, c.count) || texts.TelegramLen(text, "") > 4096 {
				t.Errorf("notice %q (%d long): want %q, within 4,096", text, texts.TelegramLen(text, ""), c.count)
			}
			kb := noticeKeyboard(tx, "bashnibot", c.lang, n.Puzzles)
			if want := min(c.n, maxButtons); len(kb.InlineKeyboard) != want {
				t.Fatalf("%d rows, want %d", len(kb.InlineKeyboard), want)
			}
			for i, row := range kb.InlineKeyboard {
				link := "https://t.me/bashnibot?start=pz" + shipped[i].ID
				if len(row) != 2 || row[0].URL == nil || *row[0].URL != link || !strings.Contains(row[0].Text, shipped[i].ID) {
					t.Fatalf("row %d: %+v, want a button to %s", i, row, link)
				}
				share, err := url.Parse(*row[1].URL)
				if err != nil || share.Host != "t.me" || share.Path != "/share/url" || share.Query().Get("url") != link || share.Query().Get("text") == "" {
					t.Errorf("row %d: share %s, want t.me/share/url with the link and a text", i, *row[1].URL)
				}
			}
		})
	}
}
