package telegramtest

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
)

// Failure is an error answer of the Bot API.
type Failure struct {
	Code            int    // error_code, also the HTTP status
	Description     string // description, e.g. "Bad Request: chat not found"
	RetryAfter      int    // parameters.retry_after, seconds
	MigrateToChatID int64  // parameters.migrate_to_chat_id
}

// TooManyRequests is Telegram's flood-control answer.
func TooManyRequests(retryAfter int) Failure {
	return Failure{
		Code:        http.StatusTooManyRequests,
		Description: fmt.Sprintf("Too Many Requests: retry after %d", retryAfter),
		RetryAfter:  retryAfter,
	}
}

// Forbidden is the answer to a message for a user who blocked the bot.
func Forbidden() Failure {
	return Failure{Code: http.StatusForbidden, Description: "Forbidden: bot was blocked by the user"}
}

// BadRequest is a 400 answer; desc gets the "Bad Request: " prefix unless it
// has it.
func BadRequest(desc string) Failure {
	if !strings.HasPrefix(desc, "Bad Request: ") {
		desc = "Bad Request: " + desc
	}
	return Failure{Code: http.StatusBadRequest, Description: desc}
}

func badRequest(format string, args ...any) *Failure {
	f := BadRequest(fmt.Sprintf(format, args...))
	return &f
}

// failRule is one FailNext or FailWhen instruction.
type failRule struct {
	method string          // FailNext: method to fail, lower case
	left   int             // FailNext: calls still to fail
	match  func(Call) bool // FailWhen
	f      Failure
}

// FailNext fails the next n calls to method with f, before they have any
// effect. Rules apply in the order they were made.
func (s *Server) FailNext(method string, n int, f Failure) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.rules = append(s.rules, &failRule{method: strings.ToLower(method), left: n, f: f})
}

// FailWhen fails every call for which match is true with f, before it has
// any effect, until the returned cancel is called. match runs on the
// server's goroutines.
func (s *Server) FailWhen(match func(Call) bool, f Failure) (cancel func()) {
	r := &failRule{match: match, f: f}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.rules = append(s.rules, r)
	return func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		for i, x := range s.rules {
			if x == r {
				s.rules = append(s.rules[:i:i], s.rules[i+1:]...)
				return
			}
		}
	}
}

// injected returns the failure a rule prescribes for c, consuming a
// FailNext use, or nil.
func (s *Server) injected(c Call) *Failure {
	s.mu.Lock()
	rules := append([]*failRule(nil), s.rules...)
	s.mu.Unlock()
	for _, r := range rules {
		// Predicates run without the lock so they may call the server.
		if r.match != nil && !r.match(c.clone()) {
			continue
		}
		s.mu.Lock()
		f, ok := s.consume(r, c.Method)
		s.mu.Unlock()
		if ok {
			return &f
		}
	}
	return nil
}

// consume applies r to a call to method if r is still active. Callers hold
// s.mu.
func (s *Server) consume(r *failRule, method string) (Failure, bool) {
	i := -1
	for j, x := range s.rules {
		if x == r {
			i = j
		}
	}
	if i < 0 {
		return Failure{}, false
	}
	if r.match != nil {
		return r.f, true
	}
	if r.method != strings.ToLower(method) || r.left <= 0 {
		return Failure{}, false
	}
	r.left--
	if r.left == 0 {
		s.rules = append(s.rules[:i:i], s.rules[i+1:]...)
	}
	return r.f, true
}

// holdRule keeps matching calls waiting until its gate is closed.
type holdRule struct {
	match func(Call) bool
	gate  chan struct{}
	held  chan Call
}

// HoldWhen makes every call for which match is true wait, before it has any
// effect, until release is called or its client gives up: a stalled chat or
// a slow Bot API, without timing in the test. Each held call is sent on held
// as it starts waiting (up to 64 unread; later ones are not reported).
// match runs on the server's goroutines. release may be called more than
// once; the test's end releases too.
func (s *Server) HoldWhen(match func(Call) bool) (held <-chan Call, release func()) {
	r := &holdRule{match: match, gate: make(chan struct{}), held: make(chan Call, 64)}
	s.mu.Lock()
	s.holds = append(s.holds, r)
	s.mu.Unlock()
	var once sync.Once
	return r.held, func() { once.Do(func() { close(r.gate) }) }
}

// hold waits while a HoldWhen rule holds c; false means the client went
// away meanwhile.
func (s *Server) hold(ctx context.Context, c Call) bool {
	s.mu.Lock()
	holds := append([]*holdRule(nil), s.holds...)
	s.mu.Unlock()
	for _, r := range holds {
		if !r.match(c.clone()) {
			continue
		}
		select {
		case r.held <- c.clone():
		default:
		}
		select {
		case <-r.gate:
		case <-ctx.Done():
			return false
		case <-s.done:
		}
	}
	return true
}
