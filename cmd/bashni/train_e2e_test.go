package main

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/bashni/bashni/internal/telegramtest"
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

// A lesson completed with one wrong try, in each language: the wrong move
// is refused with the rules' own reason, the right one completes it, and
// the player's place in the course is kept across a restart.
func TestE2ELessonWithOneWrongTry(t *testing.T) {
	for _, tc := range []struct {
		lang, lesson1, lesson2, done, compulsory, again string
	}{
		{"en", "Lesson 1 of 8", "Lesson 2 of 8", "done", "Capturing is compulsory.", "Try again"},
		{"ru", "Урок 1 из 8", "Урок 2 из 8", "пройден", "Бить обязательно.", "Попробуйте ещё раз"},
	} {
		t.Run(tc.lang, func(t *testing.T) {
			srv := telegramtest.New(t)
			p := startBot(t, srv, nil)
			ann := newUser(9401, "Ann", tc.lang)
			say(srv, ann.chat, ann, "/learn")
			l1 := newMessage(t, srv, ann.chat.ID, 0, "lesson 1", func(m telegramtest.Msg) bool {
				return m.Kind == "photo" && strings.Contains(m.Text, tc.lesson1)
			})
			checkPNG(t, l1.Data)
			tapLabel(t, srv, ann.chat, ann, l1, "c3-d4")
			l1 = waitMessage(t, srv, ann.chat.ID, "lesson 1 done", func(m telegramtest.Msg) bool {
				return m.ID == l1.ID && strings.Contains(m.Text, tc.done)
			})
			next := buttons(l1)
			if len(next) != 1 {
				t.Fatalf("a done lesson has buttons %v, want only the next lesson", next)
			}
			tap(t, srv, ann.chat, ann, l1.ID, next[0][1])
			l2 := newMessage(t, srv, ann.chat.ID, l1.ID, "lesson 2", func(m telegramtest.Msg) bool {
				return m.Kind == "photo" && strings.Contains(m.Text, tc.lesson2)
			})
			// The wrong try: the quiet move while a capture is there.
			n := len(srv.Messages(ann.chat.ID))
			tapLabel(t, srv, ann.chat, ann, l2, "g3-h4")
			wrong := newMessage(t, srv, ann.chat.ID, n, "the reason the move is refused", func(m telegramtest.Msg) bool { return m.Kind == "text" })
			if !strings.Contains(wrong.Text, tc.compulsory) || !strings.Contains(wrong.Text, "c3:e5") || !strings.Contains(wrong.Text, tc.again) {
				t.Errorf("refusal %q: want the rules' reason %q, the legal c3:e5 and %q", wrong.Text, tc.compulsory, tc.again)
			}
			if l2now := card(t, srv, ann.chat.ID, l2.ID); l2now.Edits != l2.Edits || !hasLabel(l2now, "c3:e5") {
				t.Errorf("the lesson's board changed after a wrong try: %d edits, buttons %v", l2now.Edits, buttons(l2now))
			}
			tapLabel(t, srv, ann.chat, ann, l2, "c3:e5")
			waitMessage(t, srv, ann.chat.ID, "lesson 2 done", func(m telegramtest.Msg) bool {
				return m.ID == l2.ID && strings.Contains(m.Text, tc.done)
			})
			if tc.lang == "en" {
				p.restart()
			}
			// The course goes on where it stopped.
			n = len(srv.Messages(ann.chat.ID))
			say(srv, ann.chat, ann, "/learn")
			l3 := newMessage(t, srv, ann.chat.ID, n, "lesson 3", func(m telegramtest.Msg) bool { return m.Kind == "photo" })
			if !strings.Contains(l3.Text, "3") {
				t.Errorf("/learn after two lessons shows %q, want lesson 3", l3.Text)
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
			next := buttons(end)
			if len(next) != 1 {
				t.Fatalf("a solved puzzle has buttons %v, want only the next puzzle", next)
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
	tapLabel(t, srv, dan.chat, dan, l1, "c3-d4")
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
		return m.Kind == "photo" && strings.Contains(m.Text, "Lesson 1 of 8")
	})
}
