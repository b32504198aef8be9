package main

import (
	"fmt"
	"log/slog"
	"os"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/bashni/bashni/ai"
)

// Config is every setting of `bashni bot` and `bashni worker`. Each one can
// come from the YAML file (config.example.yaml documents them all) and from
// an environment variable, which wins.
type Config struct {
	Telegram struct {
		Token       Secret        `yaml:"token" env:"TELEGRAM_BOT_TOKEN"`
		APIEndpoint string        `yaml:"api_endpoint" env:"TELEGRAM_API_ENDPOINT"`
		Mode        string        `yaml:"mode" env:"BASHNI_MODE"`
		PollTimeout time.Duration `yaml:"poll_timeout" env:"BASHNI_POLL_TIMEOUT"`
		Workers     int           `yaml:"workers" env:"BASHNI_WORKERS"`
		// Sending pace: Telegram's limits are about 1 message a second per
		// chat, 20 a minute per group and 30 a second in all.
		RatePerChat  float64 `yaml:"rate_per_chat" env:"BASHNI_RATE_PER_CHAT"`   // per second
		RatePerGroup float64 `yaml:"rate_per_group" env:"BASHNI_RATE_PER_GROUP"` // per minute
		RateGlobal   float64 `yaml:"rate_global" env:"BASHNI_RATE_GLOBAL"`       // per second
		// MediaChatID is a chat where boards of inline games are uploaded
		// (inline messages take photos only by file_id); 0: a player's DM.
		MediaChatID int64 `yaml:"media_chat_id" env:"BASHNI_MEDIA_CHAT_ID"`
		Webhook     struct {
			Listen    string `yaml:"listen" env:"BASHNI_WEBHOOK_LISTEN"`
			PublicURL string `yaml:"public_url" env:"BASHNI_WEBHOOK_URL"`
			Secret    Secret `yaml:"secret" env:"BASHNI_WEBHOOK_SECRET"`
		} `yaml:"webhook"`
	} `yaml:"telegram"`
	Storage struct {
		BoltPath string `yaml:"bolt_path" env:"BASHNI_BOLT_PATH"`
		// KeepFinished is how long finished games are kept (0: for ever).
		// Ratings and statistics are kept apart and stay.
		KeepFinished time.Duration `yaml:"keep_finished" env:"BASHNI_KEEP_FINISHED"`
	} `yaml:"storage"`
	Redis struct {
		URL        string   `yaml:"url" env:"REDIS_URL"`
		Addrs      []string `yaml:"addrs" env:"REDIS_ADDRS"`
		MasterName string   `yaml:"master_name" env:"REDIS_MASTER_NAME"`
		Password   Secret   `yaml:"password" env:"REDIS_PASSWORD"`
		DB         int      `yaml:"db" env:"REDIS_DB"`
	} `yaml:"redis"`
	Game struct {
		ChallengeTTL  time.Duration `yaml:"challenge_ttl" env:"BASHNI_CHALLENGE_TTL"`
		RemindAfter   time.Duration `yaml:"remind_after" env:"BASHNI_REMIND_AFTER"`
		RemindEvery   time.Duration `yaml:"remind_every" env:"BASHNI_REMIND_EVERY"`
		TimeoutAfter  time.Duration `yaml:"timeout_after" env:"BASHNI_TIMEOUT_AFTER"`
		ClockInterval time.Duration `yaml:"clock_interval" env:"BASHNI_CLOCK_INTERVAL"`
		// NoticeDelay: the player to move is told it is their move only
		// if they have not moved within it (0: at once, after every move).
		NoticeDelay time.Duration `yaml:"notice_delay" env:"BASHNI_NOTICE_DELAY"`
	} `yaml:"game"`
	AI struct {
		Workers int `yaml:"workers" env:"BASHNI_AI_WORKERS"`
		HashMB  int `yaml:"hash_mb" env:"BASHNI_AI_HASH_MB"`
		// Threads is how many cores one AI search uses (ai.Options.Threads):
		// a worker's search takes Threads cores while it runs.
		Threads int `yaml:"threads" env:"BASHNI_AI_THREADS"`
		// MaxNodes caps every AI search (0: each level's own limits). For
		// small machines, and to keep tests fast.
		MaxNodes int `yaml:"max_nodes" env:"BASHNI_AI_MAX_NODES"`
		// Queue is where AI moves are computed: "local" (this process's
		// engine pool) or "redis" (a queue in Redis served by `bashni
		// worker` processes; needs Redis).
		Queue string `yaml:"queue" env:"BASHNI_AI_QUEUE"`
	} `yaml:"ai"`
	Ops struct {
		Listen string `yaml:"listen" env:"BASHNI_OPS_LISTEN"`
	} `yaml:"ops"`
	MiniApp MiniAppConfig `yaml:"miniapp"`
	Log     struct {
		Level  string `yaml:"level" env:"BASHNI_LOG_LEVEL"`
		Format string `yaml:"format" env:"BASHNI_LOG_FORMAT"`
	} `yaml:"log"`
}

