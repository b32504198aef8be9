package telegramtest

import (
	"context"
	"crypto/tls"
	"net/http"
	"net/http/httptest"
	"runtime/pprof"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"
)

// Defaults for the fake bot.
const (
	DefaultToken    = "123456:TEST"
	DefaultUsername = "bashni_test_bot"
)

// An Option configures a Server.
type Option func(*options)

type options struct {
	token       string
	username    string
	privacy     bool
	strictChats bool
}

// WithToken sets the bot token the server accepts. The number before the
// colon is the bot's user id, as with real tokens.
func WithToken(token string) Option { return func(o *options) { o.token = token } }

// WithUsername sets the bot's username returned by getMe.
func WithUsername(username string) Option { return func(o *options) { o.username = username } }

// WithoutPrivacyMode lets the bot see every group message, as after
// /setprivacy Disable in BotFather. By default privacy mode is on, as it is
// on Telegram, and PushUpdate drops group messages the bot would not see.
func WithoutPrivacyMode() Option { return func(o *options) { o.privacy = false } }

// StrictChats refuses sends to chats the fake has not seen in an update
// (or created with a builder) with 400 "Bad Request: chat not found", as
// Telegram does for chats the bot has never met. By default the fake
// invents such chats.
func StrictChats() Option { return func(o *options) { o.strictChats = true } }

// Server is a fake Telegram Bot API server. It is safe for concurrent use.
type Server struct {
	t      testing.TB
	srv    *httptest.Server
	opts   options
	bot    tgbotapi.User
	client *http.Client
	done   chan struct{} // closed at cleanup to release long polls

	mu       sync.Mutex
	changed  chan struct{} // closed and replaced on every change, see notify
	latency  time.Duration
	calls    []Call
	rules    []*failRule
	watchers []*watcher
	seq      int // source of unique ids

	updates      []queued
	nextUpdateID int
	pollGen      int
	waiting      int // getUpdates calls waiting for updates
	// pollStarted, when not nil, is closed when a getUpdates call starts
	// waiting (see WaitPolling).
	pollStarted chan struct{}
	holds       []*holdRule // see HoldWhen
	allowed     []string

	chats         map[int64]*chatState
	users         map[int64]tgbotapi.User
	inline        map[string]*message
	files         map[string]*storedFile
	callbacks     map[string]*callbackState
	inlineQueries map[string]*inlineState
	webhook       Webhook
	commands      map[string][]tgbotapi.BotCommand
	polls         int                 // polls sent, for their ids
	pollMsgs      map[string]*message // the bot's poll messages by poll id
}

// New starts a fake Bot API server, closed when the test ends.
func New(t testing.TB, opts ...Option) *Server {
	t.Helper()
	o := options{token: DefaultToken, username: DefaultUsername, privacy: true}
	for _, opt := range opts {
		opt(&o)
	}
	id, err := strconv.ParseInt(strings.SplitN(o.token, ":", 2)[0], 10, 64)
	if err != nil || id <= 0 {
		t.Fatalf("telegramtest: token %q does not start with a bot id", o.token)
	}
	s := &Server{
		t:    t,
		opts: o,
		bot: tgbotapi.User{
			ID: id, IsBot: true, FirstName: "Bashni Test Bot", UserName: o.username,
			CanJoinGroups: true, SupportsInlineQueries: true,
		},
		client: &http.Client{Transport: &http.Transport{
			// Telegram accepts a webhook's self-signed certificate once it
			// is uploaded; the fake accepts any.
			TLSClientConfig: &tls.Config{InsecureSkipVerify: true},
			// Telegram keeps up to max_connections (at most 100)
			// connections to a webhook open; the default transport would
			// close all but two idle ones after each burst.
			MaxIdleConnsPerHost: 100,
			IdleConnTimeout:     time.Minute,
		}},
		done:          make(chan struct{}),
		changed:       make(chan struct{}),
		nextUpdateID:  1000,
		chats:         make(map[int64]*chatState),
		users:         make(map[int64]tgbotapi.User),
		inline:        make(map[string]*message),
		files:         make(map[string]*storedFile),
		callbacks:     make(map[string]*callbackState),
		inlineQueries: make(map[string]*inlineState),
		commands:      make(map[string][]tgbotapi.BotCommand),
		pollMsgs:      make(map[string]*message),
	}
	// The server's goroutines inherit the label, so that a CPU profile of
	// a test tells the fake's work from the bot's (go tool pprof -tags).
	pprof.Do(context.Background(), pprof.Labels("harness", "telegramtest"), func(context.Context) {
		s.srv = httptest.NewServer(http.HandlerFunc(s.serveHTTP))
	})
	t.Cleanup(func() {
		close(s.done)
		s.srv.Close()
		s.client.CloseIdleConnections()
	})
	return s
}

// Token returns the token the server accepts.
func (s *Server) Token() string { return s.opts.token }

// URL returns the server's base URL, without a trailing slash.
func (s *Server) URL() string { return s.srv.URL }

// Endpoint returns the format string for tgbotapi.NewBotAPIWithAPIEndpoint.
func (s *Server) Endpoint() string { return s.srv.URL + "/bot%s/%s" }

// Bot returns the bot's own user, as getMe reports it.
func (s *Server) Bot() tgbotapi.User { return s.bot }

// SetLatency delays every answer by d, for pacing tests. A request whose
// client goes away meanwhile is answered at once.
func (s *Server) SetLatency(d time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.latency = d
}

// notify wakes everyone waiting for a change. Callers hold s.mu.
func (s *Server) notify() {
	close(s.changed)
	s.changed = make(chan struct{})
}

// nextSeq returns a number unique within the server. Callers hold s.mu.
func (s *Server) nextSeq() int {
	s.seq++
	return s.seq
}
