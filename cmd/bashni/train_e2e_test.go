package main

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/bashni/bashni/internal/telegramtest"
	"github.com/bashni/bashni/play/training"
	"github.com/bashni/bashni/puzzle"
	"github.com/bashni/bashni/rules"
)

// tapLabel taps the button labelled label on a message and waits for the
// answer; it fails the test if there is none.
func tapLabel(t *testing.T, srv *telegramtest.Server, chat tgbotapi.Chat, from user, m telegramtest.Msg, label string) string {
	t.Helper()
	for _, b := range buttons(m) {
		if b[0] == label {
			return tap(t, srv, chat, from, m.ID, b[1])
		}
	}
	t.Fatalf("no button %q on message %d (%q): %v", label, m.ID, m.Text, buttons(m))
	return ""
}

// hasLabel reports whether m has a button labelled label.
func hasLabel(m telegramtest.Msg, label string) bool {
	for _, b := range buttons(m) {
		if b[0] == label {
			return true
		}
	}
	return false
}

// newMessage waits for a message from the bot after the first n of chat.
func newMessage(t *testing.T, srv *telegramtest.Server, chatID int64, n int, what string, ok func(telegramtest.Msg) bool) telegramtest.Msg {
	t.Helper()
	return waitMessage(t, srv, chatID, what, func(m telegramtest.Msg) bool {
		return m.FromBot && m.ID > n && ok(m)
	})
}

