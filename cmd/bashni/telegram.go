package main

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/bashni/bashni/bot"
	"github.com/bashni/bashni/bot/telegram"
	"github.com/bashni/bashni/bot/telegram/updates"
	"github.com/bashni/bashni/texts"
)

// The bot's side of the Bot API: connecting, the command menu, the webhook,
// and the questions the bot asks Telegram.

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

// setCommands registers the command menu in each language the bot speaks.
func setCommands(api *tgbotapi.BotAPI, b *bot.Bot, logger *slog.Logger) {
	for _, lang := range texts.Languages {
		cmds := b.Commands(lang)
		req := tgbotapi.NewSetMyCommandsWithScopeAndLanguage(tgbotapi.NewBotCommandScopeDefault(), lang, cmds...)
		if lang == "en" {
			req = tgbotapi.NewSetMyCommands(cmds...) // also the default for every other language
		}
		if _, err := api.Request(req); err != nil {
			logger.Warn("setMyCommands failed", "lang", lang, "err", telegram.RedactString(err.Error(), api.Token))
		}
	}
}

// chatAdmin asks Telegram whether a user is a group's creator or one of
// its administrators (getChatMember). tgbotapi has no context: the
// client's timeout bounds the call.
func chatAdmin(api *tgbotapi.BotAPI) func(ctx context.Context, chatID, userID int64) (bool, error) {
	return func(ctx context.Context, chatID, userID int64) (bool, error) {
		if err := ctx.Err(); err != nil {
			return false, err
		}
		m, err := api.GetChatMember(tgbotapi.GetChatMemberConfig{ChatConfigWithUser: tgbotapi.ChatConfigWithUser{ChatID: chatID, UserID: userID}})
		if err != nil {
			return false, telegram.Redact(err, "")
		}
		return m.IsCreator() || m.IsAdministrator(), nil
	}
}
