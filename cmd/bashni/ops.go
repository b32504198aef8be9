package main

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/bashni/bashni/play"
	"github.com/bashni/bashni/rules"
)

// metrics are the bot's Prometheus series, on a registry of its own (no
// global state, so tests can run several bots in one process).
type metrics struct {
	reg            *prometheus.Registry
	updates        *prometheus.CounterVec
	updateDuration *prometheus.HistogramVec
	telegramCalls  *prometheus.CounterVec
	telegram429    prometheus.Counter
	aiThink        prometheus.Histogram
	gamesStarted   prometheus.Counter
	gamesFinished  prometheus.Counter
	httpConns      *prometheus.GaugeVec
	httpRefused    *prometheus.CounterVec
	outboxRefused  *prometheus.CounterVec
}

func newMetrics() *metrics {
	m := &metrics{reg: prometheus.NewRegistry()}
	m.updates = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "bashni_updates_total", Help: "Telegram updates handled, by kind and outcome.",
	}, []string{"kind", "outcome"})
	m.updateDuration = prometheus.NewHistogramVec(prometheus.HistogramOpts{
		Name: "bashni_update_duration_seconds", Help: "Time to handle one update (store, rules, render, replies queued).",
		Buckets: []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5},
	}, []string{"kind"})
	m.telegramCalls = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "bashni_telegram_calls_total", Help: "Bot API calls, by method and outcome (ok, error).",
	}, []string{"method", "outcome"})
	m.telegram429 = prometheus.NewCounter(prometheus.CounterOpts{
		Name: "bashni_telegram_429_total", Help: "Bot API calls answered 429 Too Many Requests.",
	})
	m.aiThink = prometheus.NewHistogram(prometheus.HistogramOpts{
		Name: "bashni_ai_think_seconds", Help: "Time the AI took for one move.",
		Buckets: []float64{.01, .05, .1, .25, .5, 1, 2, 3, 5, 10},
	})
	m.gamesStarted = prometheus.NewCounter(prometheus.CounterOpts{Name: "bashni_games_started_total", Help: "Games started by this process."})
	m.gamesFinished = prometheus.NewCounter(prometheus.CounterOpts{Name: "bashni_games_finished_total", Help: "Games finished by this process."})
	m.httpConns = prometheus.NewGaugeVec(prometheus.GaugeOpts{
		Name: "bashni_http_connections", Help: "Connections an HTTP server (webhook, ops) holds.",
	}, []string{"server"})
	m.httpRefused = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "bashni_http_refused_total", Help: "Requests and connections an HTTP server refused, by why: secret, method, body, connections (closed to stay within the bound).",
	}, []string{"server", "reason"})
	m.outboxRefused = prometheus.NewCounterVec(prometheus.CounterOpts{
		Name: "bashni_outbox_refused_total", Help: "Work refused for want of room: lane_full (a chat's outgoing lane at its bound: an update, a Mini App request or a message), answers_full (a tap's answer).",
	}, []string{"reason"})
	m.reg.MustRegister(m.httpConns, m.httpRefused, m.outboxRefused)
	m.reg.MustRegister(m.updates, m.updateDuration, m.telegramCalls, m.telegram429, m.aiThink, m.gamesStarted, m.gamesFinished,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// onHandled records one handled update (bot.Config.OnHandled).
func (m *metrics) onHandled(kind string, d time.Duration, err error) {
	outcome := "ok"
	if err != nil {
		outcome = "error"
	}
	m.updates.WithLabelValues(kind, outcome).Inc()
	m.updateDuration.WithLabelValues(kind).Observe(d.Seconds())
}

// onCall records one Bot API call (outbox.Options.OnCall).
func (m *metrics) onCall(method string, err error, _ time.Duration) {
	outcome := "ok"
	if err != nil {
		outcome = "error"
		if is429(err) {
			m.telegram429.Inc()
		}
	}
	m.telegramCalls.WithLabelValues(method, outcome).Inc()
}

// writable is what readiness needs: the store takes writes.
type writable interface {
	Writable(ctx context.Context) error
}

// opsHandler serves /healthz (the update loop runs), /readyz (the store
// takes writes: take the replica out of rotation while it does not) and
// /metrics.
func opsHandler(store writable, m *metrics, health *loopHealth) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {
		if err := health.check(); err != nil {
			http.Error(w, err.Error(), http.StatusServiceUnavailable)
			return
		}
		fmt.Fprintln(w, "ok")
	})
	mux.HandleFunc("GET /readyz", func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
		defer cancel()
		if err := store.Writable(ctx); err != nil {
			http.Error(w, "store unavailable", http.StatusServiceUnavailable)
			return
		}
		fmt.Fprintln(w, "ready")
	})
	mux.Handle("GET /metrics", promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{Registry: m.reg}))
	return mux
}

// is429 reports whether a Bot API error is Too Many Requests. tgbotapi
// leaves the code at 0 for failed uploads, so retry_after decides too.
func is429(err error) bool {
	var pe *tgbotapi.Error
	if errors.As(err, &pe) {
		return pe.Code == http.StatusTooManyRequests || pe.RetryAfter > 0
	}
	var ve tgbotapi.Error
	if errors.As(err, &ve) {
		return ve.Code == http.StatusTooManyRequests || ve.RetryAfter > 0
	}
	return false
}

// timedThinker measures the AI's think time.
type timedThinker struct {
	play.Thinker
	observe func(time.Duration)
}

func (t timedThinker) Think(ctx context.Context, g *rules.Game, level int) (rules.Move, error) {
	start := time.Now()
	m, err := t.Thinker.Think(ctx, g, level)
	t.observe(time.Since(start))
	return m, err
}
