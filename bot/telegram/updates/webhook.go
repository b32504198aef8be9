package updates

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"regexp"
	"sync"
	"time"

	"github.com/bashni/bashni/bot/telegram"
	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"
	"golang.org/x/time/rate"
)

// SecretHeader is the header Telegram sends the webhook's secret token in.
const SecretHeader = "X-Telegram-Bot-Api-Secret-Token"

// WebhookOptions configure a Webhook. Zero values take the defaults given.
type WebhookOptions struct {
	// Workers handle updates concurrently (default 8); MaxPending bounds
	// the updates accepted and not yet handled (default 256).
	Workers    int
	MaxPending int
	// AcceptTimeout is how long a request waits for room among the
	// pending updates before it is answered 503, which makes Telegram
	// deliver it again later (default 5 s).
	AcceptTimeout time.Duration
	// HandleTimeout is how long a request waits for its update to be
	// handled before it is answered 503 all the same (default 30 s): the
	// handler goes on, and the redelivery finds the update marked handled
	// if it finished by then.
	HandleTimeout time.Duration
	// MaxBodyBytes bounds a request body (default 1 MiB).
	MaxBodyBytes int64
	// Logger receives errors and warnings (default slog.Default()).
	// Refused requests are logged at most once per RefusedLogEvery
	// (default a minute), with how many there were: anyone who finds the
	// URL could otherwise flood the log.
	Logger          *slog.Logger
	RefusedLogEvery time.Duration
	// OnRefused, if set, hears each refused request with why: "method",
	// "secret" or "body" (for a metric).
	OnRefused func(reason string)
	// Now is the clock of the refusal log's pacing (default time.Now).
	Now func() time.Time
}

// Webhook is the http.Handler Telegram posts updates to. It answers 200
// only once the update is handled (its effects are in the store), so an
// update a crash cut short is delivered again, to this replica or another.
type Webhook struct {
	secret [sha256.Size]byte
	valid  bool // a usable secret was given
	d      *dispatcher
	opts   WebhookOptions
	log    *slog.Logger

	refusedMu    sync.Mutex
	refusedLog   *rate.Limiter
	refusedSince int // refused and not yet logged
}

var _ http.Handler = (*Webhook)(nil)

// WebhookHandler returns a webhook that refuses with 401 every request
// whose X-Telegram-Bot-Api-Secret-Token is not secret, and hands the
// updates of the others to handle. An empty secret refuses everything:
// a webhook without one would take updates from anyone who finds its URL.
// Call Drain on shutdown.
func WebhookHandler(secret string, handle HandleFunc, opts WebhookOptions) *Webhook {
	if opts.Workers <= 0 {
		opts.Workers = 8
	}
	if opts.MaxPending <= 0 {
		opts.MaxPending = 256
	}
	if opts.AcceptTimeout <= 0 {
		opts.AcceptTimeout = 5 * time.Second
	}
	if opts.HandleTimeout <= 0 {
		opts.HandleTimeout = 30 * time.Second
	}
	if opts.MaxBodyBytes <= 0 {
		opts.MaxBodyBytes = 1 << 20
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	if opts.RefusedLogEvery <= 0 {
		opts.RefusedLogEvery = time.Minute
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	w := &Webhook{opts: opts, log: opts.Logger, valid: secret != "", refusedLog: rate.NewLimiter(rate.Every(opts.RefusedLogEvery), 1)}
	if !w.valid {
		w.log.Error("updates: webhook without a secret token refuses every update")
	}
	// Comparing digests takes the same time whatever the lengths.
	w.secret = sha256.Sum256([]byte(secret))
	w.d = newDispatcher(context.Background(), opts.Workers, opts.MaxPending, handle, opts.Logger)
	return w
}

func (w *Webhook) ServeHTTP(rw http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		rw.Header().Set("Allow", http.MethodPost)
		w.refuse(rw, r, "method", http.StatusMethodNotAllowed, nil)
		return
	}
	// The secret is checked before a byte of the body is read.
	got := sha256.Sum256([]byte(r.Header.Get(SecretHeader)))
	if subtle.ConstantTimeCompare(got[:], w.secret[:]) != 1 || !w.valid {
		w.refuse(rw, r, "secret", http.StatusUnauthorized, nil)
		return
	}
	var u tgbotapi.Update
	if err := json.NewDecoder(http.MaxBytesReader(rw, r.Body, w.opts.MaxBodyBytes)).Decode(&u); err != nil {
		w.refuse(rw, r, "body", http.StatusBadRequest, err)
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), w.opts.AcceptTimeout)
	defer cancel()
	handled := make(chan bool, 1)
	if err := w.d.dispatchThen(ctx, u, func(ok bool) { handled <- ok }); err != nil {
		w.log.Warn("updates: webhook update refused; Telegram will deliver it again", "update_id", u.UpdateID, "err", err)
		http.Error(rw, "busy", http.StatusServiceUnavailable)
		return
	}
	timer := time.NewTimer(w.opts.HandleTimeout)
	defer timer.Stop()
	select {
	case ok := <-handled:
		if ok {
			rw.WriteHeader(http.StatusOK)
			return
		}
		http.Error(rw, "shutting down", http.StatusServiceUnavailable)
	case <-timer.C:
		w.log.Warn("updates: webhook update still being handled; answered 503 so that Telegram delivers it again", "update_id", u.UpdateID)
		http.Error(rw, "still handling", http.StatusServiceUnavailable)
	case <-r.Context().Done():
		// Telegram hung up: it will deliver the update again.
	}
}

