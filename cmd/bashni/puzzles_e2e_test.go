package main

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/bashni/bashni/internal/telegramtest"
	"github.com/bashni/bashni/play/training"
	"github.com/bashni/bashni/puzzle"
	"github.com/bashni/bashni/rules"
)

// puzzleLine is the line the bot shows after pz's solution: the judge's
// at the puzzles' budget.
func puzzleLine(t *testing.T, pz *puzzle.Puzzle) []rules.Move {
	t.Helper()
	line, err := puzzle.NewJudge(training.LineNodes).Line(context.Background(), pz)
	if err != nil {
		t.Fatal(err)
	}
	return line
}

// A one-move puzzle, chosen by its theme (/puzzle onemove), solved: the
// caption then shows the line that realises the move's gain and the
// puzzle's themes, and offers more of them, in English and Russian.
func TestE2EOneMovePuzzleShowsItsLine(t *testing.T) {
	for _, tc := range []struct{ lang, then, themes, oneMove string }{
		{"en", "Then: ", "Themes: One move", "🧩 One move"},
		{"ru", "Дальше: ", "Темы: В один ход", "🧩 В один ход"},
	} {
		t.Run(tc.lang, func(t *testing.T) {
			srv := telegramtest.New(t)
			startBot(t, srv, nil)
			cy := newUser(9431, "Cy", tc.lang)
			say(srv, cy.chat, cy, "/puzzle onemove")
			board := newMessage(t, srv, cy.chat.ID, 0, "a one-move puzzle", func(m telegramtest.Msg) bool { return m.Kind == "photo" })
			pz := puzzleOf(t, board.Text)
			if len(pz.Solution) != 1 {
				t.Fatalf("/puzzle onemove gave %s, of %d moves", pz.ID, len(pz.Solution))
			}
			line := puzzleLine(t, &pz)
			if len(line) == 0 {
				t.Fatalf("%s has no line after its move: pick another puzzle for this test", pz.ID)
			}
			end := pickPuzzleMove(t, srv, cy.chat, cy, board.ID, pz.Solution[0])
			want := tc.then + rules.JoinMoves(line, " ")
			if !strings.Contains(end.Text, want) || !strings.Contains(end.Text, tc.themes) {
				t.Errorf("the solved puzzle says %q, want %q and %q", end.Text, want, tc.themes)
			}
			checkPNG(t, end.Data)
			if !hasLabel(end, tc.oneMove) {
				t.Errorf("the solved puzzle's buttons %v, want %q for more of its theme", buttons(end), tc.oneMove)
			}
			// The theme's button gives another one-move puzzle.
			tapLabel(t, srv, cy.chat, cy, end, tc.oneMove)
			next := newMessage(t, srv, cy.chat.ID, board.ID, "the theme's next puzzle", func(m telegramtest.Msg) bool { return m.Kind == "photo" })
			if pz2 := puzzleOf(t, next.Text); len(pz2.Solution) != 1 || pz2.ID == pz.ID {
				t.Errorf("the theme's button gave %s (%d moves), want another one-move puzzle", pz2.ID, len(pz2.Solution))
			}
		})
	}
}

// A move typed in the private chat plays in the puzzle under way, as in a
// game: an illegal one is answered with the rules' reason, the right one
// solves the puzzle on a new board that shows the line; with no puzzle
// under way a move is still "no game here".
func TestE2ETypedMoveSolvesPuzzle(t *testing.T) {
	srv := telegramtest.New(t)
	startBot(t, srv, nil)
	di := newUser(9432, "Di", "en")
	say(srv, di.chat, di, "/puzzle onemove")
	board := newMessage(t, srv, di.chat.ID, 0, "a puzzle", func(m telegramtest.Msg) bool { return m.Kind == "photo" })
	pz := puzzleOf(t, board.Text)
	say(srv, di.chat, di, "a1-h8")
	newMessage(t, srv, di.chat.ID, board.ID, "the illegal move's reason", func(m telegramtest.Msg) bool {
		return m.FromBot && m.Kind == "text" && strings.Contains(m.Text, "is not yours") && strings.Contains(m.Text, "Legal moves: ")
	})
	say(srv, di.chat, di, pz.Solution[0].String())
	solved := newMessage(t, srv, di.chat.ID, board.ID, "the puzzle solved", func(m telegramtest.Msg) bool {
		return m.Kind == "photo" && strings.Contains(m.Text, "Solved!")
	})
	if line := puzzleLine(t, &pz); len(line) > 0 && !strings.Contains(solved.Text, rules.JoinMoves(line, " ")) {
		t.Errorf("the typed solve says %q, want the line %s", solved.Text, rules.JoinMoves(line, " "))
	}
	for _, m := range srv.Messages(di.chat.ID) {
		if m.FromBot && strings.Contains(m.Text, "no game in progress") {
			t.Errorf("a typed move in a puzzle was answered %q", m.Text)
		}
	}
	say(srv, di.chat, di, "c3-d4")
	newMessage(t, srv, di.chat.ID, solved.ID, "no game here", func(m telegramtest.Msg) bool {
		return strings.Contains(m.Text, "no game in progress")
	})
}

