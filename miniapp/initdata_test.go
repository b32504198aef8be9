package miniapp

import (
	"errors"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The fixed example: a made-up bot token and an initData whose hash was
// computed apart from this code, with openssl:
//
//	secret=$(printf %s "$TOKEN" | openssl dgst -sha256 -hmac WebAppData -binary | xxd -p -c 256)
//	printf %s "$DATA_CHECK_STRING" | openssl dgst -sha256 -mac HMAC -macopt hexkey:$secret
const (
	exampleToken    = "7342037359:AAHI25ES9xCOMPWYWRNDHUm9JBuZFNbpkXU"
	exampleUser     = `{"id":1246866076,"first_name":"Ann","language_code":"ru"}`
	exampleHash     = "0a1eb4725f1047035137c98a35e2b8adbbf00ee258e8da12bbb6465f5342f082"
	exampleAuthDate = "1733584787"
)

func exampleValues() url.Values {
	v := url.Values{}
	v.Set("query_id", "AAGcqlFKAAAAAJyqUUp6BZX0")
	v.Set("user", exampleUser)
	v.Set("auth_date", exampleAuthDate)
	v.Set("hash", exampleHash)
	return v
}

func TestSignatureOfFixedExample(t *testing.T) {
	c := NewChecker(exampleToken, 0)
	if err := c.verify(exampleValues()); err != nil {
		t.Fatalf("the fixed example is refused: %v", err)
	}
	if got := Sign(exampleToken, exampleValues()); !strings.Contains(got, "hash="+exampleHash) {
		t.Errorf("Sign gives %s; want hash %s", got, exampleHash)
	}
	altered := exampleValues()
	altered.Set("user", strings.Replace(exampleUser, "1246866076", "1246866077", 1))
	if err := c.verify(altered); !errors.Is(err, ErrUnauthorized) {
		t.Errorf("altered user: err %v; want ErrUnauthorized", err)
	}
	if err := NewChecker(exampleToken+"x", 0).verify(exampleValues()); !errors.Is(err, ErrUnauthorized) {
		t.Errorf("other token: err %v; want ErrUnauthorized", err)
	}
}

func TestCheck(t *testing.T) {
	now := time.Now()
	c := NewChecker(exampleToken, 0)
	u := User{ID: 42, FirstName: "Alice", LanguageCode: "ru"}
	good := SignUser(exampleToken, u, "game123", now.Add(-time.Hour))
	d, err := c.Check(good, now)
	if err != nil {
		t.Fatalf("a fresh signed initData is refused: %v", err)
	}
	if d.User != u || d.StartParam != "game123" {
		t.Errorf("got user %+v, start %q; want %+v, game123", d.User, d.StartParam, u)
	}
	bad := map[string]string{
		"empty":       "",
		"forged":      SignUser("1:other-token", u, "game123", now),
		"day old":     SignUser(exampleToken, u, "game123", now.Add(-MaxAge-time.Minute)),
		"from future": SignUser(exampleToken, u, "game123", now.Add(time.Hour)),
		"altered":     strings.Replace(good, "game123", "game124", 1),
		"no hash":     strings.Split(good, "&hash=")[0],
		"no user":     Sign(exampleToken, url.Values{"auth_date": {strconv.FormatInt(now.Unix(), 10)}}),
		"doubled":     good + "&user=x",
		"bad escape":  "%zz",
	}
	for name, raw := range bad {
		t.Run(name, func(t *testing.T) {
			if _, err := c.Check(raw, now); !errors.Is(err, ErrUnauthorized) {
				t.Errorf("err %v; want ErrUnauthorized", err)
			}
		})
	}
}