// A stage of the course, in each language, on one card: the first task
// answered after a wrong try (the card's caption is edited to say the
// rules' reason, no message is sent, and no star is earned), the first
// task whose wrong move is legal answered after it too (the card says the
// engine's capture), every other task of the stage right at the first try
// (a star each), the card turned
// to the next task in place; /learn then lists the stages with the stars,
// and the player's place is kept across a restart.
func TestE2ECourseStageWithStars(t *testing.T) {
	stage := training.Stages()[0]
	tasks := 0
	for _, i := range stage.Lessons {
		tasks += len(training.Lessons[i].Tasks)
	}
	first := training.Lessons[0].Tasks[0]
	for _, tc := range []struct {
		lang, lesson1, star, nostar, cannot, takes, again, stageName string
	}{
		{"en", fmt.Sprintf("Lesson 1 of %d", len(training.Lessons)), "⭐ Right at the first try", "no star", "cannot go there", "Then d8:f6:h8 takes 2 pieces.", "Try again", "The moves"},
		{"ru", fmt.Sprintf("Урок 1 из %d", len(training.Lessons)), "⭐ Верно с первой попытки", "без звезды", "так не ходит", "Тогда чёрные берут в плен 2 шашки: d8:f6:h8.", "Попробуйте ещё раз", "Ходы"},
	} {
		t.Run(tc.lang, func(t *testing.T) {
			srv := telegramtest.New(t)
			p := startBot(t, srv, nil)
			ann := newUser(9401, "Ann", tc.lang)
			say(srv, ann.chat, ann, "/learn")
			c := newMessage(t, srv, ann.chat.ID, 0, "the course card", func(m telegramtest.Msg) bool {
				return m.Kind == "photo" && strings.Contains(m.Text, tc.lesson1)
			})
			checkPNG(t, c.Data)
			// The wrong try: a man stepping back. The card says why, in
			// place.
			n := len(srv.Messages(ann.chat.ID))
			tapLabel(t, srv, ann.chat, ann, c, first.Wrong)
			c = waitMessage(t, srv, ann.chat.ID, "the card saying why", func(m telegramtest.Msg) bool {
				return m.ID == c.ID && strings.Contains(m.Text, tc.cannot)
			})
			if !strings.Contains(c.Text, tc.again) || !hasLabel(c, first.Right[0]) {
				t.Errorf("the card after a wrong try: %q %v, want the reason, %q and the moves", c.Text, buttons(c), tc.again)
			}
			tapLabel(t, srv, ann.chat, ann, c, first.Right[0])
			c = waitMessage(t, srv, ann.chat.ID, "task 1 done", func(m telegramtest.Msg) bool {
				return m.ID == c.ID && strings.Contains(m.Text, tc.nostar)
			})
			refuted := false
			for _, li := range stage.Lessons {
				for ti, task := range training.Lessons[li].Tasks {
					if li == 0 && ti == 0 {
						continue
					}
					next := buttons(c)
					if len(next) != 1 {
						t.Fatalf("a done task has buttons %v, want only the next one", next)
					}
					edits := c.Edits
					tap(t, srv, ann.chat, ann, c.ID, next[0][1])
					c = waitMessage(t, srv, ann.chat.ID, "the next task", func(m telegramtest.Msg) bool {
						return m.ID == c.ID && m.Edits > edits && hasLabel(m, task.Right[0])
					})
					star := tc.star
					if task.Why == training.WhyRefuted && !refuted {
						// A legal wrong move: the engine's capture, on the card (the
						// crowning lesson's first task: f6-e7 lets d8:f6:h8 take two).
						refuted, star = true, tc.nostar
						tapLabel(t, srv, ann.chat, ann, c, task.Wrong)
						c = waitMessage(t, srv, ann.chat.ID, "the engine's answer", func(m telegramtest.Msg) bool {
							return m.ID == c.ID && strings.Contains(m.Text, tc.takes)
						})
					}
					edits = c.Edits
					tapLabel(t, srv, ann.chat, ann, c, task.Right[0])
					c = waitMessage(t, srv, ann.chat.ID, "the task done", func(m telegramtest.Msg) bool {
						return m.ID == c.ID && m.Edits > edits && strings.Contains(m.Text, star)
					})
				}
			}
			if got := len(srv.Messages(ann.chat.ID)); got != n {
				t.Errorf("%d messages after the stage, want %d: the card is edited, not sent again", got, n)
			}
			if tc.lang == "en" {
				p.restart()
			}
			// /learn lists the stages with the stars, and goes on where the
			// player stopped.
			say(srv, ann.chat, ann, "/learn")
			list := newMessage(t, srv, ann.chat.ID, n, "the stage list", func(m telegramtest.Msg) bool { return m.Kind == "text" })
			if want := fmt.Sprintf("%s: ⭐ %d/%d", tc.stageName, tasks-2, tasks); !strings.Contains(list.Text, want) {
				t.Errorf("the stage list %q, want %q", list.Text, want)
			}
			next := newMessage(t, srv, ann.chat.ID, n, "the next stage's card", func(m telegramtest.Msg) bool { return m.Kind == "photo" })
			if want := training.Lessons[stage.Lessons[len(stage.Lessons)-1]+1].Tasks[0].Right[0]; !hasLabel(next, want) {
				t.Errorf("/learn after the stage shows %q %v, want the next stage's first task", next.Text, buttons(next))
			}
		})
	}
}

var ratingLine = regexp.MustCompile(`(\d+) → (\d+) \(([+−])(\d+)\)`)

// ratingChange reads "1500 → 1523 (+23)" from a caption.
func ratingChange(t *testing.T, caption string) (before, after int) {
	t.Helper()
	m := ratingLine.FindStringSubmatch(caption)
	if m == nil {
		t.Fatalf("no rating change in %q", caption)
	}
	before, _ = strconv.Atoi(m[1])
	after, _ = strconv.Atoi(m[2])
	return before, after
}

