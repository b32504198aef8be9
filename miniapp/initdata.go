package miniapp

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"time"
)

// ErrUnauthorized is a request whose initData is missing, forged, altered
// or too old. The API answers it with 401.
var ErrUnauthorized = errors.New("miniapp: initData not valid")

// MaxAge is how long a signed initData is accepted: a signed string never
// expires by itself, so a leaked one would otherwise be a key for ever.
const MaxAge = 24 * time.Hour

// User is the Telegram user an initData names.
type User struct {
	ID           int64  `json:"id"`
	FirstName    string `json:"first_name"`
	LastName     string `json:"last_name"`
	Username     string `json:"username"`
	LanguageCode string `json:"language_code"`
}

// Name is how the user is called: first and last name, else username.
func (u User) Name() string {
	name := strings.TrimSpace(u.FirstName + " " + u.LastName)
	if name == "" {
		name = u.Username
	}
	return name
}

// InitData is what a checked initData says.
type InitData struct {
	User       User
	StartParam string // the startapp payload of the direct link: a game id
	AuthDate   time.Time
}

// secretKey is HMAC-SHA256 of the bot token keyed with "WebAppData", as
// Telegram documents ("Validating data received via the Mini App").
func secretKey(token string) []byte {
	m := hmac.New(sha256.New, []byte("WebAppData"))
	m.Write([]byte(token))
	return m.Sum(nil)
}

// dataCheckString is every field but hash, as key=value, sorted by key,
// joined by newlines.
func dataCheckString(v url.Values) string {
	keys := make([]string, 0, len(v))
	for k := range v {
		if k != "hash" {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	lines := make([]string, len(keys))
	for i, k := range keys {
		lines[i] = k + "=" + v.Get(k)
	}
	return strings.Join(lines, "\n")
}

// Checker checks initData with one bot token. Its secret key is computed
// once; a Checker is safe for concurrent use.
type Checker struct {
	secret []byte
	maxAge time.Duration
}

// NewChecker returns a checker for the bot with token, accepting initData
// signed up to maxAge ago (MaxAge if 0).
func NewChecker(token string, maxAge time.Duration) *Checker {
	if maxAge <= 0 {
		maxAge = MaxAge
	}
	return &Checker{secret: secretKey(token), maxAge: maxAge}
}

// Check verifies raw (the query string Telegram gives the page) at time
// now: its hash must be the HMAC of its fields, its auth_date no older than
// the checker's maximum age (nor more than a minute ahead of now), and it
// must name a user. Every failure wraps ErrUnauthorized.
func (c *Checker) Check(raw string, now time.Time) (InitData, error) {
	var d InitData
	if raw == "" {
		return d, fmt.Errorf("%w: missing", ErrUnauthorized)
	}
	v, err := url.ParseQuery(raw)
	if err != nil {
		return d, fmt.Errorf("%w: %v", ErrUnauthorized, err)
	}
	for k, vs := range v {
		if len(vs) != 1 {
			return d, fmt.Errorf("%w: field %q given %d times", ErrUnauthorized, k, len(vs))
		}
	}
	if err := c.verify(v); err != nil {
		return d, err
	}
	sec, err := strconv.ParseInt(v.Get("auth_date"), 10, 64)
	if err != nil {
		return d, fmt.Errorf("%w: bad auth_date", ErrUnauthorized)
	}
	d.AuthDate = time.Unix(sec, 0)
	if age := now.Sub(d.AuthDate); age > c.maxAge || age < -time.Minute {
		return d, fmt.Errorf("%w: signed %s ago", ErrUnauthorized, age.Round(time.Second))
	}
	if err := json.Unmarshal([]byte(v.Get("user")), &d.User); err != nil || d.User.ID == 0 {
		return d, fmt.Errorf("%w: no user", ErrUnauthorized)
	}
	d.StartParam = v.Get("start_param")
	return d, nil
}

// verify checks the signature alone.
func (c *Checker) verify(v url.Values) error {
	got, err := hex.DecodeString(v.Get("hash"))
	if err != nil || len(got) != sha256.Size {
		return fmt.Errorf("%w: no valid hash", ErrUnauthorized)
	}
	m := hmac.New(sha256.New, c.secret)
	m.Write([]byte(dataCheckString(v)))
	if !hmac.Equal(got, m.Sum(nil)) {
		return fmt.Errorf("%w: bad signature", ErrUnauthorized)
	}
	return nil
}

// Sign returns fields as an initData signed with token, as Telegram would
// sign it: for tests and tools that stand in for a Telegram client.
func Sign(token string, fields url.Values) string {
	v := url.Values{}
	for k, vs := range fields {
		if k != "hash" && len(vs) > 0 {
			v.Set(k, vs[0])
		}
	}
	m := hmac.New(sha256.New, secretKey(token))
	m.Write([]byte(dataCheckString(v)))
	v.Set("hash", hex.EncodeToString(m.Sum(nil)))
	return v.Encode()
}

// SignUser is Sign for the usual fields: user, auth_date and start_param.
func SignUser(token string, u User, startParam string, at time.Time) string {
	user, _ := json.Marshal(u) // a struct of strings and ints always encodes
	v := url.Values{}
	v.Set("user", string(user))
	v.Set("auth_date", strconv.FormatInt(at.Unix(), 10))
	if startParam != "" {
		v.Set("start_param", startParam)
	}
	return Sign(token, v)
}
