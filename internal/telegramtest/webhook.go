package telegramtest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strconv"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"
)

// Webhook is the webhook the bot set with setWebhook.
type Webhook struct {
	URL            string // empty when no webhook is set
	SecretToken    string
	MaxConnections int
	AllowedUpdates []string
	IPAddress      string
	HasCertificate bool
}

// WebhookInfo returns the webhook as the bot last set it, secret included.
func (s *Server) WebhookInfo() Webhook {
	s.mu.Lock()
	defer s.mu.Unlock()
	w := s.webhook
	w.AllowedUpdates = slices.Clone(w.AllowedUpdates)
	return w
}

var secretTokenRE = regexp.MustCompile(`^[A-Za-z0-9_-]{1,256}$`)

func (s *Server) setWebhook(c *Call) (any, *Failure) {
	raw := c.Params["url"]
	if raw == "" {
		return s.deleteWebhook(c)
	}
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return nil, badRequest("bad webhook: invalid webhook URL specified")
	}
	// Telegram also limits the port to 443, 80, 88 or 8443; the fake cannot,
	// as httptest servers listen on random ports.
	if u.Scheme != "https" {
		return nil, badRequest("bad webhook: An HTTPS URL must be provided for webhook")
	}
	w := Webhook{URL: raw, SecretToken: c.Params["secret_token"], IPAddress: c.Params["ip_address"], MaxConnections: 40}
	if w.SecretToken != "" && !secretTokenRE.MatchString(w.SecretToken) {
		return nil, badRequest("secret token contains unallowed characters")
	}
	if mc := c.Params["max_connections"]; mc != "" {
		n, err := strconv.Atoi(mc)
		if err != nil || n < 1 || n > 100 {
			return nil, badRequest("bad webhook: max_connections must be between 1 and 100")
		}
		w.MaxConnections = n
	}
	if ua := c.Params["allowed_updates"]; ua != "" {
		if err := json.Unmarshal([]byte(ua), &w.AllowedUpdates); err != nil {
			return nil, badRequest("can't parse allowed_updates JSON array")
		}
		s.allowed = w.AllowedUpdates
	}
	_, w.HasCertificate = c.Files["certificate"]
	if c.Params["drop_pending_updates"] == "true" {
		s.updates = nil
	}
	desc := "Webhook was set"
	if s.webhook.URL == w.URL {
		desc = "Webhook is already set"
	}
	s.webhook = w
	return described{true, desc}, nil
}

func (s *Server) deleteWebhook(c *Call) (any, *Failure) {
	if c.Params["drop_pending_updates"] == "true" {
		s.updates = nil
	}
	desc := "Webhook was deleted"
	if s.webhook.URL == "" {
		desc = "Webhook is already deleted"
	}
	s.webhook = Webhook{}
	return described{true, desc}, nil
}

func (s *Server) getWebhookInfo(*Call) (any, *Failure) {
	w := s.webhook
	info := tgbotapi.WebhookInfo{URL: w.URL, HasCustomCertificate: w.HasCertificate, PendingUpdateCount: len(s.updates)}
	if w.URL != "" {
		info.MaxConnections, info.AllowedUpdates, info.IPAddress = w.MaxConnections, w.AllowedUpdates, w.IPAddress
	}
	return info, nil
}

// DeliverWebhook posts an update to a bot's webhook the way Telegram does:
// a JSON body, and the X-Telegram-Bot-Api-Secret-Token header when secret
// is not empty. Like PushUpdate it assigns update_id and learns from the
// update; an update privacy mode hides is not delivered. The client accepts
// any TLS certificate, so hookURL may be an httptest.NewTLSServer's.
func (s *Server) DeliverWebhook(ctx context.Context, hookURL, secret string, u tgbotapi.Update) (*http.Response, error) {
	// No copy of u is needed: it is sent encoded, and register copies what
	// it keeps (as with the chats the builders are given, only a Chat's
	// optional pointer fields are shared with the caller).
	s.mu.Lock()
	if why := s.hidden(u); why != "" {
		s.mu.Unlock()
		return nil, errors.New("telegramtest: update not delivered: " + why)
	}
	s.stamp(&u)
	s.register(u)
	s.notify()
	s.mu.Unlock()

	req, err := http.NewRequestWithContext(ctx, http.MethodPost, hookURL, bytes.NewReader(encodeJSON(u)))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	if secret != "" {
		req.Header.Set("X-Telegram-Bot-Api-Secret-Token", secret)
	}
	return s.client.Do(req)
}