// pickPuzzleMove plays m on a puzzle's board through its picker: the
// whole move's button if there is one, else the tower, then the
// destination, then the path.
func pickPuzzleMove(t *testing.T, srv *telegramtest.Server, chat tgbotapi.Chat, from user, msgID int, m rules.Move) telegramtest.Msg {
	t.Helper()
	sep := "-"
	if m.IsCapture() {
		sep = ":"
	}
	labels := []string{m.String(), m.From().String() + " ▸", "⚔ " + m.From().String() + " ▸", m.From().String() + sep + m.To().String()}
	for taps := 0; taps < 3; taps++ {
		cur := card(t, srv, chat.ID, msgID)
		label := ""
		for _, l := range labels {
			if hasLabel(cur, l) {
				label = l
				break
			}
		}
		if label == "" {
			t.Fatalf("no button for %s on %q: %v", m, cur.Text, buttons(cur))
		}
		edits := cur.Edits
		if toast := tapLabel(t, srv, chat, from, cur, label); toast != "" {
			t.Fatalf("tap %q refused: %s", label, toast)
		}
		after := waitMessage(t, srv, chat.ID, "the board after a tap", func(x telegramtest.Msg) bool { return x.ID == msgID && x.Edits > edits })
		// A step of the picker changes only the buttons; a move played
		// changes the caption too.
		if after.Text != cur.Text {
			return after
		}
	}
	t.Fatalf("%s not played after three taps", m)
	return telegramtest.Msg{}
}

// puzzleOf is the shipped puzzle a caption names.
func puzzleOf(t *testing.T, caption string) puzzle.Puzzle {
	t.Helper()
	set, err := puzzle.Shipped()
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range set {
		if strings.Contains(caption, p.ID) {
			return p
		}
	}
	t.Fatalf("no shipped puzzle named in %q", caption)
	return puzzle.Puzzle{}
}

// A puzzle solved and one failed: each move is answered at once with the
// reply drawn, a solve raises the puzzle rating and a miss lowers it, in
// English and Russian.
func TestE2EPuzzleSolvedAndFailed(t *testing.T) {
	for _, tc := range []struct{ lang, toPlay, solved, failed string }{
		{"en", "to play and win", "Solved", "does not win"},
		{"ru", "начинают и выигрывают", "Решено", "не выигрывает"},
	} {
		t.Run(tc.lang, func(t *testing.T) {
			srv := telegramtest.New(t)
			startBot(t, srv, nil)
			bo := newUser(9411, "Bo", tc.lang)
			say(srv, bo.chat, bo, "/puzzle")
			first := newMessage(t, srv, bo.chat.ID, 0, "a puzzle", func(m telegramtest.Msg) bool { return m.Kind == "photo" })
			if !strings.Contains(first.Text, tc.toPlay) {
				t.Errorf("puzzle caption %q does not say %q", first.Text, tc.toPlay)
			}
			checkPNG(t, first.Data)
			pz := puzzleOf(t, first.Text)
			var end telegramtest.Msg
			for i := 0; i < len(pz.Solution); i += 2 {
				end = pickPuzzleMove(t, srv, bo.chat, bo, first.ID, pz.Solution[i])
				if i+1 < len(pz.Solution) && !strings.Contains(end.Text, pz.Solution[i+1].String()) {
					t.Errorf("after %s the board says %q, want the reply %s", pz.Solution[i], end.Text, pz.Solution[i+1])
				}
			}
			end = waitMessage(t, srv, bo.chat.ID, "solved", func(m telegramtest.Msg) bool { return m.ID == first.ID && strings.Contains(m.Text, tc.solved) })
			before, up := ratingChange(t, end.Text)
			if before != 1500 || up <= before {
				t.Errorf("a solve moved the rating %d → %d, want up from 1500", before, up)
			}

			// The next puzzle, missed on its first move.
			// The next puzzle comes first (then a streak and the puzzle's
			// themes).
			next := buttons(end)
			if len(next) == 0 || !strings.HasPrefix(next[0][1], "zn|") {
				t.Fatalf("a solved puzzle has buttons %v, want the next puzzle first", next)
			}
			tap(t, srv, bo.chat, bo, end.ID, next[0][1])
			second := newMessage(t, srv, bo.chat.ID, first.ID, "the next puzzle", func(m telegramtest.Msg) bool { return m.Kind == "photo" })
			pz2 := puzzleOf(t, second.Text)
			if pz2.ID == pz.ID {
				t.Fatalf("the same puzzle %s twice", pz.ID)
			}
			var wrong rules.Move
			for _, m := range pz2.Position.Legal() {
				if m != pz2.Solution[0] {
					wrong = m
					break
				}
			}
			pickPuzzleMove(t, srv, bo.chat, bo, second.ID, wrong)
			miss := waitMessage(t, srv, bo.chat.ID, "failed", func(m telegramtest.Msg) bool { return m.ID == second.ID && strings.Contains(m.Text, tc.failed) })
			if !strings.Contains(miss.Text, rules.JoinMoves(pz2.Solution, " ")) {
				t.Errorf("a miss says %q, want the solution %s", miss.Text, rules.JoinMoves(pz2.Solution, " "))
			}
			from, down := ratingChange(t, miss.Text)
			if from != up || down >= from {
				t.Errorf("a miss moved the rating %d → %d, want down from %d", from, down, up)
			}
		})
	}
}

