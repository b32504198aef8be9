package main

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"log"
	"log/slog"
	"net"
	"os"
	"sync"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"
	goredis "github.com/redis/go-redis/v9"
	"golang.org/x/time/rate"

	"github.com/bashni/bashni/bot"
	"github.com/bashni/bashni/bot/assist"
	mannersbot "github.com/bashni/bashni/bot/manners"
	botmining "github.com/bashni/bashni/bot/mining"
	botreview "github.com/bashni/bashni/bot/review"
	slowbot "github.com/bashni/bashni/bot/slow"
	"github.com/bashni/bashni/bot/standings"
	teambot "github.com/bashni/bashni/bot/team"
	"github.com/bashni/bashni/bot/telegram"
	"github.com/bashni/bashni/bot/telegram/members"
	"github.com/bashni/bashni/bot/telegram/outbox"
	"github.com/bashni/bashni/bot/telegram/updates"
	tourbot "github.com/bashni/bashni/bot/tournament"
	bottraining "github.com/bashni/bashni/bot/training"
	versusbot "github.com/bashni/bashni/bot/versus"
	"github.com/bashni/bashni/play"
	"github.com/bashni/bashni/play/manners"
	"github.com/bashni/bashni/play/mining"
	"github.com/bashni/bashni/play/review"
	"github.com/bashni/bashni/play/slow"
	"github.com/bashni/bashni/play/team"
	"github.com/bashni/bashni/play/tournament"
	"github.com/bashni/bashni/play/training"
	"github.com/bashni/bashni/play/versus"
	"github.com/bashni/bashni/puzzle"
	"github.com/bashni/bashni/render"
	"github.com/bashni/bashni/storage"
	"github.com/bashni/bashni/storage/bolt"
	redisstore "github.com/bashni/bashni/storage/redis"
)

// tgbotapi logs through a package-global logger, with request URLs that
// contain the token; silence it once for the whole process.
var silenceTelegramLog sync.Once

func cmdBot(ctx context.Context, e env) error {
	fs := newFlags(e, "bot", "[-config FILE]")
	configPath := fs.String("config", e.getenv("BASHNI_CONFIG"), "YAML config file (env BASHNI_CONFIG); every setting also reads from the environment")
	if err := parseFlags(fs, e.args); err != nil {
		return err
	}
	cfg, err := loadConfigEnv(*configPath, e)
	if err != nil {
		return err
	}
	if cfg.Telegram.Token == "" {
		return usageError("bot: no Telegram token: set TELEGRAM_BOT_TOKEN (from @BotFather) or telegram.token in the config file")
	}
	silenceTelegramLog.Do(func() { _ = tgbotapi.SetLogger(log.New(io.Discard, "", 0)) })
	m := &Main{cfg: cfg, now: e.now, log: newLogger(cfg, e.stderr)}
	if err := m.Open(ctx); err != nil {
		return err
	}
	err = m.Run(ctx)
	if cerr := m.Close(); err == nil {
		err = cerr
	}
	return err
}

// Main is `bashni bot`: Open builds the process (store, ports, Telegram,
// the service, the outbox, the bot), Run runs its goroutines until the
// update loop ends, and Close stops them in the order docs/runtime.md
// gives. Each is called once, in that order; Close only after Run.
type Main struct {
	cfg Config
	now func() time.Time // the process's one clock
	log *slog.Logger

	// Built by Open.
	store                Store
	appLn, opsLn, hookLn net.Listener
	api                  *tgbotapi.BotAPI
	metrics              *metrics
	live                 *liveBoard
	svc                  *play.Service
	teams                *team.Service
	manners              *manners.Service
	reviews              *review.Service
	out                  *outbox.Outbox
	bot                  *bot.Bot
	// bgCtx is what background work and sending run under: it outlives
	// runCtx, so shutdown finishes what handled updates started.
	bgCtx  context.Context
	stopBg context.CancelFunc

	// Started by Run.
	stopRun context.CancelFunc // ends runCtx
	wg      sync.WaitGroup     // the clock, the review runners, the HTTP servers
	aiDone  chan struct{}      // closed once the AI's moves under way are made
	outDone chan error         // the outbox's end
	errs    chan error         // a server's failure, which ended runCtx
}

