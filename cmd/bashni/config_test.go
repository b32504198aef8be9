package main

import (
	"bytes"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/bashni/bashni/bot/telegram"
	"github.com/bashni/bashni/internal/telegramtest"
)

// envTags lists every env tag of the Config struct.
func envTags(t reflect.Type) []string {
	var out []string
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if tag := f.Tag.Get("env"); tag != "" {
			out = append(out, tag)
		}
		if f.Type.Kind() == reflect.Struct {
			out = append(out, envTags(f.Type)...)
		}
	}
	return out
}

// The example file documents every setting with its variable, and it loads
// to exactly the defaults.
func TestConfigExampleIsCompleteAndDefault(t *testing.T) {
	example, err := os.ReadFile("../../config.example.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range envTags(reflect.TypeOf(Config{})) {
		if !strings.Contains(string(example), name) {
			t.Errorf("config.example.yaml does not mention %s", name)
		}
		// Each variable must actually be read: some value of the right
		// kind changes the configuration.
		changed := false
		for _, v := range []string{"7", "7s", "x,y"} {
			c := defaults()
			err := applyEnv(&c, func(k string) string {
				if k == name {
					return v
				}
				return ""
			})
			if err == nil && !reflect.DeepEqual(c, defaults()) {
				changed = true
				break
			}
		}
		if !changed {
			t.Errorf("setting %s changes nothing", name)
		}
	}
	got, err := loadConfig("../../config.example.yaml", func(string) string { return "" })
	if err != nil {
		t.Fatalf("loading the example: %v", err)
	}
	want := defaults()
	want.Redis.Addrs = []string{}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("the example differs from the defaults:\n got  %+v\n want %+v", got, want)
	}
}

func TestConfigEnvironmentWins(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c.yaml")
	os.WriteFile(path, []byte("telegram:\n  token: from-file\ngame:\n  remind_after: 1h\n"), 0o600)
	env := map[string]string{"TELEGRAM_BOT_TOKEN": "from-env", "BASHNI_TIMEOUT_AFTER": "5h", "REDIS_ADDRS": "a:1,b:2"}
	c, err := loadConfig(path, func(k string) string { return env[k] })
	if err != nil {
		t.Fatal(err)
	}
	if c.Telegram.Token != "from-env" || c.Game.RemindAfter != time.Hour || c.Game.TimeoutAfter != 5*time.Hour || len(c.Redis.Addrs) != 2 {
		t.Errorf("got token %q remind %v timeout %v addrs %v", string(c.Telegram.Token), c.Game.RemindAfter, c.Game.TimeoutAfter, c.Redis.Addrs)
	}
}

func TestConfigErrors(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name, file string
		env        map[string]string
		says       string
	}{
		{"unknown key", "telegram:\n  tokn: x\n", nil, "field tokn not found"},
		{"bad yaml", "telegram: [\n", nil, "config"},
		{"bad duration", "", map[string]string{"BASHNI_REMIND_AFTER": "soon"}, "BASHNI_REMIND_AFTER"},
		{"bad mode", "", map[string]string{"BASHNI_MODE": "carrier-pigeon"}, "polling or webhook"},
		{"webhook without url", "", map[string]string{"BASHNI_MODE": "webhook"}, "public_url"},
		{"bad endpoint", "", map[string]string{"TELEGRAM_API_ENDPOINT": "http://x/"}, "two %s"},
		{"redis queue without redis", "", map[string]string{"BASHNI_AI_QUEUE": "redis"}, "needs redis.url"},
		{"bad level", "", map[string]string{"BASHNI_LOG_LEVEL": "loud"}, "log.level"},
		{"negative notice delay", "", map[string]string{"BASHNI_NOTICE_DELAY": "-1s"}, "notice_delay"},
		{"negative threads", "", map[string]string{"BASHNI_AI_THREADS": "-1"}, "ai.threads"},
		{"missing file", "-", nil, "no such file"},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := ""
			switch tt.file {
			case "":
			case "-":
				path = filepath.Join(dir, "missing.yaml")
			default:
				path = filepath.Join(dir, fmt.Sprintf("c%d.yaml", i))
				os.WriteFile(path, []byte(tt.file), 0o600)
			}
			_, err := loadConfig(path, func(k string) string { return tt.env[k] })
			if err == nil || !errors.Is(err, errUsage) || !strings.Contains(err.Error(), tt.says) {
				t.Errorf("got %v; want a usage error saying %q", err, tt.says)
			}
		})
	}
}

// Secrets never reach the logs.
func TestSecretsRedactedInLogs(t *testing.T) {
	var buf bytes.Buffer
	c := defaults()
	c.Telegram.Token = "123456:SECRET"
	slog.New(slog.NewJSONHandler(&buf, nil)).Info("config", "token", c.Telegram.Token, "cfg", fmt.Sprint(c.Telegram.Token))
	if strings.Contains(buf.String(), "SECRET") {
		t.Errorf("log line shows the token: %s", buf.String())
	}
	if got := telegram.RedactString("Post https://api.telegram.org/bot123456:SECRET/getMe: timeout", "123456:SECRET"); strings.Contains(got, "SECRET") {
		t.Errorf("redact left the token: %s", got)
	}
}