// learnLink is the URL of a message's button that opens the course, if any.
func learnLink(m telegramtest.Msg) string {
	if m.ReplyMarkup == nil {
		return ""
	}
	for _, row := range m.ReplyMarkup.InlineKeyboard {
		for _, b := range row {
			if b.URL != nil && strings.HasSuffix(*b.URL, "?start=learn") {
				return *b.URL
			}
		}
	}
	return ""
}

// The challenge card links the course to a player who has never played:
// on an open challenge, and on one to someone without a game or a lesson;
// not on one to a player who has begun the course. The link's /start learn opens
// the first lesson.
func TestE2EChallengeCardLinksTheCourse(t *testing.T) {
	srv := telegramtest.New(t)
	startBot(t, srv, nil)
	club := telegramtest.GroupChat(-1005555500941, "Club")
	cat, dan, fay := newUser(9421, "Cat", "en"), newUser(9422, "Dan", "en"), newUser(9424, "Fay", "en")

	// Dan has begun the course: he is no newcomer.
	say(srv, dan.chat, dan, "/learn")
	l1 := newMessage(t, srv, dan.chat.ID, 0, "Dan's first lesson", func(m telegramtest.Msg) bool { return m.Kind == "photo" })
	tapLabel(t, srv, dan.chat, dan, l1, training.Lessons[0].Tasks[0].Right[0])
	waitMessage(t, srv, dan.chat.ID, "lesson 1 done", func(m telegramtest.Msg) bool { return m.ID == l1.ID && m.Edits > l1.Edits })

	say(srv, club, cat, "/challenge")
	open := newMessage(t, srv, club.ID, 0, "open challenge", func(m telegramtest.Msg) bool { return len(buttons(m)) > 0 })
	if learnLink(open) == "" {
		t.Errorf("open challenge card has no link to the course: %+v", open.ReplyMarkup)
	}
	n := len(srv.Messages(club.ID))
	say(srv, club, cat, "/challenge @dan")
	toDan := newMessage(t, srv, club.ID, n, "challenge to Dan", func(m telegramtest.Msg) bool { return len(buttons(m)) > 0 })
	if learnLink(toDan) != "" {
		t.Errorf("a challenge to a player who has played links the course: %q", toDan.Text)
	}
	say(srv, fay.chat, fay, "/start")
	newMessage(t, srv, fay.chat.ID, 0, "the welcome", func(telegramtest.Msg) bool { return true })
	n = len(srv.Messages(club.ID))
	say(srv, club, cat, "/challenge @fay")
	toFay := newMessage(t, srv, club.ID, n, "challenge to Fay", func(m telegramtest.Msg) bool { return len(buttons(m)) > 0 })
	if learnLink(toFay) == "" {
		t.Fatalf("a challenge to a newcomer has no link to the course: %q %+v", toFay.Text, toFay.ReplyMarkup)
	}
	// The link's payload opens the first lesson.
	n = len(srv.Messages(fay.chat.ID))
	say(srv, fay.chat, fay, "/start learn")
	newMessage(t, srv, fay.chat.ID, n, "the first lesson", func(m telegramtest.Msg) bool {
		return m.Kind == "photo" && strings.Contains(m.Text, fmt.Sprintf("Lesson 1 of %d", len(training.Lessons)))
	})
}
