package bot

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/bashni/bashni/play"
)

// A Module is a feature plugged into the bot at wiring (cmd/bashni's
// Main.Open names each one): its buttons, its commands, the deep links
// that lead to it, what it does on each clock tick and when a game ends.
// The core routes to a module exactly as to its own handlers (the same
// middleware, the same scopes, the same once-only commit of replies) and
// never names the feature: a change to a feature touches its own packages
// and texts.
type Module struct {
	// Name names the module in logs.
	Name string
	// Taps maps a callback kind to its handler. Kinds are unique across
	// the core and every module (New panics on a clash: a wiring bug).
	Taps map[string]TapRoute
	// Commands maps a command's name (without "/") to its handler.
	Commands map[string]CommandFunc
	// Starts maps the prefix of a /start link's payload to its handler;
	// the handler's Command.Args is the rest of the payload.
	Starts map[string]CommandFunc
	// Menu lists the commands the module adds to the bot's command menu
	// (setMyCommands), each described by the text "cmd_<name>".
	Menu []string
	// Tick runs on every clock tick, after the games' deadlines.
	Tick func(ctx context.Context, k *Kit)
	// GameEnded runs when a game's end is shown, after its final card.
	GameEnded func(ctx context.Context, k *Kit, g *play.Game)
	// PollAnswer handles an answer to a native poll the module sent; it
	// reports whether the poll was its own.
	PollAnswer func(ctx context.Context, k *Kit, a *tgbotapi.PollAnswer) (handled bool, err error)
	// CardLine is a line the module adds to a game's card ("" for none),
	// drawn with the card, at send time too: it reads only g and k.
	CardLine func(k *Kit, lang string, g *play.Game) string
	// Settings are the module's rows in a chat's /settings, by name: the
	// name is the Arg of the row's button (KindSetting), as the core's
	// own settings are named.
	Settings map[string]Setting
	// ChatLang runs when a group chooses its language, after the core
	// stored it (a module keeping the language of what it posts there).
	ChatLang func(ctx context.Context, k *Kit, chatID int64, lang string) error
	// ConfirmMove, if set, reports whether u's move picked on g's card
	// waits for a second tap on it before it is played (the picker's
	// row becomes that move and Back).
	ConfirmMove func(ctx context.Context, k *Kit, g *play.Game, u *play.User) bool
	// Moved runs after a move by a person is shown (the card redrawn).
	Moved func(ctx context.Context, k *Kit, out *play.Outcome)
	// ChallengeRow, if set, gives buttons to add below a new challenge's
	// card (none: nil).
	ChallengeRow func(ctx context.Context, k *Kit, c *play.Challenge, lang string) []tgbotapi.InlineKeyboardButton
	// Games is the module's say in the games it runs, if it runs any (a
	// group's game by vote): see OwnedGames.
	Games *OwnedGames
	// Records maps a kind of outbox record (SentRecord) to what records
	// the answer to a request sent with one, in whichever process sent it
	// (kinds are unique across the core and every module).
	Records map[string]RecordFunc
}

// Setting is a module's row in /settings.
type Setting struct {
	// Show gives the row's line of the settings text and its button's
	// label in chat; ok false: no row there.
	Show func(ctx context.Context, k *Kit, chat *tgbotapi.Chat, lang string) (line, label string, ok bool)
	// Toggle handles a tap on the row's button.
	Toggle TapFunc
}

// OwnedGames is a module's say in the games it runs (a group's game by
// vote, bot/team): the core asks Owns of each game it draws or shows, and
// the other hooks, each of which may be nil, of the games Owns claims.
type OwnedGames struct {
	Owns func(g *play.Game) bool
	// Caption adds lines to the card's caption, within budget units
	// (texts.TelegramLen).
	Caption func(k *Kit, g *play.Game, lang string, budget int) []string
	// Keyboard is the card's keyboard while the game goes on and the AI
	// is not to move, in place of the core's move picker.
	Keyboard func(k *Kit, g *play.Game, lang string) tgbotapi.InlineKeyboardMarkup
	// FirstTurn reports whether a call follows the game's first card
	// (Turn, made once the card is recorded, owed with its record).
	FirstTurn func(g *play.Game) bool
	// Turn runs when the turn changes hands: after the game's first card
	// (if FirstTurn), after each move shown, and when its end is shown.
	Turn func(ctx context.Context, k *Kit, g *play.Game)
	// EndNote is a line added to the message that tells the game's end,
	// within budget units.
	EndNote func(k *Kit, g *play.Game, lang string, budget int) string
}

// RecordFunc records msg, Telegram's answer to a request sent with a
// record of its kind (raw is the kind's value), in whichever process sent
// it; again: a process that took the request over after a crash sent it
// again (outbox.Recorder).
type RecordFunc func(ctx context.Context, k *Kit, raw json.RawMessage, msg *tgbotapi.Message, again bool) error

// TapRoute is a module's button: where it may be tapped and its handler.
type TapRoute struct {
	Scope  Scope
	Handle TapFunc
}

// TapFunc handles a button tap; CommandFunc a typed command.
type (
	TapFunc     func(ctx context.Context, k *Kit, t Tap) error
	CommandFunc func(ctx context.Context, k *Kit, c Command) error
)

// Tap is one button tap, as a module's handler sees it: the query, its
// decoded data, who tapped and in which language.
type Tap struct {
	Query *tgbotapi.CallbackQuery
	Data  Callback
	User  *play.User
	Lang  string
}