// Open does everything that can fail before the update loop, the store
// and the ports first: a bad setting or a taken port ends the process
// before Telegram is called. What it opened is closed again if it fails.
func (m *Main) Open(ctx context.Context) (err error) {
	defer func() {
		if err != nil {
			m.closeResources()
		}
	}()
	if m.store, err = openStore(ctx, m.cfg, m.now, m.log); err != nil {
		return err
	}
	if err := m.listen(); err != nil {
		return err
	}
	if m.api, err = newTelegram(m.cfg); err != nil {
		return err
	}
	m.log.Info("connected to Telegram", "bot", m.api.Self.UserName, "store", storeKind(m.cfg), "mode", m.cfg.Telegram.Mode)
	m.metrics = newMetrics()
	countTrips(m.store, m.metrics.reg)
	m.live = newLiveBoard(m.cfg, m.store, m.log) // the Mini App, if configured
	m.svc, m.reviews = m.newService()
	// The groups' games by vote: the clock's tick closes a vote whose
	// time is up.
	m.teams = team.New(m.svc, m.store, m.log)
	m.svc.AddDeadline(m.teams.CloseDue)
	// Conditional moves are answered within the opponent's move's write.
	m.manners = manners.New(m.svc)
	m.svc.AfterMove(m.manners.Answer)
	m.live.manners = m.manners // the board leaves lines too
	m.bgCtx, m.stopBg = context.WithCancel(context.WithoutCancel(ctx))
	m.out = m.newOutbox()
	if err := m.newBot(); err != nil {
		return err
	}
	// The callbacks between play, the outbox and the bot (bot/wiring.go):
	// the outbox draws a card's edit when it sends it, records what it
	// sent in the process that sent it, and tells when a board was shown
	// (a live game's clock starts then: play/shown.go); play has the bot
	// show the changes made where nobody shows them (the Mini App).
	m.bot.OutboxHooks().Install(m.out)
	m.svc.OnOwed(m.bot.ShowDetached())
	return nil
}

// listen takes the ports: one in use ends the process at start, not at
// shutdown.
func (m *Main) listen() (err error) {
	if m.cfg.MiniApp.enabled() {
		if m.appLn, err = listen(m.cfg.MiniApp.Listen, "miniapp"); err != nil {
			return err
		}
	}
	if m.cfg.Ops.Listen != "" {
		if m.opsLn, err = listen(m.cfg.Ops.Listen, "ops"); err != nil {
			return err
		}
	}
	if m.cfg.Telegram.Mode == "webhook" {
		if m.hookLn, err = listen(m.cfg.Telegram.Webhook.Listen, "webhook"); err != nil {
			return err
		}
	}
	return nil
}

// newService builds the game service and the reviews of its finished
// games, both over the thinker.
func (m *Main) newService() (*play.Service, *review.Service) {
	thinker := timedThinker{Thinker: newThinker(m.cfg, m.store, m.now, m.log), observe: func(d time.Duration) { m.metrics.aiThink.Observe(d.Seconds()) }}
	opts := []play.Option{play.WithLogger(m.log),
		play.WithHooks(play.Hooks{GameStarted: m.metrics.gamesStarted.Inc, GameFinished: m.metrics.gamesFinished.Inc})}
	games := m.live.store(m.store)
	svc := play.New(games, thinker, playConfig(m.cfg), m.now, opts...)
	// Reviews wait in the stored queue; this process works on as many at
	// once as it has engines (the pool serves AI moves first). A review is
	// kept in its game's record through the store the service writes, so
	// the boards hear of it as of any change.
	reviews := review.New(svc, reviewStore{games, m.store}, thinker, review.WithLogger(m.log),
		review.WithQueue(review.Limits{Runners: m.cfg.AI.Workers}))
	return svc, reviews
}

// reviewStore is the review's store: the games as the service reads and
// writes them, and the stored review queue.
type reviewStore struct {
	play.Store
	reviewQueue
}

