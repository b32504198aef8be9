package main

import (
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/url"
	"os"
	"reflect"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	goredis "github.com/redis/go-redis/v9"
	"gopkg.in/yaml.v3"

	"github.com/bashni/bashni/ai"
	"github.com/bashni/bashni/bot/telegram/updates"
)

// Config is every setting of `bashni bot` and `bashni worker`. Each one can
// come from the YAML file (config.example.yaml documents them all) and from
// an environment variable, which wins.
type Config struct {
	Telegram TelegramConfig `yaml:"telegram"`
	Storage  struct {
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
	Game GameConfig `yaml:"game"`
	AI   struct {
		Workers int `yaml:"workers" env:"BASHNI_AI_WORKERS"`
		HashMB  int `yaml:"hash_mb" env:"BASHNI_AI_HASH_MB"`
		// Threads is how many cores one time-limited AI search uses
		// (ai.Options.Threads): the analysis's and the top level's, which
		// has no node budget; 0 (the default) means the machine's cores
		// (aiThreads). The levels below are node budgets searched on one
		// core, so they play as their ladder was measured.
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
	Log     LogConfig     `yaml:"log"`
}

// TelegramConfig is the telegram section: the Bot API, updates and pace.
type TelegramConfig struct {
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
}

// GameConfig is the game section: challenges, reminders and the clock.
type GameConfig struct {
	ChallengeTTL  time.Duration `yaml:"challenge_ttl" env:"BASHNI_CHALLENGE_TTL"`
	RemindAfter   time.Duration `yaml:"remind_after" env:"BASHNI_REMIND_AFTER"`
	RemindEvery   time.Duration `yaml:"remind_every" env:"BASHNI_REMIND_EVERY"`
	TimeoutAfter  time.Duration `yaml:"timeout_after" env:"BASHNI_TIMEOUT_AFTER"`
	ClockInterval time.Duration `yaml:"clock_interval" env:"BASHNI_CLOCK_INTERVAL"`
	// NoticeDelay: the player to move is told it is their move only
	// if they have not moved within it (0: at once, after every move).
	NoticeDelay time.Duration `yaml:"notice_delay" env:"BASHNI_NOTICE_DELAY"`
}

// LogConfig is the log section.
type LogConfig struct {
	Level  string `yaml:"level" env:"BASHNI_LOG_LEVEL"`
	Format string `yaml:"format" env:"BASHNI_LOG_FORMAT"`
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
	c.AI.Threads = 0
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

// validate checks the whole configuration before anything is contacted,
// and reports every bad setting at once, each by its name in the file and
// in the environment. Values are never echoed for secrets. Each section
// checks itself; the checker collects what they find.
func (c *Config) validate() error {
	var v checker
	c.Telegram.check(&v)
	c.checkStorage(&v)
	c.Game.check(&v)
	c.checkAI(&v)
	if c.Ops.Listen != "" {
		v.address("ops.listen", "BASHNI_OPS_LISTEN", c.Ops.Listen)
	}
	if err := c.MiniApp.validate(); err != nil {
		v.errs = append(v.errs, errors.New(strings.TrimPrefix(unwrapUsage(err), "config: ")))
	}
	if c.MiniApp.enabled() && c.MiniApp.Listen != "" {
		v.address("miniapp.listen", "BASHNI_MINIAPP_LISTEN", c.MiniApp.Listen)
	}
	c.Log.check(&v)
	if len(v.errs) > 0 {
		return usageError("config: %v", errors.Join(v.errs...))
	}
	return nil
}

// checker collects every bad setting, each named by its key in the file
// and its environment variable.
type checker struct{ errs []error }

func (v *checker) bad(key, envName, format string, args ...any) {
	v.errs = append(v.errs, fmt.Errorf("%s (%s): %s", key, envName, fmt.Sprintf(format, args...)))
}

func (v *checker) between(key, envName string, n, lo, hi int) {
	if n < lo || n > hi {
		v.bad(key, envName, "%d is out of range %d to %d", n, lo, hi)
	}
}

// rate checks 0 < r <= hi; written as !(…) it also refuses NaN.
func (v *checker) rate(key, envName string, r, hi float64) {
	if !(r > 0 && r <= hi) {
		v.bad(key, envName, "%v is out of range: more than 0, at most %v", r, hi)
	}
}

func (v *checker) duration(key, envName string, d, lo, hi time.Duration) {
	if d < lo || d > hi {
		v.bad(key, envName, "%v is out of range %v to %v", d, lo, hi)
	}
}

func (v *checker) address(key, envName, addr string) {
	if _, _, err := net.SplitHostPort(addr); err != nil {
		v.bad(key, envName, "%q is not host:port (e.g. :8443)", addr)
	}
}

func (v *checker) oneOf(key, envName, val string, allowed ...string) {
	if !slices.Contains(allowed, val) {
		v.bad(key, envName, "%q: want %s", val, strings.Join(allowed, " or "))
	}
}

const year = 365 * 24 * time.Hour

func (t *TelegramConfig) check(v *checker) {
	v.oneOf("telegram.mode", "BASHNI_MODE", t.Mode, "polling", "webhook")
	if t.APIEndpoint != "" && strings.Count(t.APIEndpoint, "%s") != 2 {
		v.bad("telegram.api_endpoint", "TELEGRAM_API_ENDPOINT", `must contain two %%s (token, method), e.g. "http://localhost:8081/bot%%s/%%s"`)
	}
	v.duration("telegram.poll_timeout", "BASHNI_POLL_TIMEOUT", t.PollTimeout, time.Second, 5*time.Minute)
	v.between("telegram.workers", "BASHNI_WORKERS", t.Workers, 1, 1024)
	v.rate("telegram.rate_per_chat", "BASHNI_RATE_PER_CHAT", t.RatePerChat, 1e6)
	v.rate("telegram.rate_per_group", "BASHNI_RATE_PER_GROUP", t.RatePerGroup, 1e8)
	v.rate("telegram.rate_global", "BASHNI_RATE_GLOBAL", t.RateGlobal, 1e6)
	if t.Mode != "webhook" {
		return
	}
	if u, err := url.Parse(t.Webhook.PublicURL); t.Webhook.PublicURL == "" || err != nil || u.Scheme != "https" || u.Host == "" {
		v.bad("telegram.webhook.public_url", "BASHNI_WEBHOOK_URL", "webhook mode needs the https:// URL Telegram posts to")
	}
	if !updates.ValidSecret(string(t.Webhook.Secret)) {
		v.bad("telegram.webhook.secret", "BASHNI_WEBHOOK_SECRET", "webhook mode needs a secret of 1 to 256 characters A-Z, a-z, 0-9, _ and -")
	}
	v.address("telegram.webhook.listen", "BASHNI_WEBHOOK_LISTEN", t.Webhook.Listen)
}

// checkStorage checks storage and redis together: bbolt is needed only
// when no Redis is configured.
func (c *Config) checkStorage(v *checker) {
	if c.Storage.BoltPath == "" && !c.hasRedis() {
		v.bad("storage.bolt_path", "BASHNI_BOLT_PATH", "empty, and no Redis configured")
	}
	v.duration("storage.keep_finished", "BASHNI_KEEP_FINISHED", c.Storage.KeepFinished, 0, 100*year)
	if c.Redis.URL != "" {
		if _, err := goredis.ParseURL(c.Redis.URL); err != nil {
			v.bad("redis.url", "REDIS_URL", "not a redis:// or rediss:// URL: %s", redactURL(err.Error(), c.Redis.URL))
		}
	}
	v.between("redis.db", "REDIS_DB", c.Redis.DB, 0, 1<<16)
}

func (c *Config) hasRedis() bool { return c.Redis.URL != "" || len(c.Redis.Addrs) > 0 }

func (g *GameConfig) check(v *checker) {
	v.duration("game.challenge_ttl", "BASHNI_CHALLENGE_TTL", g.ChallengeTTL, time.Minute, year)
	v.duration("game.remind_after", "BASHNI_REMIND_AFTER", g.RemindAfter, 0, year)
	minEvery := time.Duration(0)
	if g.RemindAfter > 0 {
		minEvery = time.Minute
	}
	v.duration("game.remind_every", "BASHNI_REMIND_EVERY", g.RemindEvery, minEvery, year)
	v.duration("game.timeout_after", "BASHNI_TIMEOUT_AFTER", g.TimeoutAfter, 0, year)
	v.duration("game.clock_interval", "BASHNI_CLOCK_INTERVAL", g.ClockInterval, 10*time.Millisecond, time.Hour)
	v.duration("game.notice_delay", "BASHNI_NOTICE_DELAY", g.NoticeDelay, 0, 24*time.Hour)
}

// checkAI checks the engines; the Redis queue needs Redis.
func (c *Config) checkAI(v *checker) {
	a := &c.AI
	v.between("ai.workers", "BASHNI_AI_WORKERS", a.Workers, 1, 256)
	v.between("ai.hash_mb", "BASHNI_AI_HASH_MB", a.HashMB, 1, maxHashMB)
	if a.Workers > 0 && a.HashMB > 0 && a.Workers*a.HashMB > maxHashMB {
		v.bad("ai.hash_mb", "BASHNI_AI_HASH_MB", "%d MB per worker times %d workers is more than %d MB in all", a.HashMB, a.Workers, maxHashMB)
	}
	v.between("ai.max_nodes", "BASHNI_AI_MAX_NODES", a.MaxNodes, 0, 1<<40)
	v.oneOf("ai.queue", "BASHNI_AI_QUEUE", a.Queue, "local", "redis")
	if a.Queue == "redis" && !c.hasRedis() {
		v.bad("ai.queue", "BASHNI_AI_QUEUE", "redis needs redis.url (or REDIS_URL)")
	}
	v.between("ai.threads", "BASHNI_AI_THREADS", a.Threads, 0, ai.MaxThreads)
}

// aiThreads is the search threads of a time-limited search: ai.threads,
// or when 0 the machine's cores, so the top level plays at the strength
// the machine has without a setting.
func (c Config) aiThreads() int {
	if c.AI.Threads > 0 {
		return c.AI.Threads
	}
	return min(runtime.NumCPU(), ai.MaxThreads)
}

func (l *LogConfig) check(v *checker) {
	if _, err := logLevel(l.Level); err != nil {
		v.bad("log.level", "BASHNI_LOG_LEVEL", "%q: want debug, info, warn or error", l.Level)
	}
	v.oneOf("log.format", "BASHNI_LOG_FORMAT", l.Format, "json", "text")
}

// maxHashMB bounds the AI's transposition tables in all: more would end in
// an out-of-memory kill long after start.
const maxHashMB = 4096

// redactURL removes a URL, and the password in it, from text: parse
// errors quote what they could not parse.
func redactURL(text, raw string) string {
	if raw == "" {
		return text
	}
	if u, err := url.Parse(raw); err == nil && u.User != nil {
		if pw, ok := u.User.Password(); ok && pw != "" {
			text = strings.ReplaceAll(text, pw, "[redacted]")
		}
	}
	text = strings.ReplaceAll(text, raw, "[redis url]")
	// A URL too broken to parse: hide whatever sits between "//" and "@".
	if i := strings.Index(raw, "//"); i >= 0 {
		if j := strings.LastIndex(raw, "@"); j > i+2 {
			text = strings.ReplaceAll(text, raw[i+2:j], "[redacted]")
		}
	}
	return text
}

// checkEnvNames refuses BASHNI_* variables that name no setting: a
// misspelt one would otherwise be ignored without a word. BASHNI_TEST_*
// belong to the test harness.
func checkEnvNames(environ []string) error {
	known := map[string]bool{"BASHNI_CONFIG": true}
	for _, name := range envNames(reflect.TypeOf(Config{})) {
		known[name] = true
	}
	var errs []error
	for _, kv := range environ {
		name, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(name, "BASHNI_") && !strings.HasPrefix(name, "BASHNI_TEST_") && !known[name] {
			errs = append(errs, fmt.Errorf("%s: no such setting (config.example.yaml lists them all)", name))
		}
	}
	return errors.Join(errs...)
}

// loadConfigEnv is loadConfig for a command's environment, which also
// refuses unknown BASHNI_* variables; every problem is reported at once.
func loadConfigEnv(path string, e env) (Config, error) {
	cfg, err := loadConfig(path, e.getenv)
	nerr := checkEnvNames(e.environ)
	switch {
	case nerr == nil:
		return cfg, err
	case err == nil:
		return cfg, usageError("config: %v", nerr)
	default:
		return cfg, usageError("%s\n%v", unwrapUsage(err), nerr)
	}
}

// envNames lists the env tags of a config struct type.
func envNames(t reflect.Type) []string {
	var out []string
	for i := range t.NumField() {
		f := t.Field(i)
		if f.Type.Kind() == reflect.Struct && f.Type != reflect.TypeOf(time.Time{}) {
			out = append(out, envNames(f.Type)...)
		}
		if name := f.Tag.Get("env"); name != "" {
			out = append(out, name)
		}
	}
	return out
}

// logLevel reads one of the four level names (any case); slog's own
// syntax ("INFO+99") would allow levels that silence every line.
func logLevel(s string) (slog.Level, error) {
	switch strings.ToLower(s) {
	case "debug":
		return slog.LevelDebug, nil
	case "info":
		return slog.LevelInfo, nil
	case "warn", "warning":
		return slog.LevelWarn, nil
	case "error":
		return slog.LevelError, nil
	}
	return slog.LevelInfo, fmt.Errorf("log.level %q: want debug, info, warn or error", s)
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
		{"BASHNI_MINIAPP_CLIENT_IP_HEADER", str(&c.MiniApp.ClientIPHeader)},
		{"BASHNI_LOG_LEVEL", str(&c.Log.Level)},
		{"BASHNI_LOG_FORMAT", str(&c.Log.Format)},
	} {
		if err := set(e.name, e.apply); err != nil {
			return err
		}
	}
	return nil
}