// Puzzle Streak: asked for in a group (the best will count there), played
// in the private chat: three puzzles solved in a row, each next one sent
// at once, then a miss ends the run at 3; /top streak in the group and
// /stats show the best.
func TestE2EPuzzleStreakOfThreeEndedByAMiss(t *testing.T) {
	srv := telegramtest.New(t)
	startBot(t, srv, nil)
	club := telegramtest.GroupChat(-1005555500951, "Club")
	ed := newUser(9433, "Ed", "en")
	say(srv, club, ed, "/streak")
	newMessage(t, srv, club.ID, 0, "the link to the private chat", func(m telegramtest.Msg) bool {
		return strings.Contains(m.Text, "?start=streak") && strings.Contains(m.Text, "/top streak")
	})
	say(srv, ed.chat, ed, "/streak")
	cur := newMessage(t, srv, ed.chat.ID, 0, "the run's first puzzle", func(m telegramtest.Msg) bool {
		return m.Kind == "photo" && strings.Contains(m.Text, "solved in a row: 0")
	})
	last := 0
	for run := 1; run <= 3; run++ {
		pz := puzzleOf(t, cur.Text)
		if pz.Rating < last {
			t.Errorf("puzzle %d of the run is rated %d, after %d", run, pz.Rating, last)
		}
		last = pz.Rating
		for i := 0; i < len(pz.Solution); i += 2 {
			pickPuzzleMove(t, srv, ed.chat, ed, cur.ID, pz.Solution[i])
		}
		end := waitMessage(t, srv, ed.chat.ID, "the solve", func(m telegramtest.Msg) bool {
			return m.ID == cur.ID && strings.Contains(m.Text, fmt.Sprintf("%d in a row!", run))
		})
		if len(buttons(end)) != 0 {
			t.Errorf("a streak's solved puzzle has buttons %v: the next one comes by itself", buttons(end))
		}
		cur = newMessage(t, srv, ed.chat.ID, cur.ID, "the run's next puzzle", func(m telegramtest.Msg) bool {
			return m.Kind == "photo" && strings.Contains(m.Text, fmt.Sprintf("solved in a row: %d", run))
		})
	}
	pz := puzzleOf(t, cur.Text)
	var wrong rules.Move
	for _, m := range pz.Position.Legal() {
		if m != pz.Solution[0] {
			wrong = m
			break
		}
	}
	pickPuzzleMove(t, srv, ed.chat, ed, cur.ID, wrong)
	over := waitMessage(t, srv, ed.chat.ID, "the run over", func(m telegramtest.Msg) bool {
		return m.ID == cur.ID && strings.Contains(m.Text, "The streak ends at 3. Your best: 3.")
	})
	if !hasLabel(over, "🔥 New streak") {
		t.Errorf("the run's end offers %v, want a new streak", buttons(over))
	}
	n := len(srv.Messages(club.ID))
	say(srv, club, ed, "/top streak")
	newMessage(t, srv, club.ID, n, "the group's streak board", func(m telegramtest.Msg) bool {
		return strings.Contains(m.Text, "Best Puzzle Streaks of this group") && strings.Contains(m.Text, "1. Ed — 3")
	})
	n = len(srv.Messages(ed.chat.ID))
	say(srv, ed.chat, ed, "/stats")
	newMessage(t, srv, ed.chat.ID, n, "the stats", func(m telegramtest.Msg) bool {
		return strings.Contains(m.Text, "Best Puzzle Streak: 3")
	})
}
