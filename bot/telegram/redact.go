package telegram

import (
	"errors"
	"net/url"
	"regexp"
	"strings"
)

// tokenRE matches a bot token in a Bot API URL (".../bot<token>/method"),
// and bare tokens of the shape BotFather issues.
var tokenRE = regexp.MustCompile(`bot[0-9]+:[A-Za-z0-9_-]+|\b[0-9]{5,}:[A-Za-z0-9_-]{30,}`)

// RedactString removes bot tokens from s: token itself when given (a test
// token need not look like a real one), and anything shaped like one.
func RedactString(s, token string) string {
	if token != "" {
		s = strings.ReplaceAll(s, token, "<redacted>")
	}
	return tokenRE.ReplaceAllStringFunc(s, func(m string) string {
		if strings.HasPrefix(m, "bot") {
			return "bot<redacted>"
		}
		return "<redacted>"
	})
}

// redactedError is an error whose text had the bot token removed. The
// token-bearing *url.Error tgbotapi returns is replaced by a copy with the
// URL redacted, so unwrapping does not bring the token back.
type redactedError struct {
	msg string
	err error
}

func (e *redactedError) Error() string { return e.msg }
func (e *redactedError) Unwrap() error { return e.err }

// Redact returns err with bot tokens removed from its text (see
// RedactString), for logging and for handing errors on. Errors without a
// token are returned as they are; errors.Is and errors.As still see the
// original error chain.
func Redact(err error, token string) error {
	if err == nil {
		return nil
	}
	msg := err.Error()
	clean := RedactString(msg, token)
	if clean == msg {
		return err
	}
	inner := err
	if ue, ok := errors.AsType[*url.Error](err); ok && ue == err {
		inner = &url.Error{Op: ue.Op, URL: RedactString(ue.URL, token), Err: ue.Err}
	}
	return &redactedError{msg: clean, err: inner}
}
