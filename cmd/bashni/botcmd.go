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
	"net/http"
	"net/url"
	"os"
	"sync"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"
	goredis "github.com/redis/go-redis/v9"
	"golang.org/x/time/rate"

	"github.com/bashni/bashni/ai"
	"github.com/bashni/bashni/bot"
	"github.com/bashni/bashni/bot/telegram"
	"github.com/bashni/bashni/bot/telegram/outbox"
	"github.com/bashni/bashni/bot/telegram/updates"
	"github.com/bashni/bashni/play"
	"github.com/bashni/bashni/puzzle"
	"github.com/bashni/bashni/render"
	"github.com/bashni/bashni/storage"
	"github.com/bashni/bashni/storage/bolt"
	redisstore "github.com/bashni/bashni/storage/redis"
	"github.com/bashni/bashni/texts"
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
	logger := newLogger(cfg, e.stderr)
	silenceTelegramLog.Do(func() { _ = tgbotapi.SetLogger(log.New(io.Discard, "", 0)) })

	store, err := openStore(ctx, cfg, e.now, logger)
	if err != nil {
		return err
	}
	defer store.Close()

	// Ports are taken before Telegram is called: one in use ends the
	// process at start, not at shutdown.
	var opsLn, hookLn, appLn net.Listener
	if cfg.MiniApp.enabled() {
		if appLn, err = listen(cfg.MiniApp.Listen, "miniapp"); err != nil {
			return err
		}
		defer appLn.Close()
	}
	if cfg.Ops.Listen != "" {
		if opsLn, err = listen(cfg.Ops.Listen, "ops"); err != nil {
			return err
		}
		defer opsLn.Close()
	}
	if cfg.Telegram.Mode == "webhook" {
		if hookLn, err = listen(cfg.Telegram.Webhook.Listen, "webhook"); err != nil {
			return err
		}
		defer hookLn.Close()
	}

	api, err := newTelegram(cfg)
	if err != nil {
		return err
	}
	logger.Info("connected to Telegram", "bot", api.Self.UserName, "store", storeKind(cfg), "mode", cfg.Telegram.Mode)

	m := newMetrics()
	thinker := timedThinker{Thinker: newThinker(cfg, store, e.now, logger), observe: func(d time.Duration) { m.aiThink.Observe(d.Seconds()) }}
	live := newLiveBoard(cfg, store, logger) // the Mini App, if configured
	opts := []play.Option{play.WithLogger(logger),
		play.WithHooks(play.Hooks{GameStarted: m.gamesStarted.Inc, GameFinished: m.gamesFinished.Inc}),
		play.WithTournaments(store)}
	if rq, ok := store.(play.ReviewQueue); ok {
		// Reviews wait in the stored queue; this process works on as many
		// at once as it has engines (the pool serves AI moves first).
		opts = append(opts, play.WithReviewQueue(rq, play.ReviewLimits{Runners: cfg.AI.Workers}))
	}
	svc := play.New(live.store(store), thinker, playConfig(cfg), e.now, opts...)
	// Background work and sending outlive the update loop by a little, so
	// shutdown finishes what handled updates started.
	bgCtx, stopBg := context.WithCancel(context.WithoutCancel(ctx))
	defer stopBg()
	outOpts := outbox.Options{
		// Replies are kept in the store until sent: a crash loses none.
		Journal:   outbox.StoreJournal(store, processName(), outboxLease, play.UpdateMarkTTL),
		PerChat:   rate.Limit(cfg.Telegram.RatePerChat),
		PerGroup:  rate.Limit(cfg.Telegram.RatePerGroup / 60),
		Global:    rate.Limit(cfg.Telegram.RateGlobal),
		Logger:    logger,
		OnBlocked: func(id int64) { _ = svc.Blocked(bgCtx, id) },
		OnCall:    m.onCall,
	}
	if rs, ok := store.(*redisstore.Store); ok {
		// Replicas share one pace: Telegram counts the bot's messages.
		outOpts.Pacer = outbox.NewRedisPacer(rs.Client(), rs.Prefix(), outOpts)
	}
	out := outbox.New(api, outOpts)
	puzzles, err := puzzle.Shipped()
	if err != nil {
		return fmt.Errorf("the built-in puzzles: %w", err)
	}
	trainer := play.NewPuzzles(store, puzzles, logger)
	live.puzzles = trainer // the board serves the same attempts as the chat
	b := bot.New(bgCtx, svc, out, render.New(), bot.Config{
		Username: api.Self.UserName, Logger: logger, LevelName: levelName, OnHandled: m.onHandled,
		MediaChatID: cfg.Telegram.MediaChatID, BoardURL: live.boardURL(api.Self.UserName), BoardImageURL: live.boardImageURL(),
		Puzzles: trainer, Course: play.NewCourse(store),
		Daily: play.NewDaily(store, puzzles, e.now),
	})

	outDone := make(chan error, 1)
	go func() { outDone <- out.Run(bgCtx) }()
	setCommands(api, b.Texts(), logger)

	// The process lives or dies with its update loop: when the loop or the
	// ops server ends by itself, runCtx ends everything else, and the
	// process exits non-zero so that its supervisor restarts it.
	runCtx, stopRun := context.WithCancel(ctx)
	defer stopRun()
	var stale time.Duration
	if cfg.Telegram.Mode != "webhook" {
		stale = 2*(cfg.Telegram.PollTimeout+15*time.Second) + 30*time.Second // two calls' timeouts and the longest backoff
	}
	health := newLoopHealth(e.now, stale)
	var wg sync.WaitGroup
	errs := make(chan error, 4)
	live.serve(runCtx, &wg, appLn, func(err error) {
		logger.Error("miniapp server stopped; exiting", "err", err)
		errs <- err
		stopRun()
	}, string(cfg.Telegram.Token), e.now, svc, b, logger, m)
	wg.Add(1)
	go func() { defer wg.Done(); b.RunClock(runCtx, cfg.Game.ClockInterval) }()
	wg.Add(1)
	go func() { defer wg.Done(); svc.RunReviews(runCtx) }()
	// The AI's moves this process claimed (play's own writes, and the
	// clock's claims of moves another process left owed). Moves under
	// way finish after runCtx: a move handled just before shutdown still
	// gets its answer.
	aiDone := make(chan struct{})
	go func() { defer close(aiDone); svc.RunAI(runCtx, aiRunners(cfg), b.AIHooks()) }()
	if opsLn != nil {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := serveHTTP(runCtx, opsLn, opsHandler(store, m, health), logger, "ops", opsLimits, m, e.now); err != nil {
				logger.Error("ops server stopped; exiting", "err", err)
				errs <- err
				stopRun()
			}
		}()
	}
	health.running()
	if cfg.Telegram.Mode == "webhook" {
		err = runWebhook(runCtx, cfg, api, b, hookLn, logger, m, e.now)
	} else {
		err = updates.Poll(runCtx, api, updates.PollOptions{
			Timeout:        cfg.Telegram.PollTimeout,
			AllowedUpdates: bot.AllowedUpdates,
			Workers:        cfg.Telegram.Workers,
			Logger:         logger,
			OnFetch:        health.polled,
		}, b.Handle)
	}
	if err != nil && !errors.Is(err, context.Canceled) {
		err = telegram.Redact(err, "")
		health.stopped(err)
		logger.Error("update loop died; exiting so that the supervisor restarts the bot", "err", err)
		stopRun()
	}
	wg.Wait()
	waitFor(func() { <-aiDone }, 15*time.Second) // AI moves in flight may take a few seconds
	waitFor(b.Wait, 15*time.Second)
	stopBg()
	<-outDone
	// Replies sent while draining may have started bookkeeping; it runs
	// under a cancelled context now and ends at once. Let it end before
	// the store closes.
	waitFor(b.Wait, 5*time.Second)
	logger.Info("stopped")
	if err != nil && !errors.Is(err, context.Canceled) {
		return fmt.Errorf("update loop: %w", err)
	}
	select {
	case err2 := <-errs:
		return err2
	default:
	}
	return nil // a signal: a clean stop
}

