package training

import (
	"strings"
	"testing"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/bashni/bashni/play/training"
	"github.com/bashni/bashni/puzzle"
	"github.com/bashni/bashni/rules"
	"github.com/bashni/bashni/texts"
)

// longestName is the longest name Telegram allows (first_name 64 and
// last_name 64), of characters that count two UTF-16 units each.
var longestName = strings.Repeat("😀", 64) + " " + strings.Repeat("🎲", 64)

// toastLimit is the most characters of a tap's answer
// (answerCallbackQuery's text).
const toastLimit = 200

// checkFits checks one text against Telegram's limit.
func checkFits(t *testing.T, what, text string, limit int) {
	t.Helper()
	if n := texts.TelegramLen(text, ""); n > limit {
		t.Errorf("%s: %d characters as Telegram counts them; the limit is %d", what, n, limit)
	}
}

// checkKeyboard checks a keyboard against Telegram's limits: at most 100
// buttons, 8 to a row, callback data of 1 to 64 bytes.
func checkKeyboard(t *testing.T, what string, kb tgbotapi.InlineKeyboardMarkup) {
	t.Helper()
	n := 0
	for _, row := range kb.InlineKeyboard {
		if len(row) > 8 {
			t.Errorf("%s: a row of %d buttons; at most 8", what, len(row))
		}
		for _, b := range row {
			n++
			if b.CallbackData != nil && (len(*b.CallbackData) == 0 || len(*b.CallbackData) > 64) {
				t.Errorf("%s: callback data %q is %d bytes; 1 to 64", what, *b.CallbackData, len(*b.CallbackData))
			}
		}
	}
	if n > 100 {
		t.Errorf("%s: %d buttons; at most 100", what, n)
	}
}

// Every task's card fits Telegram's limits, in every language: its
// caption, with the wrong move's reason under it (the card is edited to
// say why), its buttons, and the task done.
func TestLessonTextsFitTelegramsLimits(t *testing.T) {
	tx := texts.New()
	for _, lang := range texts.Languages {
		for i := range training.Lessons {
			l := &training.Lessons[i]
			for ti, task := range l.Tasks {
				p := training.Place{Lesson: i, Task: ti}
				pos := task.Position
				_, err := rules.ParseMove(&pos, task.Wrong)
				if err == nil {
					_, err = task.Answer(task.Wrong)
				}
				reason, ok := wrongReason(tx, lang, err)
				if !ok {
					t.Errorf("lesson %s task %d: %v has no reason", l.Key, ti, err)
				}
				checkFits(t, lang+" lesson "+l.Key+" wrong", taskCaption(tx, lang, p)+"\n\n"+tx.T(lang, "lesson_wrong", "Reason", reason), texts.CaptionLimit)
				checkKeyboard(t, "lesson "+l.Key, taskKeyboard(i, ti, l))
				m, _ := rules.ParseMove(&pos, task.Right[0])
				done, kb := lessonDone(tx, lang, &training.TaskResult{Lesson: i, Task: ti, Move: m, After: pos.Play(m), Star: true, Next: training.Place{Lesson: i + 1}})
				checkFits(t, lang+" lesson "+l.Key+" done", done, texts.CaptionLimit)
				checkKeyboard(t, "lesson "+l.Key+" done", kb)
			}
		}
	}
}

