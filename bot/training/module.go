package training

import (
	"context"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/bashni/bashni/bot"
	"github.com/bashni/bashni/play"
	"github.com/bashni/bashni/play/training"
)

// Callback kinds of the course, the puzzles and the daily puzzle.
const (
	KindLesson     = "k"  // a lesson's move: Ply = lesson index, Arg = squares
	KindLessonNext = "kn" // show the current lesson
	KindPuzzle     = "z"  // puzzle picker: ID = puzzle id, Ply = moves played, Arg = squares
	KindPuzzleNext = "zn" // a new puzzle
	// KindPuzzleTheme: a puzzle of a theme, Arg = its word (none: the list
	// of themes); KindStreak: a new Puzzle Streak.
	KindPuzzleTheme = "zt"
	KindStreak      = "zs"
	KindDaily       = "dz" // a daily card's move: ID = the card's day, Arg = the move's squares
)

// settingDaily names the daily puzzle's row in /settings (its button's
// Arg).
const settingDaily = "daily"

// PuzzleBoard is the start parameter that opens the player's puzzle on
// the live board (miniapp.PuzzleParam; the bot does not import miniapp).
const PuzzleBoard = "puzzle"

// module serves training's three services in Telegram.
type module struct {
	Course  *training.Course
	Puzzles *training.Puzzles
	Daily   *training.Daily
	Streak  *training.Streak
}

// Module is the module the bot plugs in (cmd/bashni's Main.Open): the
// course, the puzzles, the daily puzzle and Puzzle Streak over their
// services; any may be nil, which leaves its part out (a streak needs the
// puzzles).
func Module(course *training.Course, puzzles *training.Puzzles, daily *training.Daily, streak *training.Streak) bot.Module {
	m := &module{Course: course, Puzzles: puzzles, Daily: daily, Streak: streak}
	bm := bot.Module{Name: "training", Taps: map[string]bot.TapRoute{}, Commands: map[string]bot.CommandFunc{}, Starts: map[string]bot.CommandFunc{}}
	if m.Course != nil {
		// The course and the puzzles are private (/learn and /puzzle send
		// groups there).
		bm.Taps[KindLesson] = bot.TapRoute{Scope: bot.InPrivate, Handle: m.onLesson}
		bm.Taps[KindLessonNext] = bot.TapRoute{Scope: bot.InPrivate, Handle: m.onLessonNext}
		bm.Commands["learn"] = m.cmdLearn
		bm.Starts["learn"] = m.cmdLearn // the challenge card's link to the course
		bm.Menu = append(bm.Menu, "learn")
		bm.ChallengeRow = m.learnRow
	}
	if m.Puzzles != nil {
		bm.Taps[KindPuzzle] = bot.TapRoute{Scope: bot.InPrivate, Handle: m.onPuzzlePick}
		bm.Taps[KindPuzzleNext] = bot.TapRoute{Scope: bot.InPrivate, Handle: m.onPuzzleNext}
		bm.Taps[KindPuzzleTheme] = bot.TapRoute{Scope: bot.InPrivate, Handle: m.onPuzzleTheme}
		bm.Commands["puzzle"] = func(ctx context.Context, k *bot.Kit, c bot.Command) error {
			return m.sendPuzzle(ctx, k, c.Msg.Chat, c.Msg.From, c.Lang, c.Msg.MessageID, c.Args)
		}
		bm.Starts["puzzle"] = func(ctx context.Context, k *bot.Kit, c bot.Command) error {
			return m.sendPuzzle(ctx, k, c.Msg.Chat, c.Msg.From, c.Lang, 0, "")
		}
		bm.Menu = append(bm.Menu, "puzzle")
		bm.Starts[OpenPrefix] = m.openPuzzle // a link to one puzzle (opened.go)
		bm.Typed = m.typed
	}
	if m.Puzzles != nil && m.Streak != nil {
		bm.Taps[KindStreak] = bot.TapRoute{Scope: bot.InPrivate, Handle: m.onStreak}
		bm.Commands["streak"] = m.cmdStreak
		bm.Starts["streak"] = func(ctx context.Context, k *bot.Kit, c bot.Command) error {
			return m.startStreak(ctx, k, c.Msg.Chat, c.Msg.From.ID, c.Lang, 0)
		}
		bm.Menu = append(bm.Menu, "streak")
	}
	if m.Daily != nil {
		// A group's own: its daily card.
		bm.Taps[KindDaily] = bot.TapRoute{Scope: bot.InGroup, Handle: m.onDailyTap}
		bm.Tick = m.dailyTick
		bm.Settings = map[string]bot.Setting{settingDaily: {Show: m.dailySetting, Toggle: m.toggleDaily}}
		bm.ChatLang = m.dailyLang
	}
	return bm
}

// startLink opens the bot's private chat with /start payload.
func startLink(k *bot.Kit, payload string) string {
	return "https://t.me/" + k.Username() + "?start=" + payload
}

// learnRow links a challenge card to the course, for a player who may
// never have played.
func (m *module) learnRow(ctx context.Context, k *bot.Kit, c *play.Challenge, lang string) []tgbotapi.InlineKeyboardButton {
	if !m.maybeNewcomer(ctx, c) {
		return nil
	}
	return tgbotapi.NewInlineKeyboardRow(tgbotapi.NewInlineKeyboardButtonURL(k.Texts().T(lang, "btn_learn"), startLink(k, "learn")))
}

// maybeNewcomer reports whether the one challenged may never have played:
// someone who has neither played a game nor begun the course, someone the
// bot has never seen, or, for an open challenge, whoever accepts.
func (m *module) maybeNewcomer(ctx context.Context, c *play.Challenge) bool {
	if c.To == nil {
		return true
	}
	started, err := m.Course.Started(ctx, c.To.UserID)
	return err == nil && !started
}