// runWebhook registers the webhook with its secret and serves it until ctx
// ends, then lets accepted updates finish. Several replicas may serve one
// bot behind a load balancer: each registers the same URL and secret.
func runWebhook(ctx context.Context, cfg Config, api *tgbotapi.BotAPI, b *bot.Bot, ln net.Listener, logger *slog.Logger, m *metrics, now func() time.Time) error {
	secret := string(cfg.Telegram.Webhook.Secret)
	hook := updates.WebhookHandler(secret, b.Handle, updates.WebhookOptions{
		Workers: cfg.Telegram.Workers, Logger: logger, Now: now,
		OnRefused: func(reason string) { m.httpRefused.WithLabelValues("webhook", reason).Inc() },
	})
	if err := updates.SetWebhook(api, cfg.Telegram.Webhook.PublicURL, secret, bot.AllowedUpdates); err != nil {
		return fmt.Errorf("setWebhook: %w", err)
	}
	path := "/"
	if u, err := url.Parse(cfg.Telegram.Webhook.PublicURL); err == nil && u.Path != "" {
		path = u.Path
	}
	mux := http.NewServeMux()
	mux.Handle(path, hook)
	err := serveHTTP(ctx, ln, mux, logger, "webhook", webhookLimits, m, now)
	dctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 15*time.Second)
	defer cancel()
	if derr := hook.Drain(dctx); derr != nil && err == nil {
		err = derr
	}
	return err
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
	storage.Outbox
	play.PuzzleStore
	storage.Daily
	storage.Tournaments
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