// `bashni bot` without a token says how to get one and exits 2.
func TestBotNeedsToken(t *testing.T) {
	_, errOut, code := runCmd(t, "bot")
	if code != 2 || !strings.Contains(errOut, "TELEGRAM_BOT_TOKEN") {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
}

// Every bad setting ends `bashni bot` with status 2 and an error naming it,
// before the Bot API is called; secrets are never echoed.
func TestBadConfigExitsNamingTheSettingBeforeTelegram(t *testing.T) {
	const password = "hunter2-secret"
	tests := []struct {
		name string
		file string
		env  map[string]string
		says []string
	}{
		{"negative reminder interval", "", map[string]string{"BASHNI_REMIND_EVERY": "-1s"}, []string{"game.remind_every (BASHNI_REMIND_EVERY)"}},
		{"no reminder interval with reminders", "", map[string]string{"BASHNI_REMIND_EVERY": "0s"}, []string{"game.remind_every (BASHNI_REMIND_EVERY)"}},
		{"huge AI hash", "", map[string]string{"BASHNI_AI_HASH_MB": "100000"}, []string{"ai.hash_mb (BASHNI_AI_HASH_MB)"}},
		{"AI hash times workers", "", map[string]string{"BASHNI_AI_HASH_MB": "2048", "BASHNI_AI_WORKERS": "4"}, []string{"ai.hash_mb (BASHNI_AI_HASH_MB)", "in all"}},
		{"NaN rate", "", map[string]string{"BASHNI_RATE_GLOBAL": "NaN"}, []string{"telegram.rate_global (BASHNI_RATE_GLOBAL)"}},
		{"infinite rate", "", map[string]string{"BASHNI_RATE_PER_CHAT": "+Inf"}, []string{"telegram.rate_per_chat (BASHNI_RATE_PER_CHAT)"}},
		{"log format", "", map[string]string{"BASHNI_LOG_FORMAT": "xml"}, []string{"log.format (BASHNI_LOG_FORMAT)"}},
		{"log level beyond error", "", map[string]string{"BASHNI_LOG_LEVEL": "INFO+99"}, []string{"log.level (BASHNI_LOG_LEVEL)"}},
		{"no workers", "", map[string]string{"BASHNI_WORKERS": "0"}, []string{"telegram.workers (BASHNI_WORKERS)"}},
		{"clock interval", "", map[string]string{"BASHNI_CLOCK_INTERVAL": "1ms"}, []string{"game.clock_interval (BASHNI_CLOCK_INTERVAL)"}},
		{"ops address", "", map[string]string{"BASHNI_OPS_LISTEN": "9090"}, []string{"ops.listen (BASHNI_OPS_LISTEN)"}},
		{"webhook secret Telegram refuses", "", map[string]string{
			"BASHNI_MODE": "webhook", "BASHNI_WEBHOOK_URL": "https://bot.example.org/hook", "BASHNI_WEBHOOK_SECRET": "has spaces " + password,
		}, []string{"telegram.webhook.secret (BASHNI_WEBHOOK_SECRET)"}},
		{"webhook over http", "", map[string]string{
			"BASHNI_MODE": "webhook", "BASHNI_WEBHOOK_URL": "http://bot.example.org/hook", "BASHNI_WEBHOOK_SECRET": "s3cret",
		}, []string{"telegram.webhook.public_url (BASHNI_WEBHOOK_URL)"}},
		{"unknown variable", "", map[string]string{"BASHNI_WORKER": "4"}, []string{"BASHNI_WORKER: no such setting"}},
		{"unknown key in the file", "game:\n  remind_evry: 1h\n", nil, []string{"remind_evry"}},
		{"Redis URL that does not parse", "", map[string]string{"REDIS_URL": "redis://bashni:" + password + "@[::1:6379/0"}, []string{"redis.url (REDIS_URL)"}},
		{"Redis URL of another scheme", "", map[string]string{"REDIS_URL": "http://bashni:" + password + "@localhost:6379/0"}, []string{"redis.url (REDIS_URL)"}},
		{"every error at once", "", map[string]string{"BASHNI_LOG_FORMAT": "xml", "BASHNI_AI_WORKERS": "0"}, []string{"log.format", "ai.workers"}},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := telegramtest.New(t)
			env := withDefaults(t, srv, tt.env)
			args := []string{"bot"}
			if tt.file != "" {
				path := filepath.Join(t.TempDir(), fmt.Sprintf("c%d.yaml", i))
				if err := os.WriteFile(path, []byte(tt.file), 0o600); err != nil {
					t.Fatal(err)
				}
				args = append(args, "-config", path)
			}
			var stderr bytes.Buffer
			err := run(t.Context(), args, environ(env), strings.NewReader(""), &bytes.Buffer{}, &stderr)
			code := exitCode(err, &stderr)
			out := stderr.String()
			if code != 2 {
				t.Errorf("exit status %d, want 2; stderr:\n%s", code, out)
			}
			for _, want := range tt.says {
				if !strings.Contains(out, want) {
					t.Errorf("stderr does not name %q:\n%s", want, out)
				}
			}
			for _, secret := range []string{password, srv.Token()} {
				if strings.Contains(out, secret) {
					t.Errorf("stderr shows a secret:\n%s", out)
				}
			}
			if calls := srv.Calls(); len(calls) != 0 {
				t.Errorf("the Bot API was called (%s) before the config was refused", calls[0].Method)
			}
		})
	}
}
