package telegram

import (
	"errors"
	"net/url"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestRedact(t *testing.T) {
	tests := []struct{ in, want string }{
		{`Post "https://api.telegram.org/bot123456:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw/getUpdates": dial tcp: i/o timeout`,
			`Post "https://api.telegram.org/bot<redacted>/getUpdates": dial tcp: i/o timeout`},
		{`Post "http://127.0.0.1:8081/bot123456:TEST/sendMessage": EOF`, `Post "http://127.0.0.1:8081/bot<redacted>/sendMessage": EOF`},
		{`token 123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw leaked`, `token <redacted> leaked`},
		{`dial tcp 10.0.0.100:8080: connection refused`, `dial tcp 10.0.0.100:8080: connection refused`},
		{`Bad Request: chat not found`, `Bad Request: chat not found`},
	}
	for _, tt := range tests {
		if got := RedactString(tt.in, ""); got != tt.want {
			t.Errorf("RedactString(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}

	orig := &url.Error{Op: "Post", URL: "http://h/bot1:SECRET/getMe", Err: syscall.ECONNREFUSED}
	err := Redact(orig, "")
	if strings.Contains(err.Error(), "SECRET") {
		t.Errorf("Redact: %v", err)
	}
	ue, ok := errors.AsType[*url.Error](err)
	if !ok || strings.Contains(ue.URL, "SECRET") || !errors.Is(err, syscall.ECONNREFUSED) {
		t.Errorf("unwrapped: %#v; want the *url.Error with its URL redacted, and its cause", ue)
	}
	plain := errors.New("no token here")
	if Redact(plain, "") != plain || Redact(nil, "") != nil {
		t.Errorf("Redact changed an error without a token")
	}
}

// A token given by value is removed even when it does not look like one
// (tests run with tokens such as "123456:TEST").
func TestRedactGivenToken(t *testing.T) {
	got := RedactString("Post https://api.example/x/123:SECRET/getMe: timeout", "123:SECRET")
	if strings.Contains(got, "SECRET") {
		t.Errorf("RedactString = %q", got)
	}
}

func TestBackoff(t *testing.T) {
	for n, want := range []time.Duration{100, 200, 400, 800, 1000, 1000} {
		want *= time.Millisecond
		for range 20 {
			got := Backoff(100*time.Millisecond, time.Second, n)
			if got > want || got < want*4/5 {
				t.Errorf("backoff after %d failures = %v, want %v less up to a fifth", n, got, want)
			}
		}
	}
	if got := Backoff(time.Second, 30*time.Second, 1000); got > 30*time.Second || got < 24*time.Second {
		t.Errorf("backoff after 1000 failures = %v", got)
	}
}
