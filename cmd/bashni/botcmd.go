package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"
	"golang.org/x/time/rate"

	"github.com/bashni/bashni/ai"
	"github.com/bashni/bashni/bot"
	"github.com/bashni/bashni/bot/outbox"
	"github.com/bashni/bashni/bot/updates"
	"github.com/bashni/bashni/play"
	"github.com/bashni/bashni/render"
	"github.com/bashni/bashni/storage"
	"github.com/bashni/bashni/storage/bolt"
	redisstore "github.com/bashni/bashni/storage/redis"
)

func init() {
	register("bot", "run the Telegram bot (token from TELEGRAM_BOT_TOKEN or the config file)", cmdBot)
}

// tgbotapi logs through a package-global logger, with request URLs that
// contain the token; silence it once for the whole process.
var silenceTelegramLog sync.Once

func cmdBot(ctx context.Context, e env) error {
	fs := newFlags(e, "bot", "[-config FILE]")
	configPath := fs.String("config", e.getenv("BASHNI_CONFIG"), "YAML config file (env BASHNI_CONFIG); every setting also reads from the environment")
	if err := parseFlags(fs, e.args); err != nil {
		return err
	}
	cfg, err := loadConfig(*configPath, e.getenv)
	if err != nil {
		return err
	}
	if cfg.Telegram.Token == "" {
		return usageError("bot: no Telegram token: set TELEGRAM_BOT_TOKEN (from @BotFather) or telegram.token in the config file")
	}
	logger := newLogger(cfg, e.stderr)
	silenceTelegramLog.Do(func() { _ = tgbotapi.SetLogger(log.New(io.Discard, "", 0)) })

	store, err := openStore(ctx, cfg)
	if err != nil {
		return err
	}
	defer store.Close()

	api, err := newTelegram(cfg)
	if err != nil {
		return err
	}
	logger.Info("connected to Telegram", "bot", api.Self.UserName, "store", storeKind(cfg), "mode", cfg.Telegram.Mode)

	svc := play.New(store, newEnginePool(cfg), playConfig(cfg), play.WithLogger(logger))
	// Background work and sending outlive the update loop by a little, so
	// shutdown finishes what handled updates started.
	bgCtx, stopBg := context.WithCancel(context.WithoutCancel(ctx))
	defer stopBg()
	out := outbox.New(api, outbox.Options{
		PerChat:   rate.Limit(cfg.Telegram.RatePerChat),
		PerGroup:  rate.Limit(cfg.Telegram.RatePerGroup / 60),
		Global:    rate.Limit(cfg.Telegram.RateGlobal),
		Logger:    logger,
		OnBlocked: func(id int64) { _ = svc.Blocked(bgCtx, id) },
	})
	b := bot.New(bgCtx, svc, out, render.New(), bot.Config{Username: api.Self.UserName, Logger: logger, LevelName: levelName})

	var wg sync.WaitGroup
	outDone := make(chan error, 1)
	go func() { outDone <- out.Run(bgCtx) }()
	setCommands(api, b.Texts(), logger)
	wg.Add(1)
	go func() { defer wg.Done(); b.RunClock(ctx, cfg.Game.ClockInterval) }()

	err = updates.Poll(ctx, api, updates.PollOptions{
		Timeout: cfg.Telegram.PollTimeout,
		Workers: cfg.Telegram.Workers,
		Logger:  logger,
	}, b.Handle)
	if err != nil && !errors.Is(err, context.Canceled) {
		logger.Error("update loop stopped", "err", err)
	}
	wg.Wait()
	waitFor(b.Wait, 15*time.Second) // AI moves in flight may take a few seconds
	stopBg()
	<-outDone
	logger.Info("stopped")
	if ctx.Err() != nil {
		return nil // a signal: a clean stop
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

// Store is what the binary needs of a store.
type Store interface {
	play.Store
	Ping(ctx context.Context) error
	Close() error
}

var (
	_ Store = (*bolt.Store)(nil)
	_ Store = (*redisstore.Store)(nil)
	_ Store = storage.Store(nil)
)

// openStore opens Redis when configured, else the embedded bbolt file.
func openStore(ctx context.Context, cfg Config) (Store, error) {
	if storeKind(cfg) == "redis" {
		st, err := redisstore.OpenConfig(ctx, redisstore.Config{
			URL: cfg.Redis.URL, Addrs: cfg.Redis.Addrs, MasterName: cfg.Redis.MasterName,
			Password: string(cfg.Redis.Password), DB: cfg.Redis.DB,
		})
		if err != nil {
			return nil, fmt.Errorf("redis: %w", err)
		}
		return st, nil
	}
	st, err := bolt.Open(cfg.Storage.BoltPath)
	if err != nil {
		return nil, fmt.Errorf("store %s: %w", cfg.Storage.BoltPath, err)
	}
	return st, nil
}

// newTelegram connects to the Bot API (it calls getMe at once). Its HTTP
// client has a timeout longer than a long poll, so no call hangs forever.
func newTelegram(cfg Config) (*tgbotapi.BotAPI, error) {
	endpoint := cfg.Telegram.APIEndpoint
	if endpoint == "" {
		endpoint = tgbotapi.APIEndpoint
	}
	client := &http.Client{Timeout: cfg.Telegram.PollTimeout + 15*time.Second}
	api, err := tgbotapi.NewBotAPIWithClient(string(cfg.Telegram.Token), endpoint, client)
	if err != nil {
		return nil, fmt.Errorf("telegram: %s", redact(err.Error(), string(cfg.Telegram.Token)))
	}
	return api, nil
}

// redact removes the token from text (tgbotapi's errors include URLs).
func redact(text, token string) string {
	if token == "" {
		return text
	}
	return strings.ReplaceAll(text, token, "[token]")
}

func newEnginePool(cfg Config) *play.EnginePool {
	var limits ai.Limits
	if cfg.AI.MaxNodes > 0 {
		limits.Nodes = uint64(cfg.AI.MaxNodes)
	}
	return play.NewEnginePool(cfg.AI.Workers, cfg.AI.HashMB, limits)
}

func playConfig(cfg Config) play.Config {
	c := play.DefaultConfig
	c.ChallengeTTL = cfg.Game.ChallengeTTL
	c.RemindAfter = cfg.Game.RemindAfter
	c.RemindEvery = cfg.Game.RemindEvery
	c.TimeoutAfter = cfg.Game.TimeoutAfter
	c.MaxLevel = len(ai.Levels)
	return c
}

func levelName(level int) string {
	if level >= 1 && level <= len(ai.Levels) {
		return ai.Levels[level-1].Name
	}
	return play.AIName(level)
}

// setCommands registers the command menu in each language the bot speaks.
func setCommands(api *tgbotapi.BotAPI, texts *bot.Texts, logger *slog.Logger) {
	for _, lang := range bot.Languages {
		cmds := bot.Commands(texts, lang)
		req := tgbotapi.NewSetMyCommandsWithScopeAndLanguage(tgbotapi.NewBotCommandScopeDefault(), lang, cmds...)
		if lang == "en" {
			req = tgbotapi.NewSetMyCommands(cmds...) // also the default for every other language
		}
		if _, err := api.Request(req); err != nil {
			logger.Warn("setMyCommands failed", "lang", lang, "err", redact(err.Error(), api.Token))
		}
	}
}
