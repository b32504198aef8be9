package miniapp

import (
	"errors"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"
)

// StreamLimits bound the live event streams of one process. A stream
// holds a connection for as long as the board is open, so without them
// one user opening a thousand streams fills the server's connection bound
// and locks everyone else out (the page, the API, other users).
type StreamLimits struct {
	// PerUser is how many streams one Telegram user may hold; a new one
	// beyond ends their oldest (a board reopened after a phone dropped the
	// old connection must not be refused). 4 if 0.
	PerUser int
	// PerAddr is how many streams one client address may hold; beyond it
	// a new one is refused (429). 32 if 0.
	PerAddr int
	// Total is how many streams the process holds at once; beyond it a new
	// one is refused (503). Keep it well below the server's connection
	// bound, so that page and API requests always find room. 500 if 0.
	Total int
	// WriteTimeout ends a stream whose write has not gone out within it:
	// a board that stopped reading must not hold a connection and a
	// growing send queue forever. 10 s if 0.
	WriteTimeout time.Duration
}

func (l StreamLimits) withDefaults() StreamLimits {
	if l.PerUser <= 0 {
		l.PerUser = 4
	}
	if l.PerAddr <= 0 {
		l.PerAddr = 32
	}
	if l.Total <= 0 {
		l.Total = 500
	}
	if l.WriteTimeout <= 0 {
		l.WriteTimeout = 10 * time.Second
	}
	return l
}

var (
	// errTooManyStreams refuses a stream beyond StreamLimits.PerAddr.
	errTooManyStreams = errors.New("miniapp: too many event streams from this address")
	// errStreamsFull refuses a stream beyond StreamLimits.Total.
	errStreamsFull = errors.New("miniapp: the server holds as many event streams as it may")
)

// stream is one admitted event stream; ended is closed when a newer
// stream of the same user takes its place.
type stream struct {
	user    int64
	addr    string
	ended   chan struct{}
	counted bool // still in the counts; guarded by streams.mu
}

// streams counts the open event streams by user and address.
type streams struct {
	lim     StreamLimits
	changed func(open int)

	mu     sync.Mutex
	total  int
	byAddr map[string]int
	byUser map[int64][]*stream // oldest first
}

func newStreams(lim StreamLimits, changed func(open int)) *streams {
	if changed == nil {
		changed = func(int) {}
	}
	return &streams{lim: lim.withDefaults(), changed: changed, byAddr: map[string]int{}, byUser: map[int64][]*stream{}}
}

// admit takes a place for a stream of user from addr, ending the user's
// oldest stream when they are at their limit, or refuses it.
func (ss *streams) admit(user int64, addr string) (*stream, error) {
	ss.mu.Lock()
	var oldest *stream
	if mine := ss.byUser[user]; len(mine) >= ss.lim.PerUser {
		oldest = mine[0]
	}
	// The place the oldest frees counts for the new one.
	total, fromAddr := ss.total, ss.byAddr[addr]
	if oldest != nil {
		total--
		if oldest.addr == addr {
			fromAddr--
		}
	}
	switch {
	case total >= ss.lim.Total:
		ss.mu.Unlock()
		return nil, errStreamsFull
	case fromAddr >= ss.lim.PerAddr:
		ss.mu.Unlock()
		return nil, errTooManyStreams
	}
	if oldest != nil {
		ss.forget(oldest)
		close(oldest.ended)
	}
	st := &stream{user: user, addr: addr, ended: make(chan struct{}), counted: true}
	ss.byUser[user] = append(ss.byUser[user], st)
	ss.byAddr[addr]++
	ss.total++
	open := ss.total
	ss.mu.Unlock()
	ss.changed(open)
	return st, nil
}

// release gives back st's place when its handler returns.
func (ss *streams) release(st *stream) {
	ss.mu.Lock()
	ss.forget(st)
	open := ss.total
	ss.mu.Unlock()
	ss.changed(open)
}

// forget takes st out of the counts, once. Callers hold ss.mu.
func (ss *streams) forget(st *stream) {
	if !st.counted {
		return
	}
	st.counted = false
	ss.total--
	if ss.byAddr[st.addr]--; ss.byAddr[st.addr] <= 0 {
		delete(ss.byAddr, st.addr)
	}
	mine := ss.byUser[st.user]
	for i, s := range mine {
		if s == st {
			mine = append(mine[:i:i], mine[i+1:]...)
			break
		}
	}
	if len(mine) == 0 {
		delete(ss.byUser, st.user)
	} else {
		ss.byUser[st.user] = mine
	}
}

// remoteHost is the address a request came from, without its port.
func remoteHost(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// ClientAddrFrom returns a ClientAddr that reads the client's address
// from header, as a reverse proxy in front of the server sets it
// (X-Real-IP, or the last hop of X-Forwarded-For); a request without it
// counts by its own remote address. Only for a server reached through
// that proxy alone: anyone else could set the header.
func ClientAddrFrom(header string) func(*http.Request) string {
	return func(r *http.Request) string {
		v := r.Header.Values(header)
		if len(v) == 0 {
			return remoteHost(r)
		}
		last := v[len(v)-1]
		if i := strings.LastIndexByte(last, ','); i >= 0 {
			last = last[i+1:]
		}
		if ip := net.ParseIP(strings.TrimSpace(last)); ip != nil {
			return ip.String()
		}
		return remoteHost(r)
	}
}

// refusalOf names why a stream was refused, for the metrics.
func refusalOf(err error) string {
	if errors.Is(err, errTooManyStreams) {
		return "streams per address"
	}
	return "streams"
}