// refuse answers a request that is not Telegram's, closing the connection
// rather than reading the rest of its body, counts it, and logs refusals
// at most once per RefusedLogEvery.
func (w *Webhook) refuse(rw http.ResponseWriter, r *http.Request, reason string, status int, err error) {
	// After the handler, net/http reads what is left of the body to reuse
	// the connection: a deadline in the past makes that read fail at once,
	// and Connection: close ends the connection instead.
	_ = http.NewResponseController(rw).SetReadDeadline(time.Unix(1, 0))
	rw.Header().Set("Connection", "close")
	http.Error(rw, http.StatusText(status), status)
	if w.opts.OnRefused != nil {
		w.opts.OnRefused(reason)
	}
	w.refusedMu.Lock()
	w.refusedSince++
	n := w.refusedSince
	log := w.refusedLog.AllowN(w.opts.Now(), 1)
	if log {
		w.refusedSince = 0
	}
	w.refusedMu.Unlock()
	if log {
		w.log.Warn("updates: webhook requests refused (logged at most once per interval)",
			"refused", n, "last_reason", reason, "last_remote", r.RemoteAddr, "last_err", err, "interval", w.opts.RefusedLogEvery)
	}
}

// Drain stops accepting updates (later requests get 503, so Telegram keeps
// them) and waits until the accepted ones are handled. When ctx ends first
// it cancels the handlers' context, drops the updates not yet started, waits
// for the running handlers and returns an error counting the dropped ones.
// Shut the HTTP server down first, so no request is cut off mid-way.
func (w *Webhook) Drain(ctx context.Context) error {
	if n := w.d.drain(ctx); n > 0 {
		return fmt.Errorf("updates: %d webhook updates dropped at shutdown: %w", n, ctx.Err())
	}
	return nil
}

// secretRE is what Telegram accepts as a secret token.
var secretRE = regexp.MustCompile(`^[A-Za-z0-9_-]{1,256}$`)

// ValidSecret reports whether Telegram accepts secret as a webhook's
// secret token, so a configuration can be checked before setWebhook.
func ValidSecret(secret string) bool { return secretRE.MatchString(secret) }

// SetWebhook points Telegram at url, with the secret token it is to send in
// every request's X-Telegram-Bot-Api-Secret-Token header, and the update
// types wanted (nil: Telegram's default). tgbotapi's WebhookConfig has no
// secret_token, hence the raw request.
func SetWebhook(api *tgbotapi.BotAPI, url, secret string, allowed []string) error {
	if !secretRE.MatchString(secret) {
		return errors.New("updates: setWebhook: the secret token must be 1 to 256 of A-Z, a-z, 0-9, _ and -")
	}
	params := tgbotapi.Params{"url": url, "secret_token": secret}
	if allowed != nil {
		if err := params.AddInterface("allowed_updates", allowed); err != nil {
			return fmt.Errorf("updates: setWebhook: %w", err)
		}
	}
	if _, err := api.MakeRequest("setWebhook", params); err != nil {
		return fmt.Errorf("updates: setWebhook: %w", telegram.Redact(err, api.Token))
	}
	return nil
}