// newTelegram connects to the Bot API (it calls getMe at once). Its HTTP
// client has a timeout longer than a long poll, so no call hangs forever.
func newTelegram(cfg Config) (*tgbotapi.BotAPI, error) {
	endpoint := cfg.Telegram.APIEndpoint
	if endpoint == "" {
		endpoint = tgbotapi.APIEndpoint
	}
	// The default transport keeps 2 idle connections per host, but the
	// outbox sends up to 8 requests at once, answers callbacks beside them
	// and may long-poll too: most calls would open a new connection (a TLS
	// handshake with api.telegram.org) and leave one to close.
	transport := http.DefaultTransport.(*http.Transport).Clone()
	transport.MaxIdleConnsPerHost = botAPIConns
	transport.MaxIdleConns = botAPIConns
	client := &http.Client{Timeout: cfg.Telegram.PollTimeout + 15*time.Second, Transport: transport}
	api, err := tgbotapi.NewBotAPIWithClient(string(cfg.Telegram.Token), endpoint, client)
	if err != nil {
		return nil, fmt.Errorf("telegram: %s", telegram.RedactString(err.Error(), string(cfg.Telegram.Token)))
	}
	return api, nil
}

// botAPIConns is how many idle connections to the Bot API are kept: more
// than the outbox's senders, callback answers and long polls use at once.
const botAPIConns = 32

func newEnginePool(cfg Config) *play.EnginePool {
	var limits ai.Limits
	if cfg.AI.MaxNodes > 0 {
		limits.Nodes = uint64(cfg.AI.MaxNodes)
	}
	return play.NewEnginePoolOptions(cfg.AI.Workers, ai.Options{HashMB: cfg.AI.HashMB, Threads: cfg.AI.Threads}, limits)
}

func playConfig(cfg Config) play.Config {
	c := play.DefaultConfig
	c.ChallengeTTL = cfg.Game.ChallengeTTL
	c.RemindAfter = cfg.Game.RemindAfter
	c.RemindEvery = cfg.Game.RemindEvery
	c.TimeoutAfter = cfg.Game.TimeoutAfter
	c.NoticeDelay = cfg.Game.NoticeDelay
	c.MaxLevel = len(ai.Levels)
	return c
}

// aiRunners bounds the AI moves one process makes at once: the local
// engines' number, or more with remote workers, which only wait here.
func aiRunners(cfg Config) int {
	if cfg.AI.Queue == "redis" {
		return 32
	}
	return max(cfg.AI.Workers, 1)
}

func levelName(level int) string {
	if level >= 1 && level <= len(ai.Levels) {
		return ai.Levels[level-1].Name
	}
	return play.AIName(level)
}

// setCommands registers the command menu in each language the bot speaks.
func setCommands(api *tgbotapi.BotAPI, catalog *texts.Catalog, logger *slog.Logger) {
	for _, lang := range texts.Languages {
		cmds := bot.Commands(catalog, lang)
		req := tgbotapi.NewSetMyCommandsWithScopeAndLanguage(tgbotapi.NewBotCommandScopeDefault(), lang, cmds...)
		if lang == "en" {
			req = tgbotapi.NewSetMyCommands(cmds...) // also the default for every other language
		}
		if _, err := api.Request(req); err != nil {
			logger.Warn("setMyCommands failed", "lang", lang, "err", telegram.RedactString(err.Error(), api.Token))
		}
	}
}