// Secret is a string that never appears in logs or errors.
type Secret string

// LogValue implements slog.LogValuer.
func (Secret) LogValue() slog.Value { return slog.StringValue("[redacted]") }

// String hides the secret in fmt output too.
func (s Secret) String() string {
	if s == "" {
		return ""
	}
	return "[redacted]"
}

// defaults returns the configuration used where nothing is set.
func defaults() Config {
	var c Config
	c.Telegram.Mode = "polling"
	c.Telegram.PollTimeout = 30 * time.Second
	c.Telegram.Workers = 8
	c.Telegram.RatePerChat = 1
	c.Telegram.RatePerGroup = 20
	c.Telegram.RateGlobal = 30
	c.Telegram.Webhook.Listen = ":8443"
	c.Storage.BoltPath = "bashni.db"
	c.Storage.KeepFinished = 90 * 24 * time.Hour
	c.Game.ChallengeTTL = 24 * time.Hour
	c.Game.RemindAfter = 12 * time.Hour
	c.Game.RemindEvery = 12 * time.Hour
	c.Game.TimeoutAfter = 72 * time.Hour
	c.Game.ClockInterval = 15 * time.Second
	c.Game.NoticeDelay = 45 * time.Second
	c.AI.Workers = 1
	c.AI.HashMB = 32
	c.AI.Threads = 1
	c.AI.Queue = "local"
	c.MiniApp.Listen = ":8080"
	c.Log.Level = "info"
	c.Log.Format = "json"
	return c
}

// loadConfig reads the file at path (if not empty), then the environment.
func loadConfig(path string, getenv func(string) string) (Config, error) {
	c := defaults()
	if path != "" {
		data, err := os.ReadFile(path)
		if err != nil {
			return c, usageError("config: %v", err)
		}
		dec := yaml.NewDecoder(strings.NewReader(string(data)))
		dec.KnownFields(true) // a misspelt setting is an error, not a silent default
		if err := dec.Decode(&c); err != nil {
			return c, usageError("config %s: %v", path, err)
		}
	}
	if err := applyEnv(&c, getenv); err != nil {
		return c, usageError("config: %v", err)
	}
	return c, c.validate()
}

func (c *Config) validate() error {
	switch c.Telegram.Mode {
	case "polling", "webhook":
	default:
		return usageError("config: telegram.mode %q: want polling or webhook", c.Telegram.Mode)
	}
	if c.Telegram.Mode == "webhook" && (c.Telegram.Webhook.PublicURL == "" || c.Telegram.Webhook.Secret == "") {
		return usageError("config: webhook mode needs telegram.webhook.public_url and telegram.webhook.secret")
	}
	if c.Telegram.APIEndpoint != "" && strings.Count(c.Telegram.APIEndpoint, "%s") != 2 {
		return usageError(`config: telegram.api_endpoint must contain two %%s (token, method), e.g. "http://localhost:8081/bot%%s/%%s"`)
	}
	switch c.AI.Queue {
	case "local":
	case "redis":
		if c.Redis.URL == "" && len(c.Redis.Addrs) == 0 {
			return usageError("config: ai.queue redis needs redis.url (or REDIS_URL)")
		}
	default:
		return usageError("config: ai.queue %q: want local or redis", c.AI.Queue)
	}
	if c.AI.Workers < 1 || c.Telegram.Workers < 1 {
		return usageError("config: ai.workers and telegram.workers must be at least 1")
	}
	if c.AI.Threads < 1 || c.AI.Threads > ai.MaxThreads {
		return usageError("config: ai.threads %d: want 1 to %d", c.AI.Threads, ai.MaxThreads)
	}
	for _, d := range []time.Duration{c.Game.ChallengeTTL, c.Game.ClockInterval, c.Telegram.PollTimeout} {
		if d <= 0 {
			return usageError("config: durations must be positive")
		}
	}
	if c.Game.NoticeDelay < 0 {
		return usageError("config: game.notice_delay must not be negative")
	}
	if c.Storage.KeepFinished < 0 {
		return usageError("config: storage.keep_finished must not be negative")
	}
	if c.Telegram.RatePerChat <= 0 || c.Telegram.RatePerGroup <= 0 || c.Telegram.RateGlobal <= 0 {
		return usageError("config: sending rates must be positive")
	}
	if err := c.MiniApp.validate(); err != nil {
		return err
	}
	if _, err := logLevel(c.Log.Level); err != nil {
		return usageError("config: %v", err)
	}
	return nil
}

func logLevel(s string) (slog.Level, error) {
	var l slog.Level
	if err := l.UnmarshalText([]byte(s)); err != nil {
		return l, fmt.Errorf("log.level %q: want debug, info, warn or error", s)
	}
	return l, nil
}

