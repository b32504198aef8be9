package main

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/bashni/bashni/bot"
	"github.com/bashni/bashni/miniapp"
	"github.com/bashni/bashni/play"
	"github.com/bashni/bashni/play/manners"
	"github.com/bashni/bashni/play/review"
	"github.com/bashni/bashni/play/training"
	"github.com/bashni/bashni/storage"
	"github.com/bashni/bashni/texts"
)

// MiniAppConfig configures the live board (package miniapp). Without a URL
// and a short name the bot runs without it and its cards have no "Open
// board" button.
type MiniAppConfig struct {
	// URL is the page's public HTTPS address, as registered with
	// @BotFather (/newapp); a reverse proxy forwards it to Listen.
	URL string `yaml:"url" env:"BASHNI_MINIAPP_URL"`
	// ShortName is the app's short name from @BotFather: the direct link
	// is https://t.me/<bot>/<short name>?startapp=<game>.
	ShortName string `yaml:"short_name" env:"BASHNI_MINIAPP_NAME"`
	// Listen is where the page and its API are served.
	Listen string `yaml:"listen" env:"BASHNI_MINIAPP_LISTEN"`
	// ClientIPHeader names the header in which the reverse proxy in front
	// of Listen passes the client's address (X-Real-IP), so that the
	// limit on event streams per address counts clients, not the proxy.
	// Empty: the connection's own address.
	ClientIPHeader string `yaml:"client_ip_header" env:"BASHNI_MINIAPP_CLIENT_IP_HEADER"`
}

func (c MiniAppConfig) enabled() bool { return c.URL != "" && c.ShortName != "" }

func (c MiniAppConfig) validate() error {
	if (c.URL == "") != (c.ShortName == "") {
		return usageError("config: the Mini App needs both miniapp.url and miniapp.short_name (or neither)")
	}
	if c.URL == "" {
		return nil
	}
	u, err := url.Parse(c.URL)
	if err != nil || u.Scheme != "https" || u.Host == "" {
		return usageError("config: miniapp.url %q: Telegram opens only https:// pages", c.URL)
	}
	if c.ShortName != strings.Trim(c.ShortName, "/ ") || strings.ContainsAny(c.ShortName, "/?# ") {
		return usageError("config: miniapp.short_name %q: the bare short name from @BotFather", c.ShortName)
	}
	if c.Listen == "" {
		return usageError("config: miniapp.listen is empty")
	}
	return nil
}

// liveBoard is the Mini App's share of a bot process: a broker that hears
// every write of a game (through the store it wraps) and, once the bot
// exists, the server of the page. Its zero value is the bot without it.
type liveBoard struct {
	cfg    MiniAppConfig
	broker *miniapp.Broker
	// puzzles, if set, are served on the board too.
	puzzles *training.Puzzles
	streak  *training.Streak // Puzzle Streak on the board too
	// course, if set, has the lobby show each player's progress in it.
	course *training.Course
	// manners, if set, has the board leave conditional moves.
	manners *manners.Service
}

// newLiveBoard prepares the Mini App when it is configured. On Redis the
// store carries the news between replicas (pub/sub); on bbolt there is one
// process and the broker alone does.
func newLiveBoard(cfg Config, store Store, logger *slog.Logger) *liveBoard {
	if !cfg.MiniApp.enabled() {
		return &liveBoard{}
	}
	var bus miniapp.Bus
	if b, ok := store.(miniapp.Bus); ok {
		bus = b
	}
	return &liveBoard{cfg: cfg.MiniApp, broker: miniapp.NewBroker(bus, logger)}
}

// store is the store the service writes through: with the Mini App every
// write of a game is announced to the open boards.
func (l *liveBoard) store(st play.Store) play.Store {
	if l.broker == nil {
		return st
	}
	return miniapp.WatchStore(st, l.broker)
}

// boardURL gives the "Open board" link of a game, or nil without the app.
func (l *liveBoard) boardURL(botUsername string) func(string) string {
	if l.broker == nil {
		return nil
	}
	return func(id string) string { return miniapp.Link(botUsername, l.cfg.ShortName, id) }
}

// boardImageURL gives the public address of a board image (bot.BoardImage)
// by game and version, or nil without the app: inline games then show
// their boards by URL.
func (l *liveBoard) boardImageURL() func(id, version string) string {
	if l.broker == nil {
		return nil
	}
	base := strings.TrimRight(l.cfg.URL, "/")
	return func(id, version string) string {
		return base + "/board/" + url.PathEscape(id) + "/" + url.PathEscape(version) + ".png"
	}
}

// boardImages serves /board/{id}/{version}.png beside the page. A version
// never changes, so Telegram and any proxy may keep the image for good.
func boardImages(b *bot.Bot, page http.Handler) http.Handler {
	mux := http.NewServeMux()
	mux.Handle("/", page)
	mux.HandleFunc("GET /board/{id}/{file}", func(w http.ResponseWriter, r *http.Request) {
		version, ok := strings.CutSuffix(r.PathValue("file"), ".png")
		if !ok {
			http.NotFound(w, r)
			return
		}
		png, err := b.BoardImage(r.Context(), r.PathValue("id"), version)
		switch {
		case errors.Is(err, bot.ErrNoBoard) || errors.Is(err, storage.ErrNotFound):
			http.NotFound(w, r)
			return
		case err != nil:
			http.Error(w, "the board cannot be drawn now", http.StatusServiceUnavailable)
			return
		}
		w.Header().Set("Content-Type", "image/png")
		w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
		_, _ = w.Write(png)
	})
	return mux
}

// serve runs the broker and the page's server on ln until ctx ends; fail
// hears the server's failure.
func (l *liveBoard) serve(ctx context.Context, wg *sync.WaitGroup, ln net.Listener, fail func(error), token string, now func() time.Time, svc *play.Service, reviews *review.Service, b *bot.Bot, logger *slog.Logger, m *metrics) {
	if l.broker == nil {
		return
	}
	wg.Add(2)
	go func() {
		defer wg.Done()
		if err := l.broker.Run(ctx, nil); err != nil && ctx.Err() == nil {
			logger.Error("miniapp: change listener stopped", "err", err)
		}
	}()
	opts := miniapp.Options{Token: token, Logger: logger, Lang: texts.Lang, Streams: miniappStreams, Puzzles: l.puzzles, Streak: l.streak, Course: l.course, Manners: l.manners,
		Reviews: reviews, Admit: b.Admit} // a chat with too many replies waiting refuses more work
	if l.cfg.ClientIPHeader != "" {
		opts.ClientAddr = miniapp.ClientAddrFrom(l.cfg.ClientIPHeader)
	}
	if m != nil {
		opts.Refused = func(reason string) { m.httpRefused.WithLabelValues("miniapp", reason).Inc() }
	}
	app := miniapp.New(svc, b.Texts(), l.broker, opts)
	go func() {
		defer wg.Done()
		if err := serveHTTP(ctx, ln, boardImages(b, app.Handler(ctx)), logger, "miniapp", miniappLimits, m, now); err != nil {
			fail(err)
		}
	}()
}
