package telegramtest

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"
)

// Call is one request the bot made.
type Call struct {
	// Method is the Bot API method, spelled canonically ("sendMessage")
	// whatever case the request used.
	Method string
	// Params holds the request's values: form values as sent, JSON string
	// values as the string and other JSON values as raw JSON.
	Params map[string]string
	// Files holds the uploaded files by form field name.
	Files map[string]File
	// At is when the request arrived.
	At time.Time
	// Status is the HTTP status answered: 200, or the error_code; 499 when
	// the client went away during SetLatency's delay.
	Status int
	// Error is the description of a failed call, empty on success.
	Error string
}

// File is an uploaded file.
type File struct {
	Name string // the file name given in the upload
	Data []byte
}

// OK reports whether the call succeeded.
func (c Call) OK() bool { return c.Status == http.StatusOK }

// ChatID returns the chat_id parameter, or 0 when it is absent or not a
// number.
func (c Call) ChatID() int64 {
	id, _ := strconv.ParseInt(c.Params["chat_id"], 10, 64)
	return id
}

// MessageID returns the message_id parameter, or 0.
func (c Call) MessageID() int {
	id, _ := strconv.Atoi(c.Params["message_id"])
	return id
}

// Text returns the text or caption sent, including the caption of the
// media in editMessageMedia.
func (c Call) Text() string {
	if t, ok := c.Params["text"]; ok {
		return t
	}
	if t, ok := c.Params["caption"]; ok {
		return t
	}
	var media struct {
		Caption string `json:"caption"`
	}
	if raw, ok := c.Params["media"]; ok && json.Unmarshal([]byte(raw), &media) == nil {
		return media.Caption
	}
	return ""
}

// ReplyMarkup decodes the reply_markup parameter; nil when there is none or
// it is not an inline keyboard.
func (c Call) ReplyMarkup() *tgbotapi.InlineKeyboardMarkup {
	raw, ok := c.Params["reply_markup"]
	if !ok {
		return nil
	}
	var probe map[string]json.RawMessage
	if json.Unmarshal([]byte(raw), &probe) != nil {
		return nil
	}
	if _, ok := probe["inline_keyboard"]; !ok {
		return nil
	}
	var m tgbotapi.InlineKeyboardMarkup
	if json.Unmarshal([]byte(raw), &m) != nil {
		return nil
	}
	return &m
}

// String summarises the call for failure messages.
func (c Call) String() string {
	var b strings.Builder
	b.WriteString(c.Method)
	if id, ok := c.Params["chat_id"]; ok {
		fmt.Fprintf(&b, " chat=%s", id)
	}
	if id, ok := c.Params["message_id"]; ok {
		fmt.Fprintf(&b, " msg=%s", id)
	}
	if id, ok := c.Params["inline_message_id"]; ok {
		fmt.Fprintf(&b, " inline=%s", id)
	}
	if t := c.Text(); t != "" {
		if r := []rune(t); len(r) > 40 {
			t = string(r[:40]) + "…"
		}
		fmt.Fprintf(&b, " text=%q", t)
	}
	for _, name := range slices.Sorted(maps.Keys(c.Files)) {
		f := c.Files[name]
		fmt.Fprintf(&b, " %s=%q(%d bytes)", name, f.Name, len(f.Data))
	}
	if c.OK() {
		b.WriteString(" → ok")
	} else {
		fmt.Fprintf(&b, " → %d %s", c.Status, c.Error)
	}
	return b.String()
}

// clone copies the call's maps so callers cannot race with each other.
func (c Call) clone() Call {
	c.Params = maps.Clone(c.Params)
	c.Files = maps.Clone(c.Files)
	return c
}

// Calls returns every answered call, in the order they were answered.
func (s *Server) Calls() []Call {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Call, len(s.calls))
	for i, c := range s.calls {
		out[i] = c.clone()
	}
	return out
}

// CallsTo returns the answered calls to one method, whatever their outcome.
func (s *Server) CallsTo(method string) []Call {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Call
	for _, c := range s.calls {
		if strings.EqualFold(c.Method, method) {
			out = append(out, c.clone())
		}
	}
	return out
}

// WaitFor returns the first answered call, past or future, for which match
// is true. It fails the test after timeout with a summary of the calls seen.
// Call it from the test's goroutine.
func (s *Server) WaitFor(t testing.TB, timeout time.Duration, match func(Call) bool) Call {
	t.Helper()
	var found Call
	ok := s.wait(timeout, func(calls []Call) bool {
		for _, c := range calls {
			if match(c) {
				found = c
				return true
			}
		}
		return false
	})
	if !ok {
		t.Fatalf("telegramtest: no matching call within %v; %s", timeout, s.summary())
	}
	return found
}

// WaitCalls waits until at least n calls to method have been answered,
// whatever their outcome, and returns the first n. It fails the test after
// timeout with a summary of the calls seen. Call it from the test's
// goroutine.
func (s *Server) WaitCalls(t testing.TB, method string, n int, timeout time.Duration) []Call {
	t.Helper()
	var found []Call
	ok := s.wait(timeout, func(calls []Call) bool {
		found = found[:0]
		for _, c := range calls {
			if strings.EqualFold(c.Method, method) {
				found = append(found, c)
				if len(found) == n {
					return true
				}
			}
		}
		return n <= 0
	})
	if !ok {
		t.Fatalf("telegramtest: got %d calls to %s within %v, want %d; %s", len(found), method, timeout, n, s.summary())
	}
	return found
}

// wait re-checks done against a snapshot of the calls after every change
// until it holds or timeout passes. done runs without s.mu, so it may call
// back into the server.
func (s *Server) wait(timeout time.Duration, done func([]Call) bool) bool {
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	for {
		s.mu.Lock()
		changed := s.changed
		s.mu.Unlock()
		if done(s.Calls()) {
			return true
		}
		select {
		case <-changed:
		case <-timer.C:
			return done(s.Calls())
		}
	}
}

// summary lists the calls seen, leaving out the stream of getUpdates polls.
func (s *Server) summary() string {
	calls := s.Calls()
	var lines []string
	polls := 0
	for _, c := range calls {
		if c.Method == "getUpdates" && c.OK() {
			polls++
			continue
		}
		lines = append(lines, "\t"+c.String())
	}
	const keep = 40
	head := fmt.Sprintf("saw %d calls (%d successful getUpdates not listed)", len(calls), polls)
	if len(lines) > keep {
		head += fmt.Sprintf(", the last %d:", keep)
		lines = lines[len(lines)-keep:]
	} else if len(lines) > 0 {
		head += ":"
	}
	return strings.Join(append([]string{head}, lines...), "\n")
}

// WaitUntil waits until done reports true, asking again after every answered
// call and every pushed update (what changes the fake's state), and reports
// whether it did within timeout. Call it from the test's goroutine.
func (s *Server) WaitUntil(timeout time.Duration, done func() bool) bool {
	return s.wait(timeout, func([]Call) bool { return done() })
}