// reviewQueue names the embedded queue (storage.ReviewQueue's own name
// would clash with its method ReviewQueue).
type reviewQueue = storage.ReviewQueue

func (m *Main) newOutbox() *outbox.Outbox {
	opts := outbox.Options{
		// Replies are kept in the store until sent: a crash loses none.
		Journal:   outbox.StoreJournal(m.store, processName(), outboxLease, bot.UpdateMarkTTL),
		PerChat:   rate.Limit(m.cfg.Telegram.RatePerChat),
		PerGroup:  rate.Limit(m.cfg.Telegram.RatePerGroup / 60),
		Global:    rate.Limit(m.cfg.Telegram.RateGlobal),
		Logger:    m.log,
		OnBlocked: func(id int64) { _ = m.svc.Blocked(m.bgCtx, id) },
		OnCall:    m.metrics.onCall,
		OnRefused: m.metrics.onRefused,
	}
	if rs, ok := m.store.(*redisstore.Store); ok {
		// Replicas share one pace: Telegram counts the bot's messages.
		opts.Pacer = outbox.NewRedisPacer(rs.Client(), rs.Prefix(), opts)
	}
	ob := outbox.New(m.api, opts)
	m.metrics.watchLanes(ob)
	return ob
}

func (m *Main) newBot() error {
	puzzles, err := puzzle.Shipped()
	if err != nil {
		return fmt.Errorf("the built-in puzzles: %w", err)
	}
	trainer := training.NewPuzzles(m.store, puzzles, m.now, m.log)
	m.live.puzzles = trainer // the board serves the same attempts as the chat
	tours := tournament.New(m.svc, m.store, m.log)
	course := training.NewCourse(m.store)
	m.live.course = course // the lobby shows the course's progress
	streak := training.NewStreak(m.store, trainer)
	m.live.streak = streak
	// /stats tells the puzzle rating, /top streak the best runs.
	ranks := standings.Options{Lines: []func(*bot.Kit, bot.Command) string{bottraining.StatsLine},
		Boards: map[string]bot.CommandFunc{"streak": bottraining.StreakBoard(streak)}}
	name := m.api.Self.UserName
	m.bot = bot.New(m.bgCtx, m.svc, m.store, m.out, render.New(), bot.Config{
		Username: name, Logger: m.log, OnHandled: m.metrics.onHandled,
		MediaChatID: m.cfg.Telegram.MediaChatID, BoardURL: m.live.boardURL(name), BoardImageURL: m.live.boardImageURL(),
		ChatAdmin: chatAdmin(m.api),
		// A member's answer is remembered 10 minutes: a vote costs no
		// call, and one who left is refused soon (at once where the bot
		// is an administrator: chat_member updates).
		Members:     members.New(m.api, 10000, 10*time.Minute),
		DrawsAtSend: true, Door: m.out,
		// The features, each a module (bot.Module) over its own service.
		Modules: []bot.Module{assist.Module(), standings.Module(ranks),
			bottraining.Module(course, trainer, training.NewDaily(m.store, puzzles, m.now), streak),
			teambot.Module(m.teams),
			botreview.Module(m.reviews), tourbot.Module(tours),
			slowbot.Module(slow.New(m.svc, m.store, m.now)), mannersbot.Module(m.manners),
			// The puzzles found in the games played here join the
			// trainer's pool, and their players are told.
			botmining.Module(mining.NewFeed(m.store, addFound(trainer), m.log)),
			// Matches between groups: their games are votes on both
			// sides (the team module draws and takes them).
			versusbot.Module(versus.New(m.svc, m.teams, m.store, versus.DefaultConfig, m.log))},
	})
	return nil
}

