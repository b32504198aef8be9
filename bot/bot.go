package bot

import (
	"context"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/bashni/bashni/bot/telegram/outbox"
	"github.com/bashni/bashni/play"
	"github.com/bashni/bashni/render"
	"github.com/bashni/bashni/rules"
	"github.com/bashni/bashni/texts"
)

// Sender queues replies for sending (bot/telegram/outbox.Outbox).
type Sender interface {
	Enqueue(r outbox.Reply) error
}

// Renderer draws boards (render.Renderer).
type Renderer interface {
	PNG(p rules.Position, o render.Options) ([]byte, error)
	ReplayGIF(start rules.Position, moves []rules.Move, o render.Options) ([]byte, error)
}

// Config configures the bot.
type Config struct {
	// Username is the bot's own @username (from getMe), to recognise
	// "/cmd@bashni_bot" and build links.
	Username string
	// MediaChatID is a chat the bot may post to, where boards of games
	// played on inline messages are uploaded (0: a player's DM instead).
	MediaChatID int64
	Logger      *slog.Logger
	// BoardURL, if set, gives the link that opens a game in the Mini App
	// (package miniapp); every card then has an "Open board" button.
	BoardURL func(gameID string) string
	// BoardImageURL, if set, is the public HTTPS address of a board image
	// (BoardImage) by game id and version; inline games then show their
	// boards by URL (boardimage.go).
	BoardImageURL func(gameID, version string) string
	// ChatAdmin asks Telegram (getChatMember) whether a user administers
	// a group: only they choose its language (grouplang.go). nil: nobody
	// can.
	ChatAdmin func(ctx context.Context, chatID, userID int64) (bool, error)
	// Metrics, if set, hears about each handled update.
	OnHandled func(kind string, d time.Duration, err error)
	// Modules are the features plugged in (module.go), in the order
	// their ticks and game-end hooks run.
	Modules []Module
	// DrawsAtSend says the Sender is an outbox wired to this bot's
	// OutboxHooks (wiring.go, Main.Open): card edits are drawn when sent
	// and records kept by the process that sends them.
	DrawsAtSend bool
	// Door, if set, refuses work for a chat whose outgoing lane is full
	// (the outbox's Admit, door.go).
	Door Door
	// Members, if set, says whether a user is a member of a group
	// (bot/telegram/members): joining a group's tournament and voting in
	// its team game need it (members.go). Nil checks nothing.
	Members Members
}

// UpdateMarks remember which Telegram updates were handled (the store
// keeps them: a redelivered update may reach another replica). They are
// the bot's own: an update id means nothing to play.
type UpdateMarks interface {
	// UpdateSeen reports whether updateID is marked (and the mark is live).
	UpdateSeen(ctx context.Context, updateID int64) (bool, error)
	// MarkUpdate marks updateID for ttl and reports whether it was the
	// first to.
	MarkUpdate(ctx context.Context, updateID int64, ttl time.Duration) (first bool, err error)
}

// UpdateMarkTTL is how long a handled update is remembered: Telegram gives
// up redelivering long before.
const UpdateMarkTTL = 24 * time.Hour

// Committer stores the replies a handled update owes with the update's
// mark, in one write, and then queues them (bot/telegram/outbox.Outbox with a
// journal); ErrNoJournal means it queued them and kept nothing.
type Committer interface {
	Commit(ctx context.Context, updateID int64, rs []outbox.Reply) (first bool, err error)
}

// Bot turns updates into replies. It is safe for concurrent use: updates
// from different chats are handled in parallel.
//
// While an update is handled, its handlers speak through a Bot of their
// own whose out collects their replies (collector), so that they are
// stored with the update's mark in one write; everything else is shared.
type Bot struct {
	*core
	out Sender
}

// core is what every update's Bot shares.
type core struct {
	svc    *play.Service
	marks  UpdateMarks
	render Renderer
	texts  *texts.Catalog
	cfg    Config
	log    *slog.Logger

	bgCtx context.Context // background work (AI moves, bookkeeping) runs under it
	bg    tasks

	// freshCards maps a game id to the card just posted for it, set the
	// moment Telegram answers, before the store has the message id (that
	// write happens in the background). See locateCard. Like reposts, it is
	// this process's alone and covers only that moment: another replica
	// reads the card from the store, or edits the message the tap came
	// from (docs/runtime.md).
	freshCards sync.Map
	// reposts maps a game id to its *repost while a /board card is in
	// flight (see cardrepost.go).
	reposts sync.Map
	// resignAsks maps the cardRef of a /resign question sent from this
	// process to its deadline (time.Time), for the clock to delete it
	// then (resign.go).
	resignAsks sync.Map

	// startPhoto is the file_id of the start board, uploaded once, for
	// inline offers (string; empty until the first upload). Each replica
	// uploads its own once; nothing depends on their being the same.
	startPhoto atomic.Value

	// ai is the games whose AI searches in this process (typing.go).
	ai aiThinking

	// lazyCards: the outbox draws card edits when it sends them
	// (cardlazy.go).
	lazyCards bool
	// recordsSent: the outbox records what it sent with a record in
	// whichever process sends it (sentrecord.go).
	recordsSent bool
	// mods routes to the modules plugged in (module.go).
	mods modules

	// door: the outbox refuses work for a chat whose lane is full
	// (door.go); nil if it keeps no bound.
	door Door
}