// Every shipped puzzle's captions fit a caption at every stage, in every
// language, with the most digits a rating and its change can take: the
// puzzle's board, a right move answered, the puzzle solved, and a miss
// with the solution.
func TestPuzzleTextsFitTelegramsLimits(t *testing.T) {
	set, err := puzzle.Shipped()
	if err != nil {
		t.Fatal(err)
	}
	tx := texts.New()
	longest := 0
	for i := range set {
		pz := &set[i]
		longest = max(longest, len(pz.Solution))
		st := training.PuzzleState{Puzzle: pz, Position: pz.Position, PlayerRating: 3999}
		res := &training.PuzzleResult{PuzzleState: st, Played: pz.Solution[0], Rated: true, Change: -999}
		if len(pz.Solution) > 1 {
			res.Reply, res.HasReply, res.Moves = pz.Solution[1], true, 2
		}
		// The longest line after the solution: legal moves, the longest
		// of each position, up to MaxLinePlies.
		res.Line = longLine(pz)
		for _, lang := range texts.Languages {
			checkFits(t, lang+" puzzle "+pz.ID, puzzleCaption(tx, lang, &st), texts.CaptionLimit)
			for _, end := range []struct {
				name         string
				done, solved bool
			}{{"answered", false, false}, {"solved", true, true}, {"missed", true, false}} {
				if !end.done && !res.HasReply {
					continue
				}
				r := *res
				r.Done, r.Solved = end.done, end.solved
				_, caption, _ := puzzleAnswer(tx, lang, &st, &r)
				checkFits(t, lang+" puzzle "+pz.ID+" "+end.name, caption, texts.CaptionLimit)
				// And as a Puzzle Streak's, a new best of a long run.
				run := 9999
				r.PuzzleState.Streak, r.Run, r.Best, r.NewBest = &run, run, run, true
				_, caption, _ = puzzleAnswer(tx, lang, &st, &r)
				checkFits(t, lang+" streak puzzle "+pz.ID+" "+end.name, caption, texts.CaptionLimit)
			}
			checkFits(t, lang+" too fast", tx.Error(lang, training.ErrPuzzleTooFast, false), toastLimit)
			checkFits(t, lang+" stale puzzle", tx.T(lang, "err_stale_puzzle"), toastLimit)
		}
	}
	t.Logf("%d puzzles, the longest solution %d moves", len(set), longest)
}

// longLine is a legal line after pz's solution of MaxLinePlies moves (or
// to the game's end), each the longest in notation where it is played.
func longLine(pz *puzzle.Puzzle) []rules.Move {
	pos := pz.Position
	for _, m := range pz.Solution {
		pos = pos.Play(m)
	}
	var line []rules.Move
	for len(line) < puzzle.MaxLinePlies {
		legal := pos.Legal()
		if len(legal) == 0 {
			break
		}
		best := legal[0]
		for _, m := range legal {
			if len(m.String()) > len(best.String()) {
				best = m
			}
		}
		line = append(line, best)
		pos = pos.Play(best)
	}
	return line
}

// The daily card at its worst fits a caption in every language: the most
// solvers it names, each with the longest name Telegram allows (five such
// names made a caption of over 1,300 characters, refused, so the card
// froze on its first solver); the toasts of a tap fit an answer, and the
// card's buttons fit for every daily puzzle shipped.
func TestDailyTextsFitTelegramsLimits(t *testing.T) {
	set, err := puzzle.Shipped()
	if err != nil {
		t.Fatal(err)
	}
	tx := texts.New()
	for _, lang := range texts.Languages {
		rec := &training.DailyPuzzle{ChatID: -1001234567890, Date: "2026-12-31", PuzzleID: set[0].ID, Lang: lang, Solved: 1_000_000}
		for n := range training.DailyNamed + 1 {
			rec.Solvers = rec.Solvers[:0]
			for i := range n {
				rec.Solvers = append(rec.Solvers, training.DailySolver{UserID: int64(i + 1), Name: longestName})
			}
			caption := dailyCaption(tx, rec, rules.Black)
			checkFits(t, lang+" daily card", caption, texts.CaptionLimit)
			if n > 0 && !strings.Contains(caption, "1. "+longestName) {
				t.Errorf("%s daily card with %d solvers names none: %q", lang, n, caption)
			}
		}
		checkFits(t, lang+" daily right", tx.T(lang, "daily_right", "Move", "a1:c3:e5:g7:e5:c3:a1:c3:e5:g7:e5:c3", "Rank", 1_000_000), toastLimit)
		checkFits(t, lang+" daily wrong", tx.T(lang, "daily_wrong", "Move", "a1:c3:e5:g7:e5:c3:a1:c3:e5:g7:e5:c3"), toastLimit)
		checkFits(t, lang+" daily closed", tx.T(lang, "daily_closed", "Date", "2026-12-31"), toastLimit)
		checkFits(t, lang+" daily tried", tx.T(lang, "daily_tried"), toastLimit)
	}
	for i := range set {
		if pz := &set[i]; len(pz.Solution) == 1 && len(pz.Position.Legal()) <= training.DailyMaxMoves {
			checkKeyboard(t, "daily "+pz.ID, dailyKeyboard("2026-12-31", pz.Position))
		}
	}
}