// Run starts the goroutines of docs/runtime.md's table and runs the update
// loop until ctx ends or the loop or a server fails; it returns the loop's
// failure. The process lives or dies with its update loop: when the loop
// or a server ends by itself, runCtx ends everything else, and the
// process exits non-zero so that its supervisor restarts it.
func (m *Main) Run(ctx context.Context) error {
	m.outDone = make(chan error, 1)
	go func() { m.outDone <- m.out.Run(m.bgCtx) }()
	setCommands(m.api, m.bot, m.log)

	runCtx, stopRun := context.WithCancel(ctx)
	m.stopRun = stopRun
	var stale time.Duration
	if m.cfg.Telegram.Mode != "webhook" {
		stale = 2*(m.cfg.Telegram.PollTimeout+15*time.Second) + 30*time.Second // two calls' timeouts and the longest backoff
	}
	health := newLoopHealth(m.now, stale)
	m.errs = make(chan error, 4)
	m.live.serve(runCtx, &m.wg, m.appLn, m.serverFailed("miniapp"), string(m.cfg.Telegram.Token), m.now, m.svc, m.reviews, m.bot, m.log, m.metrics)
	m.wg.Go(func() { m.bot.RunClock(runCtx, m.cfg.Game.ClockInterval) })
	if bus, ok := m.store.(owedBus); ok {
		m.wg.Go(func() { listenOwed(runCtx, bus, m.bot, m.log) })
	}
	m.wg.Go(func() { m.reviews.Run(runCtx) })
	// The AI's moves this process claimed (play's own writes, and the
	// clock's claims of moves another process left owed). Moves under
	// way finish after runCtx: a move handled just before shutdown still
	// gets its answer.
	m.aiDone = make(chan struct{})
	go func() { defer close(m.aiDone); m.svc.RunAI(runCtx, aiRunners(m.cfg), m.bot.AIHooks()) }()
	if m.opsLn != nil {
		fail := m.serverFailed("ops")
		m.wg.Go(func() {
			if err := serveHTTP(runCtx, m.opsLn, opsHandler(m.store, m.metrics, health), m.log, "ops", opsLimits, m.metrics, m.now); err != nil {
				fail(err)
			}
		})
	}
	health.running()
	err := m.updateLoop(runCtx, health)
	if err == nil || errors.Is(err, context.Canceled) {
		return nil
	}
	err = telegram.Redact(err, "")
	health.stopped(err)
	m.log.Error("update loop died; exiting so that the supervisor restarts the bot", "err", err)
	stopRun()
	return fmt.Errorf("update loop: %w", err)
}

// updateLoop takes updates from Telegram until ctx ends: from the webhook,
// or by long polling.
func (m *Main) updateLoop(ctx context.Context, health *loopHealth) error {
	if m.cfg.Telegram.Mode == "webhook" {
		return runWebhook(ctx, m.cfg, m.api, m.bot, m.hookLn, m.log, m.metrics, m.now)
	}
	return updates.Poll(ctx, m.api, updates.PollOptions{
		Timeout:        m.cfg.Telegram.PollTimeout,
		AllowedUpdates: bot.AllowedUpdates,
		Workers:        m.cfg.Telegram.Workers,
		Logger:         m.log,
		OnFetch:        health.polled,
	}, m.bot.Handle)
}

// serverFailed is what a server that stopped by itself calls: the failure
// is kept for Close to return, and runCtx ends.
func (m *Main) serverFailed(name string) func(error) {
	return func(err error) {
		m.log.Error(name+" server stopped; exiting", "err", err)
		m.errs <- err
		m.stopRun()
	}
}

// Close stops the process in the order docs/runtime.md gives, the steps
// numbered as there, and returns the failure of a server that ended the
// run, if one did.
func (m *Main) Close() error {
	// 1. runCtx ends: the update loop has stopped taking updates (Run
	// has returned).
	m.stopRun()
	// 2. Handlers in flight have finished with the loop; the clock, the
	// review runners and the HTTP servers stop.
	m.wg.Wait()
	// 3. The AI's moves under way are made, then the bookkeeping started
	// by handled updates finishes.
	waitFor(func() { <-m.aiDone }, 15*time.Second)
	waitFor(m.bot.Wait, 15*time.Second)
	// 4. bgCtx ends: the outbox sends what is queued, releases its lease
	// on what it keeps in the store, and returns.
	m.stopBg()
	<-m.outDone
	// 5. Bookkeeping that replies set off runs under a cancelled context
	// now and ends at once; let it end, then close the ports and the store.
	waitFor(m.bot.Wait, 5*time.Second)
	m.log.Info("stopped")
	m.closeResources()
	select {
	case err := <-m.errs:
		return err
	default:
		return nil // a signal: a clean stop
	}
}