// applyEnv overrides settings from the environment variables named in the
// struct tags.
func applyEnv(c *Config, getenv func(string) string) error {
	set := func(name string, apply func(v string) error) error {
		v := getenv(name)
		if v == "" {
			return nil
		}
		if err := apply(v); err != nil {
			return fmt.Errorf("%s: %v", name, err)
		}
		return nil
	}
	str := func(p *string) func(string) error { return func(v string) error { *p = v; return nil } }
	sec := func(p *Secret) func(string) error { return func(v string) error { *p = Secret(v); return nil } }
	float := func(p *float64) func(string) error {
		return func(v string) error { f, err := strconv.ParseFloat(v, 64); *p = f; return err }
	}
	num64 := func(p *int64) func(string) error {
		return func(v string) error { n, err := strconv.ParseInt(v, 10, 64); *p = n; return err }
	}
	num := func(p *int) func(string) error {
		return func(v string) error { n, err := strconv.Atoi(v); *p = n; return err }
	}
	dur := func(p *time.Duration) func(string) error {
		return func(v string) error { d, err := time.ParseDuration(v); *p = d; return err }
	}
	list := func(p *[]string) func(string) error {
		return func(v string) error { *p = strings.Split(v, ","); return nil }
	}
	for _, e := range []struct {
		name  string
		apply func(string) error
	}{
		{"TELEGRAM_BOT_TOKEN", sec(&c.Telegram.Token)},
		{"TELEGRAM_API_ENDPOINT", str(&c.Telegram.APIEndpoint)},
		{"BASHNI_MODE", str(&c.Telegram.Mode)},
		{"BASHNI_POLL_TIMEOUT", dur(&c.Telegram.PollTimeout)},
		{"BASHNI_WORKERS", num(&c.Telegram.Workers)},
		{"BASHNI_RATE_PER_CHAT", float(&c.Telegram.RatePerChat)},
		{"BASHNI_RATE_PER_GROUP", float(&c.Telegram.RatePerGroup)},
		{"BASHNI_RATE_GLOBAL", float(&c.Telegram.RateGlobal)},
		{"BASHNI_MEDIA_CHAT_ID", num64(&c.Telegram.MediaChatID)},
		{"BASHNI_WEBHOOK_LISTEN", str(&c.Telegram.Webhook.Listen)},
		{"BASHNI_WEBHOOK_URL", str(&c.Telegram.Webhook.PublicURL)},
		{"BASHNI_WEBHOOK_SECRET", sec(&c.Telegram.Webhook.Secret)},
		{"BASHNI_BOLT_PATH", str(&c.Storage.BoltPath)},
		{"BASHNI_KEEP_FINISHED", dur(&c.Storage.KeepFinished)},
		{"REDIS_URL", str(&c.Redis.URL)},
		{"REDIS_ADDRS", list(&c.Redis.Addrs)},
		{"REDIS_MASTER_NAME", str(&c.Redis.MasterName)},
		{"REDIS_PASSWORD", sec(&c.Redis.Password)},
		{"REDIS_DB", num(&c.Redis.DB)},
		{"BASHNI_CHALLENGE_TTL", dur(&c.Game.ChallengeTTL)},
		{"BASHNI_REMIND_AFTER", dur(&c.Game.RemindAfter)},
		{"BASHNI_REMIND_EVERY", dur(&c.Game.RemindEvery)},
		{"BASHNI_TIMEOUT_AFTER", dur(&c.Game.TimeoutAfter)},
		{"BASHNI_CLOCK_INTERVAL", dur(&c.Game.ClockInterval)},
		{"BASHNI_NOTICE_DELAY", dur(&c.Game.NoticeDelay)},
		{"BASHNI_AI_WORKERS", num(&c.AI.Workers)},
		{"BASHNI_AI_HASH_MB", num(&c.AI.HashMB)},
		{"BASHNI_AI_THREADS", num(&c.AI.Threads)},
		{"BASHNI_AI_MAX_NODES", num(&c.AI.MaxNodes)},
		{"BASHNI_AI_QUEUE", str(&c.AI.Queue)},
		{"BASHNI_OPS_LISTEN", str(&c.Ops.Listen)},
		{"BASHNI_MINIAPP_URL", str(&c.MiniApp.URL)},
		{"BASHNI_MINIAPP_NAME", str(&c.MiniApp.ShortName)},
		{"BASHNI_MINIAPP_LISTEN", str(&c.MiniApp.Listen)},
		{"BASHNI_LOG_LEVEL", str(&c.Log.Level)},
		{"BASHNI_LOG_FORMAT", str(&c.Log.Format)},
	} {
		if err := set(e.name, e.apply); err != nil {
			return err
		}
	}
	return nil
}