// Command is one typed command: the message, who sent it in which
// language, and the text after the command.
type Command struct {
	Msg  *tgbotapi.Message
	User *play.User
	Lang string
	Args string
}

// modules is the routing of the modules plugged in, built once by New.
type modules struct {
	list     []Module
	taps     map[string]TapRoute
	commands map[string]CommandFunc
	starts   []startRoute
	settings []namedSetting // in the modules' order, each one's by name
	records  map[string]RecordFunc
}

type namedSetting struct {
	name string
	Setting
}

type startRoute struct {
	prefix string
	handle CommandFunc
}

// plug builds the modules' routing. A kind or command taken twice (by the
// core or another module) is a wiring bug: New panics on it, as
// http.ServeMux does on a pattern registered twice, so it never starts.
func plug(ms []Module) (modules, error) {
	r := modules{list: ms, taps: map[string]TapRoute{}, commands: map[string]CommandFunc{}, records: map[string]RecordFunc{}}
	for _, m := range ms {
		if err := r.plugRoutes(m); err != nil {
			return modules{}, err
		}
		if err := r.plugSettings(m); err != nil {
			return modules{}, err
		}
	}
	// The longest prefix first: "tour" before "t".
	sort.Slice(r.starts, func(i, j int) bool { return len(r.starts[i].prefix) > len(r.starts[j].prefix) })
	return r, nil
}

// plugRoutes adds m's buttons, commands, records and /start links.
func (r *modules) plugRoutes(m Module) error {
	for kind, t := range m.Taps {
		if _, core := tapRoutes[kind]; core || r.taps[kind].Handle != nil || t.Handle == nil || t.Scope == 0 {
			return fmt.Errorf("bot: module %s: callback kind %q taken, or without handler or scope", m.Name, kind)
		}
		r.taps[kind] = t
	}
	for name, h := range m.Commands {
		if _, core := commandRoutes[name]; core || r.commands[name] != nil || h == nil {
			return fmt.Errorf("bot: module %s: command %q taken", m.Name, name)
		}
		r.commands[name] = h
	}
	for kind, h := range m.Records {
		if coreRecords[kind] || r.records[kind] != nil || h == nil {
			return fmt.Errorf("bot: module %s: record kind %q taken", m.Name, kind)
		}
		r.records[kind] = h
	}
	for prefix, h := range m.Starts {
		r.starts = append(r.starts, startRoute{prefix: prefix, handle: h})
	}
	return nil
}

// plugSettings adds m's rows of /settings, in the order of their names.
func (r *modules) plugSettings(m Module) error {
	for _, name := range slices.Sorted(maps.Keys(m.Settings)) {
		s := m.Settings[name]
		if _, taken := r.setting(name); taken || coreSettings[name] || s.Show == nil || s.Toggle == nil {
			return fmt.Errorf("bot: module %s: setting %q taken, or without Show or Toggle", m.Name, name)
		}
		r.settings = append(r.settings, namedSetting{name: name, Setting: s})
	}
	return nil
}

// setting finds the module's setting named name.
func (r modules) setting(name string) (Setting, bool) {
	for _, s := range r.settings {
		if s.name == name {
			return s.Setting, true
		}
	}
	return Setting{}, false
}

// challengeRows are the modules' rows of buttons for challenge c's card
// (Module.ChallengeRow).
func (r modules) challengeRows(ctx context.Context, k *Kit, c *play.Challenge, lang string) [][]tgbotapi.InlineKeyboardButton {
	var rows [][]tgbotapi.InlineKeyboardButton
	for _, m := range r.list {
		if m.ChallengeRow != nil {
			if row := m.ChallengeRow(ctx, k, c, lang); len(row) > 0 {
				rows = append(rows, row)
			}
		}
	}
	return rows
}

// start finds the module a /start payload leads to.
func (r modules) start(payload string) (CommandFunc, string, bool) {
	for _, s := range r.starts {
		if rest, ok := strings.CutPrefix(payload, s.prefix); ok {
			return s.handle, rest, true
		}
	}
	return nil, "", false
}

// owned is the say of the module that runs g, nil for a game no module
// runs.
func (r modules) owned(g *play.Game) *OwnedGames {
	for _, m := range r.list {
		if m.Games != nil && m.Games.Owns(g) {
			return m.Games
		}
	}
	return nil
}

// ownedTurn tells o, the say of the module that runs g (nil: none), that
// g's turn changed hands.
func (b *Bot) ownedTurn(ctx context.Context, o *OwnedGames, g *play.Game) {
	if o != nil && o.Turn != nil {
		o.Turn(ctx, b.kit(), g)
	}
}

// cardLines are the lines the modules add to g's card (Module.CardLine).
func (b *Bot) cardLines(lang string, g *play.Game) []string {
	var lines []string
	for _, m := range b.mods.list {
		if m.CardLine == nil {
			continue
		}
		if line := m.CardLine(b.kit(), lang, g); line != "" {
			lines = append(lines, line)
		}
	}
	return lines
}

// moved tells the modules of a move by a person, once it is shown
// (Module.Moved).
func (r modules) moved(ctx context.Context, k *Kit, out *play.Outcome) {
	if !out.Mover.Human() {
		return
	}
	for _, m := range r.list {
		if m.Moved != nil {
			m.Moved(ctx, k, out)
		}
	}
}