// cardRef is where a game's card is.
type cardRef struct {
	chatID    int64
	messageID int
}

// New returns a bot. Background work started by handlers (AI moves,
// storing message ids) runs under bgCtx; Wait waits for it.
func New(bgCtx context.Context, svc *play.Service, marks UpdateMarks, out Sender, r Renderer, cfg Config) *Bot {
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	mods, err := plug(cfg.Modules)
	if err != nil {
		panic(err) // a wiring bug: two features claim one button or command
	}
	b := &Bot{core: &core{svc: svc, marks: marks, render: r, texts: texts.New(), cfg: cfg, log: cfg.Logger, bgCtx: bgCtx, mods: mods}, out: out}
	// The outbox draws card edits and records what it sent only when
	// wired to (wiring.go); without a service there is nothing to draw.
	b.lazyCards = cfg.DrawsAtSend && svc != nil
	b.recordsSent = b.lazyCards
	b.door = cfg.Door
	return b
}

// AllowedUpdates are the update types the bot handles (see handle), for
// getUpdates and setWebhook. Telegram keeps the last list a token asked
// for, so the bot always sends its own: left out (null), a list set by
// another program run with the same token would silently stay.
var AllowedUpdates = []string{"message", "callback_query", "inline_query", "poll_answer", "chat_member"}

// Texts returns the bot's texts (for setMyCommands and tests).
func (b *Bot) Texts() *texts.Catalog { return b.texts }

// Wait waits until no background work started by handlers is running.
func (b *Bot) Wait() { b.bg.wait() }

// background runs fn off the handler's path (and off the outbox's sending
// goroutine), owned by the bot so shutdown can wait for it.
func (b *Bot) background(fn func(ctx context.Context)) {
	b.bg.add()
	go func() {
		defer b.bg.done()
		fn(b.bgCtx)
	}()
}

// tasks counts running background work. Unlike a sync.WaitGroup it allows
// new work to start while someone waits: the outbox's Done callbacks start
// bookkeeping at any time, including during shutdown.
type tasks struct {
	mu   sync.Mutex
	cond *sync.Cond
	n    int
}

func (t *tasks) init() {
	if t.cond == nil {
		t.cond = sync.NewCond(&t.mu)
	}
}

func (t *tasks) add() {
	t.mu.Lock()
	t.init()
	t.n++
	t.mu.Unlock()
}

func (t *tasks) done() {
	t.mu.Lock()
	t.init()
	t.n--
	if t.n == 0 {
		t.cond.Broadcast()
	}
	t.mu.Unlock()
}

func (t *tasks) wait() {
	t.mu.Lock()
	t.init()
	for t.n > 0 {
		t.cond.Wait()
	}
	t.mu.Unlock()
}

// send queues a reply; a full queue is logged (the user will tap again).
func (b *Bot) send(r outbox.Reply) {
	if err := b.out.Enqueue(r); err != nil {
		b.log.Warn("reply dropped", "chat", r.ChatID, "err", err)
	}
}

// chatReply wraps a request to a chat.
func chatReply(chat *tgbotapi.Chat, req tgbotapi.Chattable) outbox.Reply {
	r := outbox.Reply{Req: req, ChatID: chat.ID, Group: !chat.IsPrivate()}
	if chat.IsPrivate() {
		r.UserID = chat.ID
	}
	return r
}

// text sends a plain text message to a chat.
func (b *Bot) text(chat *tgbotapi.Chat, text string, replyTo int) {
	b.send(outMessage{chatID: chat.ID, text: text, replyTo: replyTo}.reply())
}

// html sends an HTML message to a chat.
func (b *Bot) html(chat *tgbotapi.Chat, text string, kb *tgbotapi.InlineKeyboardMarkup) {
	b.send(outMessage{chatID: chat.ID, text: text, parseMode: tgbotapi.ModeHTML, noPreview: true, markup: kb}.reply())
}

// toast answers a callback query with a short notice.
func (b *Bot) toast(q *tgbotapi.CallbackQuery, text string) {
	b.send(outbox.Reply{Req: tgbotapi.NewCallback(q.ID, text)})
}

// profile turns a Telegram user into what play knows of them.
func profile(u *tgbotapi.User, private bool) play.Profile {
	return play.Profile{ID: u.ID, Name: displayName(u), Username: u.UserName, Lang: u.LanguageCode, Private: private}
}

// displayName is how a user is called in texts.
func displayName(u *tgbotapi.User) string {
	name := strings.TrimSpace(u.FirstName + " " + u.LastName)
	if name == "" {
		name = u.UserName
	}
	if name == "" {
		name = "?"
	}
	return name
}

// player is a Telegram user as a game player.
func player(u *tgbotapi.User) play.Player {
	return play.Player{UserID: u.ID, Name: displayName(u)}
}

// touch records the user and returns their language.
func (b *Bot) touch(ctx context.Context, u *tgbotapi.User, private bool) (*play.User, string) {
	su, err := b.svc.Touch(ctx, profile(u, private))
	if err != nil || su == nil {
		return &play.User{ID: u.ID, Name: displayName(u), Lang: u.LanguageCode}, texts.Lang(u.LanguageCode)
	}
	return su, texts.Lang(su.Lang)
}
