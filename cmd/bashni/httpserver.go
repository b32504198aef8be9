package main

import (
	"container/list"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"time"

	"golang.org/x/time/rate"

	"github.com/bashni/bashni/miniapp"
)

// serverLimits bound what one client can hold of an HTTP server: time to
// send headers and body, time to read the answer, idle keep-alive, header
// size, and connections.
type serverLimits struct {
	ReadHeader, Read, Write, Idle time.Duration
	MaxHeaderBytes                int
	// MaxConns bounds the connections held at once. A new connection
	// beyond it closes the oldest one that is idle or has not yet sent a
	// request, so a crowd of idle connections cannot keep a real request
	// out; with none such, the new connection is closed.
	MaxConns int
}

// webhookLimits: Telegram sends small JSON bodies over at most 100
// connections; a request waits for its update to be handled (up to the
// webhook's HandleTimeout, 30 s) before it is answered.
var webhookLimits = serverLimits{
	ReadHeader: 5 * time.Second, Read: 10 * time.Second, Write: 45 * time.Second, Idle: 30 * time.Second,
	MaxHeaderBytes: 16 << 10, MaxConns: 1000,
}

// miniappLimits: the page, its API and live event streams, which stay
// open (so no server-wide write timeout: each write to a stream has its
// own deadline, miniappStreams.WriteTimeout). An open stream is active and
// never closed to make room, so streams are bounded apart, well below
// MaxConns (miniappStreams).
var miniappLimits = serverLimits{
	ReadHeader: 5 * time.Second, Read: 10 * time.Second, Write: 0, Idle: 60 * time.Second,
	MaxHeaderBytes: 16 << 10, MaxConns: 1000,
}

// miniappStreams bound the event streams: 4 a user (a fifth ends their
// oldest), 32 an address, and half the connection bound in all, so that
// the other half always serves the page and the API.
var miniappStreams = miniapp.StreamLimits{PerUser: 4, PerAddr: 32, Total: miniappLimits.MaxConns / 2, WriteTimeout: 10 * time.Second}

// opsLimits: probes and a metrics scrape now and then.
var opsLimits = serverLimits{
	ReadHeader: 5 * time.Second, Read: 5 * time.Second, Write: 30 * time.Second, Idle: 30 * time.Second,
	MaxHeaderBytes: 16 << 10, MaxConns: 64,
}

// listen takes the address a server named name will serve on.
func listen(addr, name string) (net.Listener, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("%s server: %w", name, err)
	}
	return ln, nil
}

// serveHTTP runs an HTTP server on ln within limits until ctx ends, then
// shuts it down gracefully. m, if set, counts its connections and those it
// closed to stay within MaxConns; those are logged at most once a minute
// by the clock now, with how many there were.
func serveHTTP(ctx context.Context, ln net.Listener, h http.Handler, logger *slog.Logger, name string, lim serverLimits, m *metrics, now func() time.Time) error {
	var mu sync.Mutex
	closed := 0
	pace := rate.NewLimiter(rate.Every(time.Minute), 1)
	conns := newConnLimiter(lim.MaxConns, func(held int, evicted bool) {
		if m != nil {
			m.httpConns.WithLabelValues(name).Set(float64(held))
			if evicted {
				m.httpRefused.WithLabelValues(name, "connections").Inc()
			}
		}
		if !evicted {
			return
		}
		mu.Lock()
		closed++
		n, log := closed, pace.AllowN(now(), 1)
		if log {
			closed = 0
		}
		mu.Unlock()
		if log {
			logger.Warn("connections closed to stay within the bound (logged at most once a minute)",
				"server", name, "closed", n, "held", held, "max", lim.MaxConns)
		}
	})
	srv := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: lim.ReadHeader,
		ReadTimeout:       lim.Read,
		WriteTimeout:      lim.Write,
		IdleTimeout:       lim.Idle,
		MaxHeaderBytes:    lim.MaxHeaderBytes,
		ConnState:         conns.track,
		ErrorLog:          slog.NewLogLogger(logger.Handler(), slog.LevelDebug), // TLS and header junk from strangers
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	logger.Info("listening", "server", name, "addr", ln.Addr().String())
	select {
	case err := <-errc:
		return fmt.Errorf("%s: %w", name, err)
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("%s: shutdown: %w", name, err)
	}
	return nil
}

// connLimiter keeps an HTTP server's connections within max (see
// serverLimits.MaxConns), fed by http.Server.ConnState.
type connLimiter struct {
	max    int
	report func(held int, evicted bool)

	mu    sync.Mutex
	held  map[net.Conn]*list.Element // every connection; the element is non-nil while it is quiet
	quiet *list.List                 // idle or new connections, oldest first
}

func newConnLimiter(maxConns int, report func(held int, evicted bool)) *connLimiter {
	return &connLimiter{max: maxConns, report: report, held: map[net.Conn]*list.Element{}, quiet: list.New()}
}

func (l *connLimiter) track(c net.Conn, state http.ConnState) {
	var victim net.Conn
	l.mu.Lock()
	switch state {
	case http.StateNew:
		l.held[c] = l.quiet.PushBack(c)
		if len(l.held) > l.max {
			// The oldest quiet one goes; this one if it is the only one.
			victim = l.quiet.Front().Value.(net.Conn)
			l.forget(victim)
		}
	case http.StateActive:
		if e := l.held[c]; e != nil {
			l.quiet.Remove(e)
			l.held[c] = nil
		}
	case http.StateIdle:
		if _, ok := l.held[c]; ok && l.held[c] == nil {
			l.held[c] = l.quiet.PushBack(c)
		}
	case http.StateHijacked, http.StateClosed:
		l.forget(c)
	}
	held := len(l.held)
	l.mu.Unlock()
	if victim != nil {
		_ = victim.Close() // its server goroutine ends, reporting StateClosed
	}
	l.report(held, victim != nil)
}

// forget drops c. Callers hold l.mu.
func (l *connLimiter) forget(c net.Conn) {
	e, ok := l.held[c]
	if !ok {
		return
	}
	if e != nil {
		l.quiet.Remove(e)
	}
	delete(l.held, c)
}