// closeResources closes what Open opened: the ports, then the store.
func (m *Main) closeResources() {
	if m.stopBg != nil {
		m.stopBg()
	}
	for _, ln := range []net.Listener{m.hookLn, m.opsLn, m.appLn} {
		if ln != nil {
			ln.Close()
		}
	}
	if m.store != nil {
		m.store.Close()
	}
}

// waitFor runs wait, giving up after d.
func waitFor(wait func(), d time.Duration) {
	done := make(chan struct{})
	go func() { wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(d):
	}
}

func newLogger(cfg Config, w io.Writer) *slog.Logger {
	level, _ := logLevel(cfg.Log.Level)
	opts := &slog.HandlerOptions{Level: level}
	if cfg.Log.Format == "text" {
		return slog.New(slog.NewTextHandler(w, opts))
	}
	return slog.New(slog.NewJSONHandler(w, opts))
}

func storeKind(cfg Config) string {
	if cfg.Redis.URL != "" || len(cfg.Redis.Addrs) > 0 {
		return "redis"
	}
	return "bolt"
}

// outboxLease is how long what this process keeps in the store's outbox
// stays its own without renewal (the outbox renews it every 3 s): after a
// crash another replica sends it this long after the last renewal.
const outboxLease = 10 * time.Second

// processName names this process as an owner of kept replies: unique
// among replicas and restarts.
func processName() string {
	host, _ := os.Hostname()
	return fmt.Sprintf("%s.%d.%s", host, os.Getpid(), rand.Text()[:8])
}

// Store is what the binary needs of a store.
type Store interface {
	play.Store
	bot.UpdateMarks
	storage.Outbox
	training.PuzzleStore
	training.DailyStore
	training.StreakStore
	storage.Tournaments
	team.Store
	versus.Store
	storage.ReviewQueue
	storage.Mining
	Ping(ctx context.Context) error
	Writable(ctx context.Context) error
	Close() error
}

var (
	_ Store = (*bolt.Store)(nil)
	_ Store = (*redisstore.Store)(nil)
	_ Store = storage.Store(nil)
)

// openStore opens Redis when configured, else the embedded bbolt file.
// now is the process's clock, the one the service decides with.
func openStore(ctx context.Context, cfg Config, now func() time.Time, logger *slog.Logger) (Store, error) {
	if storeKind(cfg) == "redis" {
		goredis.SetLogger(redisLogger{logger})
		st, err := redisstore.OpenConfig(ctx, redisstore.Config{
			URL: cfg.Redis.URL, Addrs: cfg.Redis.Addrs, MasterName: cfg.Redis.MasterName,
			Password: string(cfg.Redis.Password), DB: cfg.Redis.DB,
		}, now, redisstore.WithFinishedTTL(cfg.Storage.KeepFinished))
		if err != nil {
			return nil, errors.New("redis: " + redactURL(err.Error(), cfg.Redis.URL))
		}
		// Index entries are hints on Cluster; a process that died mid-write
		// can leave one late. Repair them on every start.
		if err := st.Reindex(ctx); err != nil {
			logger.Warn("redis reindex failed", "err", err)
		}
		return st, nil
	}
	st, err := bolt.Open(cfg.Storage.BoltPath, now, bolt.WithFinishedTTL(cfg.Storage.KeepFinished))
	if err != nil {
		return nil, fmt.Errorf("store %s: %w", cfg.Storage.BoltPath, err)
	}
	return st, nil
}

// redisLogger sends go-redis's own log lines (reconnects and the like) to
// the structured log.
type redisLogger struct{ l *slog.Logger }

func (r redisLogger) Printf(ctx context.Context, format string, v ...any) {
	r.l.WarnContext(ctx, "redis: "+fmt.Sprintf(format, v...))
}
